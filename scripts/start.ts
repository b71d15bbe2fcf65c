/**
 * `npm start`, the main job on embedded defaults:
 *   1. builds the contract and checks it (lint, validity, statement catalogue, decisions);
 *   2. starts the sandbox (default plan: the documented rate limits) on a fresh data dir,
 *      provisions the fixtures through its controls and runs the conformance suites of both
 *      families against it, under the `seed` and the `full` profile;
 *   3. prints the reports (JUnit files under reports/) and exits non-zero on any failure.
 *
 *   npm start [-- --plan default|generous] [--skip-conformance]
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startTemporarySandbox } from "@payment-collection/sandbox/harness/temporary-sandbox.ts";
import { parseTarget } from "@payment-collection/conformance/core/target.ts";
import { parseCliOptions, runAndReport } from "@payment-collection/conformance/runner/cli-options.ts";
import { totals } from "@payment-collection/conformance/runner/report.ts";
import { buildContract, ROOT } from "@payment-collection/contract/build/contract-build.ts";
import { reportContract } from "@payment-collection/contract/build/contract-report.ts";

const { values } = parseArgs({
  options: { plan: { type: "string", default: "default" }, "skip-conformance": { type: "boolean", default: false } },
});
const plan = values.plan === "generous" ? "generous" : "default";

const started = performance.now();
const written = await buildContract("generated");
console.log(`build: ${written.length} files under generated/`);
const contract = await reportContract();
for (const line of contract.lines) console.log(line);

const summary: string[] = [];
let conformanceOk = true;
if (!values["skip-conformance"]) {
  mkdirSync(join(ROOT, "reports"), { recursive: true });
  for (const profile of ["seed", "full"] as const) {
    // A fresh sandbox per profile: each run consumes fixtures (cancelled boletos, rate windows).
    const sandbox = await startTemporarySandbox({ plan, useRateLimitAccount: true });
    try {
      console.log(`\n=== conformance, profile ${profile}, against the sandbox at ${sandbox.url} (plan ${plan}) ===`);
      const target = parseTarget(sandbox.target, `the sandbox at ${sandbox.url}`);
      const junit = join(ROOT, "reports", `conformance-${profile}.xml`);
      const { code, report } = await runAndReport(target, { ...parseCliOptions(["--junit", junit]), profile });
      const count = totals(report);
      summary.push(`conformance ${profile}: ${count.pass} pass, ${count.fail} fail, ${count["not-applicable"]} not applicable (JUnit: reports/conformance-${profile}.xml)`);
      if (code !== 0) conformanceOk = false;
    } finally {
      await sandbox.close();
    }
  }
}

console.log("\n=== summary ===");
for (const line of [...contract.lines.slice(-1), ...summary]) console.log(line);
console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(contract.ok && conformanceOk ? 0 : 1);
