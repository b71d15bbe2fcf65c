/**
 * The suites against the correct server (the sandbox) under a small rate-limit plan: they pace
 * themselves, and every 429 check passes once the limit is used up.
 */
import { afterEach, describe, expect, it } from "vitest";
import { formatReport } from "../../src/runner/report.ts";
import { failures, runAgainstSandbox, SMALL_PLAN } from "../sandbox-run.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

describe("the conformance suites against a sandbox enforcing small rate limits", () => {
  it("pace themselves, and check every 429", { timeout: 180_000 }, async () => {
    const report = await runAgainstSandbox({ plan: SMALL_PLAN, families: ["family-b"], exhaust: true }, cleanups);
    expect(failures(report), formatReport(report)).toEqual([]);
    const rateLimited = report.results.filter((r) => r.covers.some((c) => c.status === "429"));
    expect(rateLimited.length).toBeGreaterThan(0);
    expect(rateLimited.every((r) => r.verdict === "pass")).toBe(true);
  });
});
