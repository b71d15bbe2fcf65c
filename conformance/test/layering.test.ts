/**
 * The layers of src/: core/ is the ground (context, validation, results, target, pacing,
 * profiles) and imports none of the layers above it; checks/, scenarios/ and dredd/ stand on
 * core/ and never reach up into runner/; nothing in src/ imports the sandbox package (the
 * tests use it as the reference server).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|cjs|js)$/.test(entry.name) ? [path] : [];
  });
}

/** Every module a file imports or requires, as written. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm)];
  return found.map((match) => match[1]!);
}

/** The top folder of src/ a relative import lands in ("" for src/ itself), or undefined for a package. */
function layerOf(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const target = relative(SRC, resolve(dirname(file), specifier));
  return target.includes("/") ? target.split("/")[0] : "";
}

function violations(layers: string[], forbidden: string[]): string[] {
  return layers.flatMap((layer) =>
    sources(join(SRC, layer)).flatMap((file) =>
      specifiers(file)
        .filter((specifier) => forbidden.includes(layerOf(file, specifier) ?? "-"))
        .map((specifier) => `${relative(SRC, file)} imports ${specifier}`),
    ),
  );
}

describe("the layers of conformance/src", () => {
  it("core imports nothing above it", () => {
    expect(violations(["core"], ["runner", "checks", "scenarios", "dredd", "mock", "bundle", ""])).toEqual([]);
  });

  it("checks, scenarios and dredd never import the runner or the bundle", () => {
    expect(violations(["checks", "scenarios", "dredd"], ["runner", "bundle", ""])).toEqual([]);
  });

  it("nothing imports the sandbox package", () => {
    const found = sources(SRC).flatMap((file) =>
      specifiers(file)
        .filter((specifier) => specifier.startsWith("@payment-collection/sandbox") || /(^|\/)sandbox\/src\//.test(specifier))
        .map((specifier) => `${relative(SRC, file)} imports ${specifier}`),
    );
    expect(found).toEqual([]);
  });
});
