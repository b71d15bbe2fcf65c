/**
 * `npm run mutation`: mutation testing of the sandbox against the conformance suites
 * (StrykerJS, stryker.config.mjs), then the summary (mutation/summary.md).
 *
 * By default the run is incremental: the results recorded in mutation/incremental.json are
 * reused for every mutant whose code and covering units did not change, and only the rest is
 * tested. The suites themselves are an input Stryker cannot see (it diffs the mutated files and
 * the test files it is told of): each unit's test is located in mutation/suite-inputs.txt, one
 * line per unit carrying the digest of what the units run (the suites, the contract model, the
 * generated documents, the statement catalogue), so that a change there makes every unit a new
 * test and every mutant is tested again.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { suiteUnits } from "../conformance/test/mutation/units.ts";
import { countsOf, headline, summaryMarkdown, type MutationReport, type RunCounts } from "./summary.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CONFIG = "mutation/stryker.config.mjs";
const INCREMENTAL = "mutation/incremental.json";
const INPUTS = "mutation/suite-inputs.txt";
const SUMMARY = "mutation/summary.md";
const BEFORE = "mutation/before.json";
const REPORT = "reports/mutation/mutation.json";

/** What the units run besides the sandbox: a change in any of them can change a verdict. */
const SUITE_INPUTS = ["conformance/src", "contract/src", "generated/openapi/3.0", "spec/statements.yaml", "conformance/test/mutation", "mutation/suites-runner.mjs", "mutation/generations.mjs"];

const USAGE = `usage: npm run mutation [-- options]

Mutation testing of the sandbox (sandbox/src) against the conformance suites under full: every
mutant that no unit of the suites notices is a behaviour the suites never check.

  --force           test every mutant again (the whole run) instead of reusing the results
                    recorded in ${INCREMENTAL}
  --mutate GLOBS    only these files (Stryker's --mutate, comma-separated; line ranges allowed:
                    sandbox/src/keys.ts:10-40); the recorded results and the summary are kept
  --ci              check, do not record: fail (exit 1) when the suites changed since the results
                    were recorded, or when the score is below the floor; ${SUMMARY} and
                    ${INCREMENTAL} are left as they are
  --concurrency N   test runner processes (default: Stryker's configuration)
  --record-before REPORT
                    write ${BEFORE}, the counts the summary compares with, from a Stryker JSON
                    report (the whole run of the suites as they were before; nothing runs)
  -h, --help        this text

Reports: reports/mutation/index.html (every mutant), ${REPORT}; ${SUMMARY} (committed: per
file and per mutator, and every mutant left out with its reason).
Exit codes: 0 the score is at or above the floor; 1 below it, or stale results under --ci;
2 bad options, or Stryker could not run.`;

function files(path: string): string[] {
  const full = join(ROOT, path);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [path];
  return readdirSync(full, { recursive: true, encoding: "utf8" })
    .map((name) => join(path, name))
    .filter((name) => statSync(join(ROOT, name)).isFile())
    .sort();
}

/** The digest of every input of the units but the sandbox. */
export function suitesDigest(): string {
  const hash = createHash("sha256");
  for (const file of SUITE_INPUTS.flatMap(files)) hash.update(`${file}\n`).update(readFileSync(join(ROOT, file))).update("\n");
  return hash.digest("hex").slice(0, 16);
}

/** One line per unit, in the units' order: where each unit's test is, for Stryker's incremental diff. */
function inputsFile(digest: string): string {
  return `${suiteUnits().map((unit) => `${digest}  ${unit.name}`).join("\n")}\n`;
}

/** A report's file name as the repository names it (Stryker writes them relative to where it ran). */
const relativeFile = (file: string) => relative(ROOT, join(ROOT, file)).replace(/^.*?(sandbox\/src\/)/, "$1");

function stryker(args: string[]): number {
  const result = spawnSync(process.execPath, [join(ROOT, "node_modules/@stryker-mutator/core/bin/stryker.js"), "run", CONFIG, ...args], { cwd: ROOT, stdio: "inherit" });
  return result.status ?? 2;
}

function main(): number {
  let values;
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      options: { force: { type: "boolean" }, mutate: { type: "string" }, ci: { type: "boolean" }, concurrency: { type: "string" }, "record-before": { type: "string" }, help: { type: "boolean", short: "h" } },
    }));
  } catch (error) {
    console.error(`npm run mutation: ${(error as Error).message}; see npm run mutation -- --help`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.concurrency !== undefined && !/^[1-9]\d*$/.test(values.concurrency)) {
    console.error(`npm run mutation: --concurrency must be a positive integer, not ${JSON.stringify(values.concurrency)}`);
    return 2;
  }
  if (values["record-before"] !== undefined) {
    const source = values["record-before"];
    if (!existsSync(source)) {
      console.error(`npm run mutation: --record-before ${source}: no such file (a Stryker JSON report, e.g. reports/mutation/mutation.json)`);
      return 2;
    }
    const counts = countsOf(JSON.parse(readFileSync(source, "utf8")) as MutationReport, relativeFile);
    writeFileSync(join(ROOT, BEFORE), `${JSON.stringify(counts, null, 2)}\n`);
    console.log(`${BEFORE}: ${headline(counts.all)}`);
    return 0;
  }
  const expected = inputsFile(suitesDigest());
  const recorded = existsSync(join(ROOT, INPUTS)) ? readFileSync(join(ROOT, INPUTS), "utf8") : "";
  if (values.ci && recorded !== expected) {
    console.error(
      `npm run mutation: the suites changed since the mutation results were recorded (${INPUTS}): every mutant must be tested again; run \`npm run mutation\` and commit ${INPUTS}, ${INCREMENTAL} and ${SUMMARY}`,
    );
    return 1;
  }
  writeFileSync(join(ROOT, INPUTS), expected);
  const partial = values.mutate !== undefined;
  const args = [
    ...(values.concurrency ? ["--concurrency", values.concurrency] : []),
    ...(partial ? ["--mutate", values.mutate!] : ["--incremental", "--incrementalFile", values.ci ? join("reports/mutation", "incremental.json") : INCREMENTAL]),
    ...(values.force ? ["--force"] : []),
  ];
  // Under --ci the recorded file is read through a copy, so that it stays as committed.
  mkdirSync(join(ROOT, "reports/mutation"), { recursive: true });
  if (values.ci) writeFileSync(join(ROOT, "reports/mutation/incremental.json"), readFileSync(join(ROOT, INCREMENTAL)));
  rmSync(join(ROOT, REPORT), { force: true });
  const code = stryker(args);
  if (!existsSync(join(ROOT, REPORT))) return 2;
  const report = JSON.parse(readFileSync(join(ROOT, REPORT), "utf8")) as MutationReport;
  console.log(headline(countsOf(report, relativeFile).all));
  const before = existsSync(join(ROOT, BEFORE)) ? (JSON.parse(readFileSync(join(ROOT, BEFORE), "utf8")) as RunCounts) : undefined;
  if (!partial && !values.ci) writeFileSync(join(ROOT, SUMMARY), summaryMarkdown(report, relativeFile, before));
  return code === 0 ? 0 : code === 1 ? 1 : 2;
}

process.exitCode = main();
