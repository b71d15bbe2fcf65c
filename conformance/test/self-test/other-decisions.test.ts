/**
 * The suites against a faithful server that decided differently wherever the document is
 * silent (mutants.ts, OTHER_DECISIONS): it conforms to what the document states (seed) and not
 * to the project's decisions (full). The generic checks meet it in other-decisions-generic.test.ts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { formatReport } from "../../src/runner/report.ts";
import { failed } from "../../src/core/results.ts";
import { OTHER_DECISIONS, startMutant } from "./mutants.ts";
import { failures, runAgainstSandbox, untilFailed, type SandboxProxy } from "../sandbox-run.ts";

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
