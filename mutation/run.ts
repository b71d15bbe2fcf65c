/**
 * `npm run mutation`: mutation testing of the sandbox against the conformance suites
 * (StrykerJS, stryker.config.mjs), then the summary (mutation/summary.md).
 *
 * By default the run is incremental: the results recorded in mutation/incremental.json are
 * reused for every mutant whose code and covering units did not change, and only the rest is
 * tested. The suites themselves are an input Stryker cannot see (it diffs the mutated files and
 * the test files it is told of): each unit's test is located in mutation/suite-inputs.txt, one
 * line per unit carrying the digest of what that unit runs (the engine and every shared input
 * for all units, and the unit's own scenario or check module: `suiteInputs`), so that a changed
 * suite makes its units new tests and the mutants they cover are tested again.
 * `--ci` runs the CI sample instead (ci-sample.ts).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { suiteUnits, type SuiteUnit } from "../conformance/test/mutation/units.ts";
import { DERIVED_CLASSES } from "../conformance/src/derived/shared.ts";
import { countsOf, headline, score, summaryMarkdown, type MutationReport, type RunCounts } from "./summary.ts";
import { CI_SAMPLE, functionRange, readCiSample, type CiSample } from "./ci-sample.ts";

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

  --force           test every mutant in scope again instead of reusing the results recorded
                    in ${INCREMENTAL}
  --mutate GLOBS    only these files (Stryker's --mutate, comma-separated; line ranges allowed:
                    sandbox/src/keys.ts:10-40); their results are recorded with the others
                    (a whole run can be recorded a few files at a time)
  --ci              the CI check: only the functions of ${CI_SAMPLE} (where a verdict hangs on
                    one condition), each mutated whole, against the units it names; exit 1 when
                    the score is below its floor. Nothing recorded is read or written
  --concurrency N   test runner processes (default: 4, from the configuration; --ci: 1)
  --record-before REPORT
                    write ${BEFORE}, the counts the summary compares with, from a Stryker JSON
                    report (the whole run of the suites as they were before; nothing runs)
  -h, --help        this text

Reports: reports/mutation/index.html (every mutant), ${REPORT}; ${SUMMARY} (committed: per
file and per mutator, and every mutant left out with its reason).
Exit codes: 0 the run passed (under --ci: the sample's score is at or above its floor); 1 the
score is below the floor (Stryker's thresholds.break, or under --ci the sample's); 2 bad
options, or Stryker could not run.`;

function files(path: string): string[] {
  const full = join(ROOT, path);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [path];
  return readdirSync(full, { recursive: true, encoding: "utf8" })
    .map((name) => join(path, name))
    .filter((name) => statSync(join(ROOT, name)).isFile())
    .sort();
}

const digestOf = (parts: string[]) => {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part).update("\n");
  return hash.digest("hex").slice(0, 16);
};

/**
 * The units a file of the suites belongs to: a scenario module to the scenarios it declares, a
 * generic check class's module to that class's units, a family's response checks to that
 * family's response-check units, the list of scenarios to none (each unit runs one scenario
 * alone, so the list only says which units exist: a scenario added is a unit added, and the
 * others' mutants are not tested again). Undefined for every other file (the engine, the
 * contract model, shared helpers): it belongs to every unit.
 */
export function ownersOf(file: string, text: string, units: readonly SuiteUnit[]): SuiteUnit[] | undefined {
  if (file === "conformance/src/scenarios/index.ts") return [];
  const scenario = /^conformance\/src\/scenarios\/[^/]+\.ts$/.test(file);
  if (scenario) {
    const ids = [...text.matchAll(/\bid: "([a-z-]+\/[^"]+)"/g)].map((m) => m[1]!);
    const owners = units.filter((unit) => ids.some((id) => unit.name.startsWith(`${id} (`)));
    return owners.length > 0 ? owners : undefined;
  }
  const derived = /^conformance\/src\/derived\/([a-z-]+)\.ts$/.exec(file)?.[1];
  if (derived && (DERIVED_CLASSES as readonly string[]).includes(derived)) return units.filter((unit) => unit.name.includes(` generic checks ${derived} (`));
  const family = /^conformance\/src\/checks\/(family-[ab])\//.exec(file)?.[1];
  if (family) return units.filter((unit) => unit.name.startsWith(`${family} response checks (`));
  return undefined;
}

/**
 * One line per unit, in the units' order: where each unit's test is, for Stryker's incremental
 * diff. A line carries the digest of what that unit runs but the sandbox: every input shared by
 * all units, and the modules that are its own (ownersOf). A change to one scenario or one check
 * class thus changes only its units' lines, and only the mutants they cover are tested again;
 * a change to the engine changes every line.
 */
export function suiteInputs(): string {
  const units = suiteUnits();
  const shared: string[] = [];
  const own = new Map<string, string[]>(units.map((unit) => [unit.name, []]));
  for (const file of SUITE_INPUTS.flatMap(files)) {
    const text = readFileSync(join(ROOT, file), "utf8");
    const entry = `${file}\n${text}`;
    const owners = ownersOf(file, text, units);
    if (owners) for (const unit of owners) own.get(unit.name)!.push(entry);
    else shared.push(entry);
  }
  const sharedDigest = digestOf(shared);
  return `${units.map((unit) => `${digestOf([sharedDigest, ...own.get(unit.name)!])}  ${unit.name}`).join("\n")}\n`;
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
  writeFileSync(join(ROOT, INPUTS), suiteInputs());
  mkdirSync(join(ROOT, "reports/mutation"), { recursive: true });
  rmSync(join(ROOT, REPORT), { force: true });
  const concurrency = values.concurrency ? ["--concurrency", values.concurrency] : [];
  if (values.ci) return ciSampleRun(concurrency);
  // A run of some files (--mutate) is incremental too: Stryker keeps the recorded results of the
  // mutants outside them, so a whole run can be recorded a few files at a time.
  const scope = values.mutate !== undefined ? ["--mutate", values.mutate] : [];
  const code = stryker([...concurrency, ...scope, "--incremental", "--incrementalFile", INCREMENTAL, ...(values.force ? ["--force"] : [])]);
  const report = readReport();
  if (!report) return 2;
  const before = existsSync(join(ROOT, BEFORE)) ? (JSON.parse(readFileSync(join(ROOT, BEFORE), "utf8")) as RunCounts) : undefined;
  writeFileSync(join(ROOT, SUMMARY), summaryMarkdown(report, relativeFile, before));
  return code === 0 ? 0 : code === 1 ? 1 : 2;
}

/** Stryker's JSON report of the run just made, its headline printed; undefined when Stryker wrote none. */
function readReport(): MutationReport | undefined {
  if (!existsSync(join(ROOT, REPORT))) return undefined;
  const report = JSON.parse(readFileSync(join(ROOT, REPORT), "utf8")) as MutationReport;
  console.log(headline(countsOf(report, relativeFile).all));
  return report;
}

/** `--ci`: the sample's functions mutated whole, against the sample's units; exit 1 below its floor. */
function ciSampleRun(concurrency: string[]): number {
  let sample: CiSample;
  let ranges: string[];
  try {
    sample = readCiSample(ROOT);
    ranges = sample.functions.map((f) => functionRange(ROOT, f.file, f.name));
  } catch (error) {
    console.error(`npm run mutation: ${(error as Error).message.split("\n")[0]}`);
    return 2;
  }
  console.log(`npm run mutation --ci: ${ranges.join(", ")} against ${sample.units.length > 0 ? `the units ${sample.units.map((u) => `"${u}"`).join(", ")}` : "every unit"}; floor ${sample.floor} %`);
  process.env.MUTATION_UNITS = JSON.stringify(sample.units);
  // One runner unless told: CI's other steps keep its two cores busy, and a runner's start (vitest
  // and the suites' modules) costs more CPU than the sample's mutants: alone, one runner took 23
  // CPU-s and 17 s, two 33 CPU-s and 20 s (2026-12-03).
  const code = stryker([...(concurrency.length > 0 ? concurrency : ["--concurrency", "1"]), "--mutate", ranges.join(",")]);
  const report = readReport();
  if (!report) return 2;
  const counts = countsOf(report, relativeFile).all;
  if (score(counts) < sample.floor) {
    console.error(`npm run mutation --ci: the sample's score ${score(counts).toFixed(1)} % is below its floor of ${sample.floor} % (${CI_SAMPLE}): a check stopped seeing a fault it saw; reports/mutation/index.html shows the mutants that survived`);
    return 1;
  }
  return code === 0 ? 0 : 2;
}

process.exitCode = main();
