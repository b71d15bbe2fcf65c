/**
 * The build pipeline of the contract: TypeSpec -> OpenAPI 3.0 and 3.1 (YAML, JSON and a
 * dereferenced JSON) per family, written under stable names.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import SwaggerParser from "@apidevtools/swagger-parser";
import { FAMILIES, OPENAPI_VERSIONS, openapiPath } from "../../src/contract/layout.ts";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Runs the TypeSpec compiler into a scratch folder and returns that folder. */
function compileTypeSpec(): string {
  const scratch = mkdtempSync(join(tmpdir(), "tsp-"));
  const tsp = join(ROOT, "node_modules/@typespec/compiler/cmd/tsp.js");
  execFileSync(process.execPath, [tsp, "compile", join(ROOT, "spec/main.tsp"), "--output-dir", scratch], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return join(scratch, "openapi3");
}

function write(outDir: string, relative: string, content: string, written: string[]): void {
  const target = join(outDir, relative);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
  written.push(relative);
}

/** Builds the contract into `outDir` (relative to the repository root) and lists what it wrote. */
export async function buildContract(outDir: string): Promise<string[]> {
  const out = resolve(ROOT, outDir);
  const emitted = compileTypeSpec();
  const written: string[] = [];
  rmSync(join(out, "openapi"), { recursive: true, force: true });
  for (const version of OPENAPI_VERSIONS) {
    for (const family of FAMILIES) {
      const base = join(emitted, version.emitterFolder, family.emitterName);
      write(out, openapiPath(version.id, family.id, "yaml"), readFileSync(`${base}.yaml`, "utf8"), written);
      const json = readFileSync(`${base}.json`, "utf8");
      write(out, openapiPath(version.id, family.id, "json"), json, written);
      // A self-contained variant for tools that cannot follow $ref.
      const dereferenced = await SwaggerParser.dereference(JSON.parse(json));
      write(out, openapiPath(version.id, family.id, "dereferenced.json"), `${JSON.stringify(dereferenced, null, 2)}\n`, written);
    }
  }
  rmSync(dirname(emitted), { recursive: true, force: true });
  return written;
}
