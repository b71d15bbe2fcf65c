/**
 * Type-level tests: the fixtures under type-fixtures/ are compiled with the project's
 * compiler options. Each fixture mixes valid calls (with `expectTypeOf` assertions on the
 * results) and lines marked `@ts-expect-error` (a wrong field name, a wrong type, an unknown
 * path or error code...). Zero diagnostics means every valid call compiles AND every marked
 * line is rejected (an unused `@ts-expect-error` is itself a diagnostic).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "@payment-collection/contract/build/contract-build.ts";

const FIXTURES = fileURLToPath(new URL("./type-fixtures", import.meta.url));
const fixtureFiles = readdirSync(FIXTURES)
  .filter((name) => name.endsWith(".ts"))
  .map((name) => join(FIXTURES, name));

function compile(files: string[]): ts.Diagnostic[] {
  const configPath = join(ROOT, "tsconfig.json");
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, ROOT);
  const program = ts.createProgram(files, { ...config.options, noEmit: true });
  return files.flatMap((file) => [...ts.getPreEmitDiagnostics(program, program.getSourceFile(file))]);
}

function describeDiagnostic(diagnostic: ts.Diagnostic): string {
  const where = diagnostic.file
    ? `${diagnostic.file.fileName}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}`
    : "";
  return `${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
}

describe("client types", () => {
  it("has fixtures for both families, each with rejected lines", () => {
    expect(fixtureFiles.map((file) => file.split("/").pop()).sort()).toEqual(["family-a-calls.ts", "family-b-calls.ts"]);
    for (const file of fixtureFiles) {
      const marked = readFileSync(file, "utf8").match(/@ts-expect-error/g) ?? [];
      expect(marked.length, file).toBeGreaterThanOrEqual(8);
    }
  });

  it("compiles valid calls and rejects every marked wrong call (wrong field names and types fail to compile)", () => {
    const diagnostics = compile(fixtureFiles);
    expect(diagnostics.map(describeDiagnostic)).toEqual([]);
  });
});
