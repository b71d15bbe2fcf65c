/**
 * Self-test of the conformance suites: they pass against the correct server (the sandbox) and
 * fail against servers that each break one rule of the document (test/conformance/mutants.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../sandbox/src/server.ts";
import type { RateLimitPlan } from "../../sandbox/src/plans.ts";
import { provisionSandboxTarget } from "../../conformance/sandbox/provision.ts";
import type { Profile } from "../../conformance/profiles/index.ts";
import type { FamilyLetter } from "../../conformance/runner/contract.ts";
import { formatReport } from "../../conformance/runner/report.ts";
import { coverage, failed, type RunReport } from "../../conformance/runner/results.ts";
import { runConformance } from "../../conformance/runner/run.ts";
import { MUTATIONS, OTHER_DECISIONS, startMutant, type Mutation } from "./mutants.ts";

/** A plan small and short enough that the 429 checks and the pacing run in seconds. */
const SMALL_PLAN: RateLimitPlan = { windowSeconds: 5, general: 40, pixCreations: 40, transactionCreations: 40, queries: 40 };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

interface RunSetup {
  mutation?: Mutation;
  families?: FamilyLetter[];
  profile?: Profile;
  plan?: "generous" | RateLimitPlan;
  exhaust?: boolean;
}

/** A fresh sandbox (and mutant in front of it), its fixtures, and one conformance run. */
async function runAgainstSandbox(setup: RunSetup): Promise<RunReport> {
  const dataDir = mkdtempSync(join(tmpdir(), "conformance-self-test-"));
  const sandbox = await startSandbox({ port: 0, dataDir, plan: setup.plan ?? "generous" });
  cleanups.push(async () => {
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const target = await provisionSandboxTarget(sandbox.url, sandbox.keys);
  if (setup.mutation) {
    const mutant = await startMutant(sandbox.url, setup.mutation, sandbox.keys);
    cleanups.push(mutant.close);
    target.familyA!.baseUrl = mutant.url;
    target.familyB!.baseUrl = mutant.url;
  }
  return runConformance({
    target,
    families: setup.families,
    profile: setup.profile ?? "seed",
    exhaust: setup.exhaust ?? false,
  });
}

function failures(report: RunReport): string[] {
  return failed(report).map((r) => `${r.id}: ${r.reasons.join("; ")}`);
}

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

describe("the conformance suites against servers broken in one way", () => {
  for (const mutation of MUTATIONS) {
    it(`fail (seed) when ${mutation.breaks} [${mutation.name}]`, { timeout: 180_000 }, async () => {
      const report = await runAgainstSandbox({
        mutation,
        families: [mutation.family],
        plan: mutation.needsRateLimits ? SMALL_PLAN : "generous",
        exhaust: mutation.needsRateLimits ?? false,
      });
      const caught = failed(report).filter((r) => r.id.startsWith(mutation.caughtBy));
      expect(caught.map((r) => r.id), formatReport(report)).not.toEqual([]);
    });
  }
});
