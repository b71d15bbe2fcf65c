/**
 * The generic checks (src/derived/) against broken servers (derived-mutants.ts): each breaks one
 * rule at one operation and the named derived result must fail. Only the generic checks run
 * (no Dredd suite, no scenarios): they make their own traffic, which keeps each run to seconds.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { formatReport } from "../../src/runner/report.ts";
import { failed } from "../../src/core/results.ts";
import { runAgainstSandbox, SMALL_PLAN } from "../sandbox-run.ts";
import { DERIVED_MUTATIONS, SECOND_KEY, startDerivedMutant } from "./derived-mutants.ts";

const cleanups: Array<() => Promise<void>> = [];
const caught = new Map<string, string[]>();
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});
afterAll(() => {
  const lines = [`generic checks: ${[...caught.values()].flat().length} of ${DERIVED_MUTATIONS.length} broken servers caught`];
  for (const [derivedClass, names] of caught) lines.push(`  ${derivedClass}: ${names.length} (${names.join(", ")})`);
  console.log(lines.join("\n"));
});

describe("the generic checks catch one broken rule per server", () => {
  for (const mutation of DERIVED_MUTATIONS) {
    it(`fail (${mutation.profile ?? "seed"}) when ${mutation.breaks} [${mutation.name}]`, { timeout: 90_000 }, async () => {
      const report = await runAgainstSandbox(
        {
          proxy: (upstream, keys) => startDerivedMutant(upstream, mutation.handle, keys),
          checks: { "family-a": [], "family-b": [] },
          scenarios: [],
          // A fixed seed: the generated bodies (positive data) are the same on every run.
          derived: { classes: [mutation.derivedClass], seed: 20_240_601 },
          families: [mutation.family],
          profile: mutation.profile,
          plan: mutation.needsRateLimits ? SMALL_PLAN : "generous",
          exhaust: mutation.derivedClass === "rate-limits",
          adjustTarget: mutation.primarySecondKey
            ? (target) => {
                target.familyA!.keys.primarySecondKey = SECOND_KEY["family-a"];
                target.familyB!.keys.primarySecondKey = SECOND_KEY["family-b"];
              }
            : undefined,
        },
        cleanups,
      );
      const found = failed(report).filter((r) => r.id.startsWith(mutation.caughtBy));
      expect(found.map((r) => r.id), formatReport(report)).not.toEqual([]);
      expect(found.every((r) => r.reproduction && r.statements.length > 0)).toBe(true);
      caught.set(mutation.derivedClass, [...(caught.get(mutation.derivedClass) ?? []), `${mutation.name}`]);
    });
  }
});
