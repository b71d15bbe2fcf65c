/**
 * Runs the conformance suites against a fresh local sandbox (sandbox/), with the fixtures it
 * needs made through the sandbox's controls. For development and for measuring run times:
 *
 *   npx tsx conformance/sandbox/run.ts [--plan generous|default] [--family a|b] [--profile seed|full] [--junit PATH]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandbox } from "../../sandbox/src/server.ts";
import { parseCliOptions, runAndReport, USAGE, UsageError } from "../runner/cli-options.ts";
import { provisionSandboxTarget } from "./provision.ts";

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const planAt = argv.indexOf("--plan");
  const plan = planAt >= 0 ? argv.splice(planAt, 2)[1] : "generous";
  const options = parseCliOptions(argv);
  const dataDir = mkdtempSync(join(tmpdir(), "conformance-sandbox-"));
  // The webhook scenario pays a charge and waits for its event on a receiver at 127.0.0.1.
  const sandbox = await startSandbox({ port: 0, dataDir, plan: plan as "generous" | "default", allowPrivateWebhookTargets: true });
  try {
    const target = await provisionSandboxTarget(sandbox.url, sandbox.keys);
    return (await runAndReport(target, { ...options, profile: options.profile ?? "seed" })).code;
  } finally {
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof UsageError ? `${error.message}\n\n${USAGE}` : error);
    process.exit(2);
  },
);
