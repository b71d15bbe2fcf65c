/**
 * One unit of the suites (units.ts) under `full`, against a sandbox of its own: what the
 * mutation run's test runner (mutation/suites-runner.mjs) calls for each test. The unit passes
 * when every result it gives passes, but for the few that no run against a sandbox can make
 * applicable (INHERENTLY_NOT_APPLICABLE): a mutant that turns a pass into a failure, a
 * not-applicable, a missing result or a stopped run is killed.
 */
import type { startTemporarySandbox } from "@payment-collection/sandbox/harness/temporary-sandbox.ts";
import type { RateLimitPlan } from "@payment-collection/sandbox/plans.ts";
import { parseTarget } from "../../src/core/target.ts";
import { runConformance } from "../../src/runner/run.ts";
import { suiteUnits, type SuiteUnit } from "./units.ts";

export { suiteUnits, type SuiteUnit };

/**
 * The plan of the units that judge rate limits: limits small enough that using them up takes
 * tens of requests, in a window long enough that none renews during a unit (no unit waits for
 * a window). The PIX and transaction creation limits differ from the general one, so that
 * separate counts show, and the general one exceeds the others together (and the requests that
 * check every operation of a used-up limit), so that each of them is met before it. The other units run on the generous plan, which never limits them.
 */
const LIMITS_PLAN: RateLimitPlan = { windowSeconds: 60, general: 80, pixCreations: 8, transactionCreations: 12, queries: 30 };
/** The same limits in windows of a second, for the units that wait for a window to renew. */
const SECOND_WINDOWS_PLAN: RateLimitPlan = { ...LIMITS_PLAN, windowSeconds: 1 };

/**
 * The sandbox answers in milliseconds and no unit meets a limit it did not plan: a request left
 * unanswered for ten seconds is a failure (a mutant that hangs the sandbox), not a slow link
 * (ten, not one: a loaded machine can stall a process for seconds).
 */
const LOCAL_PACING = { timeoutMs: 10_000, maxWaitSeconds: 2, maxRetries: 1 };

/**
 * The results no run against this sandbox can make applicable, each with why; a mutant cannot
 * be seen through them, and the triage (mutation/README.md) says what that leaves unseen.
 */
const INHERENTLY_NOT_APPLICABLE: Array<[RegExp, string]> = [
  [/\/409\/key-in-flight$/, "the SQLite store ends a creation in one synchronous transaction: no request ever finds another one in flight"],
  [/^family-b\/getBoleto\/400\/internal-error$/, "OBE001 is an internal error of the server: no client request provokes it"],
  [/^family-a\/auth\/(live-prefix|test-keys-refused-live)$/, "the sandbox is the sandbox environment: only a live server holds live keys and refuses test keys"],
];

const inherent = (id: string) => INHERENTLY_NOT_APPLICABLE.some(([pattern]) => pattern.test(id));

/** How long a sandbox may take to start (fixtures made) and to stop before the unit goes on without it. */
const START_WAIT_MS = 10_000;
const CLOSE_WAIT_MS = 2_000;

/** The promise's value, or a rejection once `ms` have passed. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took more than ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Runs the unit; resolves with what went wrong (empty when it passed). */
export async function runUnit(unit: SuiteUnit, start: typeof startTemporarySandbox): Promise<string[]> {
  let sandbox;
  try {
    // The temporary sandbox's origins (declared in its target) for the units that judge them, none for the others.
    const corsOrigins = unit.crossOrigin ? undefined : [];
    sandbox = await within(start({ plan: unit.secondWindows ? SECOND_WINDOWS_PLAN : unit.limits ? LIMITS_PLAN : "generous", useRateLimitAccount: true, corsOrigins, allowPrivateWebhookTargets: !unit.refusesPrivateWebhookTargets }), START_WAIT_MS, "starting the sandbox and making its fixtures");
  } catch (error) {
    // The sandbox did not start, or refused the fixtures the suites need.
    return [`the sandbox did not start: ${(error as Error).message}`];
  }
  try {
    const report = await runConformance({
      target: parseTarget(sandbox.target, `the sandbox at ${sandbox.url}`),
      families: [unit.family],
      profile: "full",
      pacing: LOCAL_PACING,
      ...unit.options,
    });
    if (report.results.length === 0) return ["the unit gave no result"];
    return report.results
      .filter((r) => r.verdict === "fail" || (r.verdict === "not-applicable" && !inherent(r.id)))
      .map((r) => `${r.id}: ${r.verdict}: ${r.reasons.join("; ")}`);
  } catch (error) {
    return [`the run stopped: ${(error as Error).message}`];
  } finally {
    await within(sandbox.close(), CLOSE_WAIT_MS, "stopping the sandbox").catch(() => undefined);
  }
}
