/**
 * Self-test of the conformance suites: they pass against the correct server (the sandbox) and
 * pass under seed against a faithful server that decided differently (the broken servers are in
 * mutation-a.test.ts, mutation-b.test.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import { formatReport } from "../src/runner/report.ts";
import { coverage, failed } from "../src/core/results.ts";
import { OTHER_DECISIONS } from "./mutants.ts";
import { failures, runAgainstSandbox as run, SMALL_PLAN, type RunSetup } from "./sandbox-run.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const runAgainstSandbox = (setup: RunSetup) => run(setup, cleanups);

describe("the conformance suites against the correct server (sandbox)", () => {
  it("pass under seed, and exercise every documented response a client can provoke", { timeout: 120_000 }, async () => {
    const report = await runAgainstSandbox({});
    expect(failures(report), formatReport(report)).toEqual([]);
    const missing = coverage(report).filter((e) => e.exercisedBy.length === 0 && e.notApplicable.length === 0);
    expect(missing).toEqual([]);
  });

  it("pass under full", { timeout: 120_000 }, async () => {
    const report = await runAgainstSandbox({ profile: "full" });
    expect(failures(report), formatReport(report)).toEqual([]);
  });

  it("pace themselves against a server enforcing small rate limits, and check every 429", { timeout: 180_000 }, async () => {
    const report = await runAgainstSandbox({ plan: SMALL_PLAN, families: ["b"], exhaust: true });
    expect(failures(report), formatReport(report)).toEqual([]);
    const rateLimited = report.results.filter((r) => r.covers.some((c) => c.status === "429"));
    expect(rateLimited.length).toBeGreaterThan(0);
    expect(rateLimited.every((r) => r.verdict === "pass")).toBe(true);
  });
});

describe("the conformance suites against a faithful server that decided differently", () => {
  it("pass under seed and fail under full", { timeout: 180_000 }, async () => {
    const seed = await runAgainstSandbox({ mutation: OTHER_DECISIONS });
    expect(failures(seed), formatReport(seed)).toEqual([]);
    const full = await runAgainstSandbox({ mutation: OTHER_DECISIONS, profile: "full" });
    expect(failed(full).map((r) => r.id)).toEqual(
      expect.arrayContaining(["a/createCharge/201/new-key", "b/cancelBoleto/200/registered-boleto", "b/deleteCustomer/200/new-customer", "b/cancelBoleto/404/unknown-id"]),
    );
  });
});
