/**
 * Against the Prism mock of the contract, every documented response asked for by status
 * conforms; what a stateless mock cannot show is reported not applicable, with the reason.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mockTarget } from "../src/mock/mock-target.ts";
import { startMock, type RunningMock } from "../src/mock/start-mock.ts";
import { coverage, failed } from "../src/core/results.ts";
import { runConformance } from "../src/runner/run.ts";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
}, 120_000);
afterAll(async () => {
  await mock?.close();
});

describe("the conformance suites against the Prism mock", () => {
  it("pass every schema-level check and say why the others do not apply", { timeout: 180_000 }, async () => {
    const report = await runConformance({ target: mockTarget(mock.urls), profile: "full" });
    expect(failed(report).map((r) => `${r.id}: ${r.reasons.join("; ")}`)).toEqual([]);
    // Every documented response of both families is asked for and checked.
    expect(coverage(report).filter((e) => e.exercisedBy.length === 0)).toEqual([]);
    const notApplicable = report.results.filter((r) => r.verdict === "not-applicable");
    expect(notApplicable.length).toBeGreaterThan(0);
    for (const r of notApplicable) expect(r.reasons[0]).toMatch(/stateless mock/);
  });
});
