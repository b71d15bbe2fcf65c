/**
 * What `npm run mutation -- --ci` mutates: a sample of the sandbox's functions where a client's
 * verdict hangs on one condition (ci-sample.json says which and why), each mutated whole, and
 * the floor its score must keep. A whole run takes hours on a CI machine; the sample takes a
 * minute or two, and a check that stops seeing one of these faults fails CI.
 *
 * The functions are named, not given as line ranges, so that the sample follows the code when
 * it moves: the TypeScript compiler finds each one's lines when the run starts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

export interface CiSample {
  /** The lowest mutation score (percent) the sample may have. */
  floor: number;
  /** Unit names (or parts of them) the sample's mutants are run against: the units that reach these functions. */
  units: string[];
  functions: Array<{ file: string; name: string; why: string }>;
}

export const CI_SAMPLE = "mutation/ci-sample.json";

export function readCiSample(root: string): CiSample {
  return JSON.parse(readFileSync(join(root, CI_SAMPLE), "utf8")) as CiSample;
}

/** The declaration of a top-level function (or a constant holding one) named `name`. */
function declarationOf(source: ts.SourceFile, name: string): ts.Node | undefined {
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name?.text === name) return statement;
    if (ts.isVariableStatement(statement) && statement.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === name)) return statement;
  }
  return undefined;
}

/** Stryker's `--mutate` range of a named function: `file:first-last` (lines). */
export function functionRange(root: string, file: string, name: string): string {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), "utf8"), ts.ScriptTarget.Latest, true);
  const node = declarationOf(source, name);
  if (!node) throw new Error(`${CI_SAMPLE}: ${file} has no top-level function ${name}`);
  const line = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  return `${file}:${line(node.getStart(source))}-${line(node.getEnd())}`;
}
