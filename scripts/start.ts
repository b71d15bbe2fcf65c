/**
 * `npm start`, the main job on embedded defaults:
 *   1. builds the contract and checks it (lint, validity, statement catalogue, decisions);
 *   2. starts a fresh sandbox per profile (default plan `short-windows`: the documented rate
 *      limits over 5-second windows, declared in the target so that the announced limits are
 *      held to it), provisions the fixtures through its controls and runs the
 *      conformance suites of both families against it, the `seed` and the `full` profile side
 *      by side;
 *   3. prints the reports (JUnit files under reports/), writes each run's signed bundle
 *      (reports/bundle-<profile>/) and verifies it as a third party would, offline, and exits
 *      non-zero on any failure.
 *
 *   npm start [-- --plan short-windows|default|generous] [--skip-conformance]
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { RunReport } from "@payment-collection/conformance/core/results.ts";
import { verifyBundle } from "@payment-collection/conformance/bundle/verify.ts";
import { totals } from "@payment-collection/conformance/runner/report.ts";
import { buildContract, ROOT } from "@payment-collection/contract/build/contract-build.ts";
import { reportContract } from "@payment-collection/contract/build/contract-report.ts";

const USAGE = `usage: npm start [-- --plan short-windows|default|generous] [--skip-conformance]

Builds and checks the contract, then runs the conformance suites of both families against a
fresh sandbox under the seed and the full profile, each run written as a signed bundle under
reports/ and verified offline. Exit 0: all passed; 1: a check failed or a bundle did not
verify; 2: bad arguments.

  --plan NAME              rate-limit plan of the sandbox: short-windows (default: the
                           documented limits per 5 s window, so that waits for a window
                           are short), default (the documented limits per minute) or
                           generous (no limit met)
  --skip-conformance       build and check the contract only
  -h, --help               this help`;

function parseOptions(): { plan?: string; "skip-conformance"?: boolean; help?: boolean } {
  try {
    return parseArgs({
      options: { plan: { type: "string", default: "short-windows" }, "skip-conformance": { type: "boolean", default: false }, help: { type: "boolean", short: "h" } },
    }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  }
}
const values = parseOptions();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const PLANS = ["short-windows", "default", "generous"] as const;
function planOption(name: string | undefined): (typeof PLANS)[number] {
  const found = PLANS.find((known) => known === name);
  if (found) return found;
  console.error(`--plan must be ${PLANS.join(", ")}; got ${name}\n\n${USAGE}`);
  process.exit(2);
}
const plan = planOption(values.plan);

const started = performance.now();
const written = await buildContract("generated");
console.log(`build: ${written.length} files under generated/`);
// One child process per profile, each against a fresh sandbox (each run consumes fixtures
// and rate windows), run side by side: part of a run is waiting for rate-limit windows. They
// read generated/ only, so they start now, while the contract's checks run; each child's
// report is printed whole once both are done.
if (!values["skip-conformance"]) mkdirSync(join(ROOT, "reports"), { recursive: true });
const profileRuns = values["skip-conformance"] ? undefined : Promise.all((["seed", "full"] as const).map((profile) => runProfile(profile)));
const contract = await reportContract();
for (const line of contract.lines) console.log(line);

const summary: string[] = [];
let conformanceOk = true;
if (profileRuns) {
  const runs = await profileRuns;
  for (const run of runs) {
    console.log(`\n=== conformance, profile ${run.profile}, against a fresh sandbox (plan ${plan}) ===`);
    process.stdout.write(run.output);
    const count = run.report ? totals(run.report) : undefined;
    summary.push(
      count
        ? `conformance ${run.profile}: ${count.pass} pass, ${count.fail} fail, ${count["not-applicable"]} not applicable (JUnit: reports/conformance-${run.profile}.xml)`
        : `conformance ${run.profile}: did not complete (exit ${run.code})`,
    );
    if (run.code !== 0) conformanceOk = false;
    // The bundle, checked as whoever receives it would: offline, the verdicts judged again.
    const verified = await verifyBundle(bundleDir(run.profile));
    for (const line of [...verified.problems, ...verified.lines]) console.log(line);
    summary.push(`bundle ${run.profile}: reports/bundle-${run.profile}/ ${verified.code === 0 ? "verified" : `NOT verified (exit ${verified.code})`}`);
    if (verified.code !== 0) conformanceOk = false;
  }
}

console.log("\n=== summary ===");
for (const line of [...contract.lines.slice(-1), ...summary]) console.log(line);
console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(contract.ok && conformanceOk ? 0 : 1);

interface ProfileRun {
  profile: "seed" | "full";
  code: number;
  output: string;
  report?: RunReport;
}

/** The folder of a profile's signed bundle. */
function bundleDir(profile: "seed" | "full"): string {
  return join(ROOT, "reports", `bundle-${profile}`);
}

/** Runs the suites of both families under one profile against a fresh sandbox, in a child process. */
function runProfile(profile: "seed" | "full"): Promise<ProfileRun> {
  const junit = join(ROOT, "reports", `conformance-${profile}.xml`);
  const json = join(ROOT, "reports", `conformance-${profile}.json`);
  const args = ["--import", "tsx", join(ROOT, "scripts/run-against-sandbox.ts"), "--plan", plan, "--profile", profile, "--junit", junit, "--json", json, "--bundle", bundleDir(profile)];
  // A report or bundle left by an earlier run must not stand for this one.
  rmSync(json, { force: true });
  rmSync(bundleDir(profile), { recursive: true, force: true });
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((done) => {
    child.once("close", (code) => {
      const report = existsSync(json) ? (JSON.parse(readFileSync(json, "utf8")) as RunReport) : undefined;
      done({ profile, code: code ?? 1, output, report });
    });
  });
}
