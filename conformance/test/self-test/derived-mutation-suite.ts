/**
 * The generic checks (src/derived/) against broken servers (derived-mutants.ts): each breaks one
 * rule at one operation and the named derived result must fail. Only the generic checks of the
 * broken server's class and family run (no Dredd suite, no scenarios): they make their own
 * traffic, which keeps each run under a second. Within the class, only the checks of the
 * operation the server breaks run (DerivedOptions.operations; every operation is still primed),
 * but for the first broken server of each class and family (WHOLE_CLASS_RUNS), which meets every
 * operation of its class, and for one the smaller run misses, which runs again whole: the
 * smaller run never decides that a broken server survives. The rate-limit class uses up a
 * bucket through every operation of it: it always runs whole. The correct server passes the
 * variant only a second key of one account can show. The broken servers are split over test
 * files (derived-mutation-N.test.ts, by position), which vitest runs side by side.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { formatReport } from "../../src/runner/report.ts";
import { failed } from "../../src/core/results.ts";
import { runAgainstSandbox, SMALL_PLAN } from "../sandbox-run.ts";
import { EXHAUST_CLASSES } from "../../src/derived/index.ts";
import { DERIVED_MUTATIONS, startDerivedMutant, type DerivedMutation } from "./derived-mutants.ts";
import { disagreement, killers, kills, recordKill } from "./statement-kills.ts";

/** The operation whose checks a broken server's run keeps (the one its caughtBy names), or undefined: every operation. */
function scopedOperation(mutation: DerivedMutation): string | undefined {
  const operation = mutation.caughtBy.split("/")[3];
  return operation && !EXHAUST_CLASSES.includes(mutation.derivedClass) && !WHOLE_CLASS_RUNS.has(mutation.name) ? operation : undefined;
}

/** The first broken server of each class and family: it meets every operation of its class, as a user's run does. */
export const WHOLE_CLASS_RUNS: ReadonlySet<string> = new Set(
  DERIVED_MUTATIONS.filter((m, i) => DERIVED_MUTATIONS.findIndex((o) => o.family === m.family && o.derivedClass === m.derivedClass) === i).map((m) => m.name),
);

export function derivedMutationSuite(part = 1, parts = 1): void {
  const cleanups: Array<() => Promise<void>> = [];
  const caught = new Map<string, string[]>();
  const widened: string[] = [];
  const mutations = DERIVED_MUTATIONS.filter((_, i) => i % parts === part - 1);
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });
  afterAll(() => {
    const lines = [
      `generic checks${parts > 1 ? ` (part ${part} of ${parts})` : ""}: ${[...caught.values()].flat().length} of ${mutations.length} broken servers caught (${DERIVED_MUTATIONS.length} in all)`,
    ];
    for (const [derivedClass, names] of caught)
      lines.push(`  ${derivedClass}: ${names.length} (${names.join(", ")})`);
    if (widened.length > 0) lines.push(`  missed by the run of their operation, caught or not by the whole class: ${widened.join(", ")}`);
    console.log(lines.join("\n"));
  });

  if (part === 1)
    describe("the idempotency key space against the correct server", () => {
      // Under full: in family B one key space per API key is D36's (seed leaves the second key alone there).
      it("passes with the sandbox's second key of the primary account: one idempotency key makes one record per API key", async () => {
        const report = await runAgainstSandbox(
          {
            checks: { "family-a": [], "family-b": [] },
            scenarios: [],
            derived: { classes: ["idempotency-key-space"] },
            profile: "full",
          },
          cleanups,
        );
        const secondKey = report.results.filter((r) =>
          r.id.endsWith("/second-key-same-account"),
        );
        expect(secondKey.length, formatReport(report)).toBeGreaterThanOrEqual(
          2,
        );
        expect(
          secondKey.filter((r) => r.verdict !== "pass"),
          formatReport(report),
        ).toEqual([]);
      });
    });

  describe("the generic checks catch one broken rule per server", () => {
    for (const mutation of mutations) {
      it(
        `fail (${mutation.profile ?? "seed"}) when ${mutation.breaks} [${mutation.name}]`,
        { timeout: 90_000 },
        async () => {
          const run = (operation: string | undefined) => runAgainstSandbox(
            {
              proxy: (upstream, keys) =>
                startDerivedMutant(upstream, mutation.handle, keys),
              checks: { "family-a": [], "family-b": [] },
              scenarios: [],
              // A fixed seed: the generated bodies (positive data) are the same on every run.
              derived: { classes: [mutation.derivedClass], seed: 20_240_601, ...(operation ? { operations: [operation] } : {}) },
              families: [mutation.family],
              profile: mutation.profile,
              plan: mutation.needsRateLimits ? SMALL_PLAN : "generous",
              exhaust: mutation.derivedClass === "rate-limits",
              adjustTarget: mutation.adjustTarget,
              // The first kill ends the run (between operations of the class): nothing after it can undo it.
              stopWhen: kills(mutation),
            },
            cleanups,
          );
          const operation = scopedOperation(mutation);
          let report = await run(operation);
          if (operation && killers(failed(report), mutation).length === 0) {
            widened.push(mutation.name);
            report = await run(undefined);
          }
          // Killed by a failing result under caughtBy that names a statement the server breaks.
          const found = killers(failed(report), mutation);
          recordKill(mutation.name, "derived", found);
          expect(
            found.map((r) => r.id),
            disagreement(failed(report), mutation) ?? formatReport(report),
          ).not.toEqual([]);
          expect(
            found.every((r) => r.reproduction && r.statements.length + r.decisions.length > 0),
          ).toBe(true);
          // The run stopped at the kill (a class stops between its operations).
          expect(report.stoppedEarly?.after).toBe(found[0]!.id);
          caught.set(mutation.derivedClass, [
            ...(caught.get(mutation.derivedClass) ?? []),
            `${mutation.name}`,
          ]);
        },
      );
    }
  });
}
