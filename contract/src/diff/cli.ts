/**
 * `payment-collection contract diff --base <git ref | folder | file> [--head <folder | file>] [--json | --markdown]`
 *
 * Compares the generated OpenAPI 3.1 documents of both families with those of a base and
 * classifies every change (see contract/README.md, "Breaking changes"). Exit codes: 0 no
 * breaking change the version does not allow, 1 a breaking change the version does not allow,
 * 2 bad input (one line on stderr, never a stack trace). Thin on purpose (the
 * `contract diff` subcommand of the project CLI); the engine is ./index.ts.
 */
import { readCommandLine, refuse, UsageError } from "../command/command-line.ts";
import { countByVerdict, diffFamilies, judge, pathVersionsOf, renderChangelog, type JudgedChange } from "./index.ts";
import { BadInput, loadBase, loadFile, loadFolder, loadWorkingTree, restrictTo, type LoadedSide } from "./sources.ts";
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";

export const USAGE = `usage: payment-collection contract diff --base <git ref | folder | file> [options]

Compares the generated OpenAPI 3.1 documents of family A and family B (generated/openapi/3.1)
with a base and classifies each change as breaking, compatible or informational.

  --base <ref|path>  a git ref (HEAD, v0.2.0, origin/main), a folder (package root, generated/,
                     or a folder of family-a.json / family-b.json) or one document (a file)
  --head <path>      compare against this folder or file instead of the working tree
  --json             print the changes as JSON
  --markdown         print CHANGELOG entries (per family: breaking, compatible, informational)
  -h, --help         this text

Exit codes: 0 no breaking change the version does not allow; 1 a breaking change the version
does not allow (family A: only under a new /vN path version; otherwise a major version bump of
contract/package.json); 2 bad input.`;

export interface DiffRun {
  base: LoadedSide;
  head: LoadedSide;
  changes: JudgedChange[];
  blocking: JudgedChange[];
  /** What the comparison left out or read alike (one family of a lone document, OpenAPI versions that differ). */
  notes: string[];
  milliseconds: number;
}

const openapiOf = (document: unknown): string | undefined => {
  const version = (document as { openapi?: unknown } | undefined)?.openapi;
  return typeof version === "string" ? version : undefined;
};

/** Each family compared whose documents declare different OpenAPI versions, said once. */
function versionNotes(base: LoadedSide, head: LoadedSide): string[] {
  const notes: string[] = [];
  for (const [family, before] of base.documents) {
    const [from, to] = [openapiOf(before), openapiOf(head.documents.get(family))];
    if (from === undefined || to === undefined || from.split(".").slice(0, 2).join(".") === to.split(".").slice(0, 2).join(".")) continue;
    notes.push(`${family}: the base is OpenAPI ${from} and the head ${to}; compared as one contract (schemas in either form; a 3.0 document's x-webhooks as its webhooks)`);
  }
  return notes;
}

/** Runs one comparison (library form of the command; the gate and tests use it too). */
export function runDiff(baseSpec: string, headSpec?: string, cwd: string = process.cwd()): DiffRun {
  const started = performance.now();
  const loaded = loadBase(baseSpec, cwd);
  let head: LoadedSide;
  if (headSpec) {
    const path = resolve(cwd, headSpec);
    if (!existsSync(path)) throw new BadInput(`--head ${headSpec} does not exist`);
    head = statSync(path).isDirectory() ? loadFolder(path, headSpec) : loadFile(path);
  } else {
    head = loadWorkingTree();
  }
  // A lone document on either side is one family: only that family is compared.
  const notes: string[] = [];
  let base = loaded;
  const lone = [base.oneDocumentOf, head.oneDocumentOf].filter((family): family is string => family !== undefined);
  if (lone.length === 2 && lone[0] !== lone[1]) throw new BadInput(`--base is a ${lone[0]} document and --head a ${lone[1]} one: give two documents of one family`);
  if (lone.length > 0) {
    base = restrictTo(base, lone);
    head = restrictTo(head, lone);
    const given = [base.oneDocumentOf ? "--base" : undefined, head.oneDocumentOf ? "--head" : undefined].filter(Boolean).join(" and ");
    notes.push(`${lone[0]} only: ${given} ${lone.length === 2 ? "are documents" : "is one document"} of that family`);
  }
  notes.push(...versionNotes(base, head));
  const raw = diffFamilies(base.documents, head.documents);
  const changes = judge(raw, {
    baseVersion: base.packageVersion,
    headVersion: head.packageVersion,
    publishedPathVersions: pathVersionsOf(base.documents.get("family-a")),
  });
  return { base, head, changes, blocking: changes.filter((c) => !c.allowed), notes, milliseconds: performance.now() - started };
}

const ORDER = { breaking: 0, compatible: 1, informational: 2 } as const;

export function summaryLine(run: DiffRun): string {
  const counts = countByVerdict(run.changes);
  return `contract diff ${run.base.label} -> ${run.head.label}: ${counts.breaking} breaking (${run.blocking.length} not allowed by the version), ${counts.compatible} compatible, ${counts.informational} informational, in ${(run.milliseconds / 1000).toFixed(2)} s`;
}

export function textReport(run: DiffRun): string {
  const sorted = [...run.changes].sort((a, b) => a.family.localeCompare(b.family) || ORDER[a.verdict] - ORDER[b.verdict]);
  const lines = sorted.map((c) => {
    const flag = c.verdict === "breaking" ? (c.allowed ? "breaking (allowed)" : "BREAKING") : c.verdict;
    const allowance = c.allowance ? ` [allowed: ${c.allowance}]` : "";
    return `${flag.padEnd(18)} ${c.family}  ${c.operation ?? "(document)"}  ${c.rule}: ${c.message}${allowance}\n${" ".repeat(19)}at ${c.pointer || "/"}${c.origin ? ` (${c.origin})` : ""}`;
  });
  return [...lines, ...run.notes.map((note) => `note: ${note}`), summaryLine(run)].join("\n");
}

export function main(argv: readonly string[]): number {
  let values: { base?: string; head?: string; json?: boolean; markdown?: boolean; help?: boolean };
  try {
    values = readCommandLine("contract diff", argv, { base: { type: "string" }, head: { type: "string" }, json: { type: "boolean" }, markdown: { type: "boolean" }, help: { type: "boolean", short: "h" } }).values;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return refuse("contract diff", error.message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (!values.base) return refuse("contract diff", "--base <git ref | folder | file> is required: the version to compare with (HEAD, a release tag, a folder or one document)");
  if (values.json && values.markdown) return refuse("contract diff", "--json and --markdown exclude each other: choose one");
  let run: DiffRun;
  try {
    run = runDiff(values.base, values.head, process.env.INIT_CWD ?? process.cwd());
  } catch (error) {
    const message = error instanceof BadInput ? error.message : `unexpected error: ${(error as Error)?.message ?? String(error)}`;
    return refuse("contract diff", message.split("\n")[0]!);
  }
  if (values.json) {
    const counts = countByVerdict(run.changes);
    const body = { base: run.base.label, head: run.head.label, summary: { ...counts, notAllowed: run.blocking.length }, notes: run.notes, milliseconds: Math.round(run.milliseconds), changes: run.changes };
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    process.stderr.write(`${[...run.notes.map((note) => `note: ${note}`), summaryLine(run)].join("\n")}\n`);
  } else if (values.markdown) {
    process.stdout.write(renderChangelog(run.changes, { title: `Contract changes since ${run.base.label}` }));
    process.stderr.write(`${[...run.notes.map((note) => `note: ${note}`), summaryLine(run)].join("\n")}\n`);
  } else {
    process.stdout.write(`${textReport(run)}\n`);
  }
  return run.blocking.length > 0 ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  process.exitCode = main(process.argv.slice(2));
}
