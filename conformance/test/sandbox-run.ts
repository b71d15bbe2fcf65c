/**
 * One conformance run against a fresh sandbox (and, optionally, a proxy in front of it: the
 * broken servers of the self-test), for the end-to-end tests. Each run gets its own sandbox and
 * data folder, closed by the `cleanups` the calling test file drains after each test.
 */
import type { RateLimitPlan } from "@payment-collection/sandbox/plans.ts";
import { startTemporarySandbox } from "@payment-collection/sandbox/harness/temporary-sandbox.ts";
import { parseTarget, type Target } from "../src/core/target.ts";
import type { Profile } from "../src/core/profiles/index.ts";
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import { failed, type RunReport } from "../src/core/results.ts";
import { runConformance, type RunOptions } from "../src/runner/run.ts";

/**
 * A plan small and short enough that the 429 checks and the pacing run in seconds. The PIX
 * creation limit differs from the general one so that their separate counts show in the headers.
 */
// Creation limits well below the general one, so that the per-resource scenarios can use them up apart.
export const SMALL_PLAN: RateLimitPlan = { windowSeconds: 5, general: 80, pixCreations: 10, transactionCreations: 15, queries: 40 };

type SandboxKeys = Awaited<ReturnType<typeof startTemporarySandbox>>["keys"];

/** A server started in front of the sandbox (its URL and keys); the suites run against it instead. */
export type SandboxProxy = (upstream: string, keys: SandboxKeys) => Promise<{ url: string; close(): Promise<void> }>;

export interface RunSetup {
  proxy?: SandboxProxy;
  families?: FamilyId[];
  profile?: Profile;
  plan?: "generous" | RateLimitPlan;
  exhaust?: boolean;
  /** Response checks to run (default: all of the families' suites). */
  checks?: RunOptions["checks"];
  /** Behaviour scenarios to run (default: all). */
  scenarios?: RunOptions["scenarios"];
  /** Generic checks (default: all classes; false: none). */
  derived?: RunOptions["derived"];
  /** Changes the target before the run (a second key of the primary account...). */
  adjustTarget?: (target: Target) => void;
  /** Let the sandbox's webhooks reach loopback addresses (default true, as `--allow-private-webhooks`). */
  allowPrivateWebhooks?: boolean;
  /** Stops the run after the first result it names (a broken server's kill: nothing after it can matter). */
  stopWhen?: RunOptions["stopWhen"];
}

export async function runAgainstSandbox(setup: RunSetup, cleanups: Array<() => Promise<void>>): Promise<RunReport> {
  const sandbox = await startTemporarySandbox({ plan: setup.plan ?? "generous", useRateLimitAccount: true, allowPrivateWebhookTargets: setup.allowPrivateWebhooks });
  cleanups.push(sandbox.close);
  const target = parseTarget(sandbox.target, `the sandbox at ${sandbox.url}`);
  if (setup.proxy) {
    const proxy = await setup.proxy(sandbox.url, sandbox.keys);
    cleanups.push(proxy.close);
    target.familyA!.baseUrl = proxy.url;
    target.familyB!.baseUrl = proxy.url;
  }
  setup.adjustTarget?.(target);
  return runConformance({
    target,
    families: setup.families,
    profile: setup.profile ?? "seed",
    exhaust: setup.exhaust ?? false,
    checks: setup.checks,
    scenarios: setup.scenarios,
    derived: setup.derived,
    stopWhen: setup.stopWhen,
  });
}

/**
 * A stop condition for a run that must fail the given checks (and that nothing else is asked of):
 * it stops once each of them has failed.
 */
export function untilFailed(ids: string[]): NonNullable<RunOptions["stopWhen"]> {
  const failedSoFar = new Set<string>();
  return (result) => {
    if (result.verdict === "fail") failedSoFar.add(result.id);
    return ids.every((id) => failedSoFar.has(id));
  };
}

export function failures(report: RunReport): string[] {
  return failed(report).map((r) => `${r.id}: ${r.reasons.join("; ")}`);
}
