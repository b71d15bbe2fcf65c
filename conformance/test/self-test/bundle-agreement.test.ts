/**
 * A bundle of a run against a broken server agrees with itself: `verify` finds every violation
 * the traffic shows among the report's failures, and every failure backed by its exchanges, or
 * counted apart when the traffic cannot show it. Each broken server's run stops at its first
 * failure (`--fail-fast`), bundled, then verified. By default a few broken servers, one of each
 * kind a verifier meets (a wrong field the engine sees, a fault shown first in provisioning, a
 * webhook, a rate limit answered 503, a fault only the target's fixtures reveal, a rule across
 * exchanges); BUNDLE_ALL_MUTANTS=1 runs every broken server of the self-test.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { startTemporarySandbox } from "@payment-collection/sandbox/harness/temporary-sandbox.ts";
import { parseTarget } from "../../src/core/target.ts";
import { verifyBundle } from "../../src/bundle/verify.ts";
import { runAndReport } from "../../src/runner/run-and-report.ts";
import { ALL_MUTATIONS } from "./broken-servers.ts";
import { startMutant } from "./mutants.ts";
import { SMALL_PLAN } from "../sandbox-run.ts";

const SAMPLE = ["charge-amount-as-string", "new-key-returns-an-old-charge", "webhook-unsigned", "limit-exceeded-503", "delete-unknown-customer-400", "json-post-body-ignored"];
const mutations = process.env.BUNDLE_ALL_MUTANTS ? ALL_MUTATIONS : ALL_MUTATIONS.filter((m) => SAMPLE.includes(m.name));

const work = mkdtempSync(join(tmpdir(), "bundle-agreement-"));
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  while (cleanups.length > 0) await cleanups.pop()!();
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("bundles of broken servers' runs verify", () => {
  it("the sample names broken servers the self-test has", () => {
    expect(ALL_MUTATIONS.filter((m) => SAMPLE.includes(m.name)).map((m) => m.name).sort()).toEqual([...SAMPLE].sort());
  });

  for (const mutation of mutations) {
    it(`${mutation.name}: ${mutation.breaks}`, { timeout: 120_000 }, async () => {
      const sandbox = await startTemporarySandbox({ plan: mutation.needsRateLimits ? SMALL_PLAN : "generous", useRateLimitAccount: true });
      cleanups.push(sandbox.close);
      const mutant = await startMutant(sandbox.url, mutation, sandbox.keys);
      cleanups.push(mutant.close);
      const target = parseTarget(sandbox.target, `the broken server ${mutation.name}`);
      target.familyA!.baseUrl = mutant.url;
      target.familyB!.baseUrl = mutant.url;
      mutation.adjustTarget?.(target);
      const dir = join(work, mutation.name);
      vi.spyOn(console, "log").mockImplementation(() => {});
      vi.spyOn(console, "error").mockImplementation(() => {});
      const { code } = await runAndReport(target, {
        families: [mutation.family], profile: mutation.profile ?? "seed", bundle: dir, failFast: true,
        statements: false, coverage: false, exhaust: mutation.needsRateLimits ?? false, exhaustCap: 1000, quiet: true,
      });
      vi.restoreAllMocks();
      const verified = await verifyBundle(dir);
      expect(verified.problems).toEqual([]);
      expect(verified.code).toBe(0);
      // A failure is confirmed by the traffic or counted apart. (Whether the whole suite, with
      // --fail-fast, catches each broken server is the mutation self-test's question, not this one's.)
      const judged = verified.rejudgement!;
      if (code === 1) expect(judged.confirmed + judged.apart.length, "the failure is confirmed or counted apart").toBeGreaterThan(0);
      if (SAMPLE.includes(mutation.name)) expect(code, "the broken server fails the run").toBe(1);
    });
  }
});
