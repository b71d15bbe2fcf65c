/**
 * The mutation self-test of one family's suite: every broken server (mutants.ts,
 * behaviour-mutants.ts) must be caught by the check or scenario named for it. The score and the
 * rules no broken server here can show are printed at the end. One test file per family, so
 * that the two run side by side.
 *
 * Each run is the smallest that holds the check named for the broken server: a scenario alone,
 * the rate-limit stage, or the checks of one operation; the first broken server of each family
 * caught by a response check meets the whole suite (WHOLE_SUITE_RUNS).
 */
import { afterAll, afterEach, expect, it } from "vitest";
import { familyName, type FamilyId } from "@payment-collection/contract/model/index.ts";
import { formatReport } from "../../src/runner/report.ts";
import { failed } from "../../src/core/results.ts";
import { NOT_CATCHABLE_HERE } from "./behaviour-mutants.ts";
import { ALL_MUTATIONS } from "./broken-servers.ts";
import { SCENARIOS } from "../../src/scenarios/index.ts";
import { FAMILY_CHECKS } from "../../src/checks/index.ts";
import { startMutant } from "./mutants.ts";
import { disagreement, killers, kills, recordKill } from "./statement-kills.ts";
import { runAgainstSandbox, SMALL_PLAN } from "../sandbox-run.ts";

export { ALL_MUTATIONS };

/** The response checks of the rate-limit (exhaust) stage, in their order. */
const RATE_LIMIT_STAGE = Object.fromEntries(
  Object.entries(FAMILY_CHECKS).map(([family, checks]) => [family, checks.filter((c) => c.stage === "exhaust")]),
) as typeof FAMILY_CHECKS;

/**
 * A broken server a 429 check must catch meets the rate-limit stage's checks only, as in a whole
 * run after the main stage: no other check has a result under a 429 (so none could kill it), and
 * their requests (unknown ids, example bodies) need nothing the main stage makes. Under the small
 * plan the paced main stage was most of such a run.
 */
function byRateLimitStage(mutation: { caughtBy: string }): boolean {
  const [family, operationId, status] = mutation.caughtBy.split("/");
  return status === "429" && RATE_LIMIT_STAGE[family as FamilyId]?.some((c) => c.operationId === operationId) === true;
}

/**
 * The response checks of the operation a broken server's `caughtBy` names, when a response
 * check of the main stage is named (else undefined): such a server meets that operation's checks
 * only, every status of it (their order among themselves holds: a cancel's 409 after the 200 that
 * cancelled), not the family's whole suite before it. Each check makes the records it needs (its
 * own request), so the operation's checks run alone as they run in the whole suite.
 */
export function operationChecks(mutation: { caughtBy: string; family: FamilyId }): typeof FAMILY_CHECKS | undefined {
  const [family, operationId, status] = mutation.caughtBy.split("/");
  const checks = FAMILY_CHECKS[family as FamilyId]?.filter((c) => c.operationId === operationId && (c.stage ?? "main") === "main");
  if (!checks?.some((c) => c.status === status)) return undefined;
  return { "family-a": [], "family-b": [], [family as FamilyId]: checks };
}

/**
 * The broken servers that meet the family's whole suite though a smaller run could catch them:
 * the first of each family caught by a response check. Scoping a run to one operation's checks
 * must not be what makes the kill: these show that the whole suite, as a user runs it, catches
 * a broken server of the kind (their runs still stop at the kill).
 */
export const WHOLE_SUITE_RUNS: ReadonlySet<string> = new Set(
  (["family-a", "family-b"] as const).flatMap((family) => {
    const first = ALL_MUTATIONS.find((m) => m.family === family && !SCENARIOS.some((s) => m.caughtBy.startsWith(s.id)) && !byRateLimitStage(m) && operationChecks(m));
    return first ? [first.name] : [];
  }),
);

/**
 * One family's broken servers, or one shard of them (`shard` of `shards`, by position): a family
 * with many broken servers is split over several test files, which vitest runs side by side.
 */
export function mutationSuite(family: FamilyId, shard = 1, shards = 1): void {
  const cleanups: Array<() => Promise<void>> = [];
  const caught: string[] = [];
  const widened: string[] = [];
  const mutations = ALL_MUTATIONS.filter((m) => m.family === family).filter((_, i) => i % shards === shard - 1);
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });
  afterAll(() => {
    const part = shards > 1 ? ` (part ${shard} of ${shards})` : "";
    const lines = [`${familyName(family)} mutation score${part}: ${caught.length} of ${mutations.length} broken servers caught (${ALL_MUTATIONS.length} in all)`];
    if (widened.length > 0) lines.push(`missed by the checks of their operation, caught or not by the whole suite: ${widened.join(", ")}`);
    if (family === "family-b" && shard === 1) {
      lines.push("rules no broken server of the self-test can show (the suites still check them where a target can):");
      for (const { rule, why } of NOT_CATCHABLE_HERE) lines.push(`  - ${rule}: ${why}`);
    }
    console.log(lines.join("\n"));
  });
  for (const mutation of mutations) {
    it(`fail (${mutation.profile ?? "seed"}) when ${mutation.breaks} [${mutation.name}]`, { timeout: 60_000 }, async () => {
      // A broken server a scenario must catch meets that scenario only (no Dredd suite, no
      // other scenario): it is the check of such a rule, and the run takes a second or two.
      // The generic checks have their own broken servers (derived-mutation-suite.ts).
      const catching = SCENARIOS.filter((s) => mutation.caughtBy.startsWith(s.id));
      const byScenario = catching.length > 0;
      const rateLimitStage = !byScenario && byRateLimitStage(mutation);
      // One caught by a response check meets that operation's checks only (but WHOLE_SUITE_RUNS);
      // if they miss it, the whole suite runs: the smaller run never decides that it survives.
      const ofOperation = byScenario || rateLimitStage || WHOLE_SUITE_RUNS.has(mutation.name) ? undefined : operationChecks(mutation);
      const run = (checks: typeof FAMILY_CHECKS | undefined) => runAgainstSandbox(
        {
          proxy: (upstream, keys) => startMutant(upstream, mutation, keys),
          checks: byScenario ? { "family-a": [], "family-b": [] } : rateLimitStage ? RATE_LIMIT_STAGE : checks,
          scenarios: byScenario ? catching : rateLimitStage || checks ? [] : undefined,
          derived: false,
          families: [mutation.family],
          profile: mutation.profile,
          plan: mutation.needsRateLimits ? SMALL_PLAN : "generous",
          exhaust: mutation.needsRateLimits ?? false,
          adjustTarget: mutation.adjustTarget,
          allowPrivateWebhooks: !mutation.refusesPrivateWebhookTargets,
          // The first kill ends the run: what would follow cannot undo it. A server not killed
          // still meets the whole suite, and its report shows every result.
          stopWhen: kills(mutation),
        },
        cleanups,
      );
      let report = await run(ofOperation);
      if (ofOperation && killers(failed(report), mutation).length === 0) {
        widened.push(mutation.name);
        report = await run(undefined);
      }
      // Killed by a failing result under caughtBy that names a statement the server breaks.
      const found = killers(failed(report), mutation);
      recordKill(mutation.name, "mutation", found);
      expect(found.map((r) => r.id), disagreement(failed(report), mutation) ?? formatReport(report)).not.toEqual([]);
      // The run stopped at the kill: nothing ran after it.
      expect(report.stoppedEarly?.after).toBe(found[0]!.id);
      expect(report.results.at(-1)?.id).toBe(found[0]!.id);
      caught.push(mutation.name);
    });
  }
}
