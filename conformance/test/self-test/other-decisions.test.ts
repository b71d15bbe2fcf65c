/**
 * The suites against a faithful server that decided differently wherever the document is
 * silent (mutants.ts, OTHER_DECISIONS): it conforms to what the document states (seed) and not
 * to the project's decisions (full).
 */
import { afterEach, describe, expect, it } from "vitest";
import { formatReport } from "../../src/runner/report.ts";
import { failed } from "../../src/core/results.ts";
import { OTHER_DECISIONS, startMutant } from "./mutants.ts";
import { failures, runAgainstSandbox, SMALL_PLAN, untilFailed, type SandboxProxy } from "../sandbox-run.ts";
import { DERIVED_CLASSES } from "../../src/derived/index.ts";
import { FAITHFUL_PREFIX, faithfulOtherDecisions, startDerivedMutant } from "./derived-mutants.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const otherDecisions: SandboxProxy = (upstream, keys) => startMutant(upstream, OTHER_DECISIONS, keys);

describe("the conformance suites against a faithful server that decided differently", () => {
  it("pass under seed and fail under full", { timeout: 180_000 }, async () => {
    const seed = await runAgainstSandbox({ proxy: otherDecisions }, cleanups);
    expect(failures(seed), formatReport(seed)).toEqual([]);
    // Under full the run stops once each decision this server took otherwise has failed its check.
    const decisions = ["family-a/createCharge/201/new-key", "family-b/cancelBoleto/200/registered-boleto", "family-b/deleteCustomer/200/new-customer", "family-b/cancelBoleto/404/unknown-id"];
    const full = await runAgainstSandbox({ proxy: otherDecisions, profile: "full", stopWhen: untilFailed(decisions) }, cleanups);
    expect(failed(full).map((r) => r.id)).toEqual(expect.arrayContaining(decisions));
  });
});

describe("the generic checks against a faithful server that decided differently", () => {
  it("pass under seed: every class, with PIX and transactions under another prefix, 403 for another account's records, the sandbox's second key of the primary account", { timeout: 180_000 }, async () => {
    const report = await runAgainstSandbox(
      {
        proxy: (upstream, keys) => startDerivedMutant(upstream, faithfulOtherDecisions, keys),
        checks: { "family-a": [], "family-b": [] },
        scenarios: [],
        plan: SMALL_PLAN,
        exhaust: true,
        adjustTarget: (target) => {
          target.familyB!.pathPrefix = { pix: FAITHFUL_PREFIX, transactions: FAITHFUL_PREFIX };
        },
      },
      cleanups,
    );
    expect(failures(report), formatReport(report)).toEqual([]);
    // Each class ran somewhere (not only "not applicable").
    for (const derivedClass of DERIVED_CLASSES) {
      expect(report.results.some((r) => r.derivedClass === derivedClass && r.verdict === "pass"), derivedClass).toBe(true);
    }
  });
});
