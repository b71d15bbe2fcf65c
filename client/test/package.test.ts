/**
 * Package shape: `npm pack` holds what a consumer needs and nothing else, and a consumer
 * project in a temporary folder installs the packed tarball and compiles a call of each
 * family with `tsc --strict` (browser-like: DOM lib, no Node types), then imports it at run time.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "@payment-collection/contract/build/contract-build.ts";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const scratch = mkdtempSync(join(tmpdir(), "client-package-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: Array<{ path: string; size: number }>;
}

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, npm_config_update_notifier: "false" } });
}

function pack(extra: string[]): PackResult {
  const output = run(npm, ["pack", "--json", ...extra], ROOT);
  return (JSON.parse(output.slice(output.indexOf("["))) as PackResult[])[0]!;
}

/** What a consumer needs: the compiled client and types, the family documents, README, package.json. */
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^dist\/src\/client\/[a-z-]+\.(js|d\.ts)$/,
  /^dist\/generated\/types\/family-[ab]\.(js|d\.ts)$/,
  /^generated\/openapi\/3\.[01]\/family-[ab]\.(yaml|json|dereferenced\.json)$/,
];

describe("npm package", () => {
  let tarball = "";

  it("packs the client, the types and the OpenAPI documents of each family, and nothing else", () => {
    const result = pack(["--dry-run"]);
    const paths = result.files.map((file) => file.path);
    const stray = paths.filter((path) => !ALLOWED.some((pattern) => pattern.test(path)));
    expect(stray).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    // Every export target is in the package.
    const targets: string[] = [];
    for (const [subpath, target] of Object.entries<string | Record<string, string>>(manifest.exports)) {
      if (subpath.includes("*")) continue;
      targets.push(...(typeof target === "string" ? [target] : Object.values(target)));
    }
    for (const target of targets) expect(paths, target).toContain(target.replace(/^\.\//, ""));
    for (const family of ["family-a", "family-b"]) {
      for (const version of ["3.0", "3.1"]) expect(paths).toContain(`generated/openapi/${version}/${family}.yaml`);
    }
    expect(paths).toContain("dist/src/client/index.js");
    expect(paths).toContain(manifest.types.replace(/^\.\//, ""));
  });

  it("installs from the tarball and compiles a call of each family with tsc --strict", () => {
    const packed = pack(["--pack-destination", scratch]);
    tarball = join(scratch, packed.filename);
    const consumer = join(scratch, "consumer");
    mkdirSync(consumer);
    writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    run(npm, ["install", tarball, "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], consumer);
    writeFileSync(
      join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2022", "DOM"], types: [], strict: true, noEmit: true },
        include: ["*.ts"],
      }),
    );
    writeFileSync(
      join(consumer, "calls.ts"),
      [
        `import { createChargesClient, createSdkClient, isSdkError, ChargesApiError } from "@payment-collection/contract";`,
        `import type { components as A } from "@payment-collection/contract/types/family-a";`,
        `import type { components as B } from "@payment-collection/contract/types/family-b";`,
        `const charges = createChargesClient({ baseUrl: "https://api.example.com", apiKey: "sk_live_x" });`,
        `export async function createCharge(): Promise<A["schemas"]["Charge"]> {`,
        `  return charges.unwrap(charges.POST("/v1/charges", { body: { amount: 1990, method: "pix" } }));`,
        `}`,
        `const sdk = createSdkClient({ environment: "sandbox", apiKey: "pcs_test_x" });`,
        `export async function getCustomer(id: string): Promise<B["schemas"]["Customer"]> {`,
        `  return sdk.unwrap(sdk.GET("/api/v1/sdk/customers/{id}", { params: { path: { id } } }));`,
        `}`,
        `export function codeOf(error: unknown): string {`,
        `  if (error instanceof ChargesApiError) return error.code;`,
        `  if (isSdkError(error)) { switch (error.code) { case "ODE002": return error.version; default: return error.code; } }`,
        `  return "unknown";`,
        `}`,
      ].join("\n"),
    );
    const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
    expect(() => run(process.execPath, [tsc, "-p", consumer, "--strict"], consumer)).not.toThrow();

    // A wrong field name in the consumer fails to compile against the installed package.
    writeFileSync(join(consumer, "wrong.ts"), `import { createChargesClient } from "@payment-collection/contract";\nawait createChargesClient({ apiKey: "k" }).POST("/v1/charges", { body: { amount: 1, method: "pix", referense: "x" } });\n`);
    let failure = "";
    try {
      run(process.execPath, [tsc, "-p", consumer, "--strict"], consumer);
    } catch (error) {
      failure = String((error as { stdout?: string }).stdout);
    }
    expect(failure).toMatch(/wrong\.ts.*referense/s);

    // Run time: the ESM entry and the document subpath resolve from the installed package.
    const probe = `const m = await import("@payment-collection/contract"); console.log(typeof m.createChargesClient, typeof m.createSdkClient, import.meta.resolve("@payment-collection/contract/openapi/3.1/family-b.yaml").endsWith("family-b.yaml"));`;
    expect(run(process.execPath, ["--input-type=module", "-e", probe], consumer).trim()).toBe("function function true");
  }, 180_000);
});
