/**
 * The main paths read top to bottom: no function of the packages' sources runs over 80 lines
 * (tests, generated files and benchmarks aside), measured on the TypeScript compiler's syntax
 * tree, from the line of its first token to the line of its last. A function that grows past
 * the limit fails here, named with its file and line; split it into named steps.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const MAX_LINES = 80;
const WORKSPACES = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { workspaces: string[] }).workspaces;
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** Every source file under a package's src/ (declarations and bundles built there aside). */
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => SOURCE.test(name) && !name.endsWith(".d.ts") && !name.split("/").includes("generated"))
    .map((name) => join(dir, name));
}

interface LongFunction {
  where: string;
  name: string;
  lines: number;
}

/** The functions of a file over the limit: declarations, expressions, arrows, methods and accessors. */
function longFunctions(file: string, text = readFileSync(file, "utf8")): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const line = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = line(node.getStart(source));
      const lines = line(node.getEnd()) - first + 1;
      const name = node.name?.getText(source) ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : "(anonymous)");
      if (lines > MAX_LINES) found.push({ where: `${relative(ROOT, file)}:${first}`, name, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("function length", () => {
  it(`no function of the packages' sources runs over ${MAX_LINES} lines`, () => {
    const files = WORKSPACES.flatMap((workspace) => sources(join(ROOT, workspace, "src")));
    expect(files.length).toBeGreaterThan(100);
    const long = files.flatMap((file) => longFunctions(file)).map((f) => `${f.where} ${f.name}: ${f.lines} lines`);
    expect(long, "split each into named steps, each of one job").toEqual([]);
  });

  it("finds a function over the limit, an arrow held by a constant and a method alike, and none at the limit", () => {
    const body = (lines: number) => Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    const text = [
      `function atTheLimit(): void {\n${body(MAX_LINES)}\n}`,
      `function overIt(): void {\n${body(MAX_LINES + 1)}\n}`,
      `const arrow = (): void => {\n${body(MAX_LINES + 1)}\n};`,
      `class Holder {\n  method(): void {\n${body(MAX_LINES + 1)}\n  }\n}`,
    ].join("\n");
    const found = longFunctions(join(ROOT, "cli/test/example.ts"), text);
    expect(found.map((f) => `${f.name} ${f.lines}`)).toEqual([`overIt ${MAX_LINES + 1}`, `arrow ${MAX_LINES + 1}`, `method ${MAX_LINES + 1}`]);
  });
});
