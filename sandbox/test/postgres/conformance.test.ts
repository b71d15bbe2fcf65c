/**
 * The conformance suites (full profile) against two sandbox instances over one PostgreSQL
 * database, behind a round-robin proxy: the requests of one scenario alternate between the
 * instances, so everything a scenario relies on (idempotency keys, clocks, webhook secrets and
 * endpoints, rate-limit counters, the outbox) must be shared through the store. Full only: it
 * sends everything seed does and holds the server to the decisions besides; that the sandbox
 * passes both profiles is the main job's (and the traffic proxy test's), what this adds is the
 * shared store.
 */
import { afterEach, expect, it } from "vitest";
import { startTemporarySandbox } from "../../src/harness/temporary-sandbox.ts";
import { parseTarget } from "@payment-collection/conformance/core/target.ts";
import { failed } from "@payment-collection/conformance/core/results.ts";
import { formatReport } from "@payment-collection/conformance/runner/report.ts";
import { runConformance } from "@payment-collection/conformance/runner/run.ts";
import { SCENARIOS } from "@payment-collection/conformance/scenarios/index.ts";
import { freshSchema, pgDescribe } from "./support.ts";

/**
 * What each instance answers to bytes that are not valid HTTP (D39) is not shared through the
 * store, and the round-robin proxy in front (Node's HTTP server) answers such requests itself:
 * those scenarios run against one instance, in the single-sandbox runs.
 */
const THROUGH_THE_PROXY = SCENARIOS.filter((s) => !s.id.endsWith("/paths/refused-before-routing"));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function runProfile(profile: "full") {
  const schema = await freshSchema();
  cleanups.push(schema.drop);
  const sandbox = await startTemporarySandbox({ store: schema.url, instances: 2, useRateLimitAccount: true });
  cleanups.push(sandbox.close);
  const started = performance.now();
  const report = await runConformance({ target: parseTarget(sandbox.target, `two instances at ${sandbox.url}`), profile, exhaust: false, scenarios: THROUGH_THE_PROXY });
  console.log(`conformance ${profile} against two PostgreSQL instances: ${report.results.length} checks in ${Math.round(performance.now() - started)} ms`);
  return report;
}

pgDescribe("the conformance suites against two instances over PostgreSQL (round-robin)", () => {
  it("pass under full", { timeout: 180_000 }, async () => {
    const report = await runProfile("full");
    expect(failed(report).map((r) => `full: ${r.id}: ${r.reasons.join("; ")}`), formatReport(report)).toEqual([]);
  });
});
