/**
 * Runs the conformance suites against a fresh local sandbox, with the fixtures it needs made
 * through the sandbox's controls. For development and for measuring run times:
 *
 *   npx tsx scripts/run-against-sandbox.ts [--plan generous|short-windows|default] [--family family-a|family-b] [--profile seed|full] [--junit PATH]
 */
import { parseCliOptions, rerunLine, USAGE, UsageError } from "@payment-collection/conformance/runner/cli-options.ts";
import { runAndReport } from "@payment-collection/conformance/runner/run-and-report.ts";
import { parseTarget } from "@payment-collection/conformance/core/target.ts";
import { startTemporarySandbox } from "@payment-collection/sandbox/harness/temporary-sandbox.ts";
import type { PlanName } from "@payment-collection/sandbox/plans.ts";

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(`usage: npx tsx scripts/run-against-sandbox.ts [--plan generous|short-windows|default] [conformance options]\n\nStarts a fresh sandbox with its fixtures and runs the suites against it.\n\n${USAGE.replace(/^usage:[^\n]*\n(?: {7}[^\n]*\n)*\n/, "")}`);
    return 0;
  }
  const given = [...argv];
  const planAt = argv.indexOf("--plan");
  const plan = planAt >= 0 ? argv.splice(planAt, 2)[1] : "generous";
  const options = parseCliOptions(argv);
  const sandbox = await startTemporarySandbox({ plan: plan as PlanName });
  try {
    const target = parseTarget(sandbox.target, `the sandbox at ${sandbox.url}`);
    // Against a fresh sandbox, as this run was: the same seed sends the same requests.
    const rerun = (seed: number) => rerunLine("npx tsx scripts/run-against-sandbox.ts", given, seed);
    return (await runAndReport(target, { ...options, profile: options.profile ?? "seed", rerun })).code;
  } finally {
    await sandbox.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof UsageError ? `${error.message}\n\n${USAGE}` : error);
    process.exit(2);
  },
);
