/**
 * The end-to-end run of the conformance suites against the correct server (the sandbox): they
 * must pass under both profiles. The runs against broken servers, a server that decided
 * differently and a small rate-limit plan are the self-test (test/self-test/, `npm run
 * test:self-test`).
 */
import { afterEach, describe, expect, it } from "vitest";
import { formatReport } from "../src/runner/report.ts";
import { coverage } from "../src/core/results.ts";
import { failures, runAgainstSandbox as run, type RunSetup } from "./sandbox-run.ts";

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
});
