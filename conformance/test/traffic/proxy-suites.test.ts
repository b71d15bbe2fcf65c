/**
 * The end-to-end run of the conformance suites against the correct server (the sandbox), through
 * the validating proxy: the suites must pass under both profiles (and, under seed, exercise
 * every documented response a client can provoke), and the proxy, which forwards every exchange
 * unchanged, must find nothing, with tenant isolation judged (the target file says which keys
 * share an account). The runs against broken servers, servers that decided differently and a
 * small rate-limit plan are the self-test (test/self-test/, `npm run test:self-test`).
 */
import { afterEach, describe, expect, it } from "vitest";
import { formatReport } from "../../src/runner/report.ts";
import { coverage } from "../../src/core/results.ts";
import { TrafficEngine, violationLine } from "../../src/traffic/engine.ts";
import { familyRoutes } from "../../src/traffic/routing.ts";
import { startTrafficProxy } from "../../src/traffic/proxy-server.ts";
import { accountsOfTarget } from "../../src/traffic/accounts.ts";
import { failures, runAgainstSandbox } from "../sandbox-run.ts";
import type { Profile } from "../../src/core/profiles/index.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function suitesThroughProxy(profile: Profile) {
  let engine: TrafficEngine | undefined;
  let handled = () => 0;
  const report = await runAgainstSandbox(
    {
      profile,
      adjustTarget: (target) => {
        // The target is the proxy's from here on; the sandbox keys are the same.
        engine!.options.accounts = accountsOfTarget(target);
      },
      proxy: async (upstream) => {
        const routes = familyRoutes({});
        engine = new TrafficEngine({ profile, routes });
        const proxy = await startTrafficProxy({ engine, routes, upstreams: { "family-a": upstream, "family-b": upstream } });
        handled = () => proxy.handled;
        return proxy;
      },
    },
    cleanups,
  );
  // The last exchanges' checks run just after their responses.
  await new Promise((resolve) => setImmediate(resolve));
  return { report, summary: engine!.summary(), handled: handled() };
}

describe("the conformance suites through the validating proxy, against the sandbox", () => {
  // Both profiles side by side, each with its sandbox and proxy: much of a run is waiting
  // (webhook retries, rate-limit windows), which the other fills.
  it("pass under seed (exercising every documented response a client can provoke) and under full, and the proxy finds no violation", { timeout: 240_000 }, async () => {
    const runs = await Promise.all((["seed", "full"] as const).map(async (profile) => ({ profile, ...(await suitesThroughProxy(profile)) })));
    for (const { profile, report, summary } of runs) {
      if (process.env.TRAFFIC_DEBUG) console.log(JSON.stringify({ ...summary, cases: summary.cases.length, consumer: summary.consumerFindings.length, consumerSample: summary.consumerFindings.slice(0, 5).map(violationLine) }, null, 1).slice(0, 6000));
      expect(failures(report), formatReport(report)).toEqual([]);
      if (profile === "seed") expect(coverage(report).filter((e) => e.exercisedBy.length === 0 && e.notApplicable.length === 0)).toEqual([]);
      expect(summary.violations.map(violationLine)).toEqual([]);
      expect(summary.upstreamFaults).toBe(0);
      expect(summary.exchanges).toBeGreaterThan(200);
      // The rules that span exchanges had something to judge.
      expect(summary.coverage.rules).toEqual(expect.arrayContaining(["idempotency", "tenant-isolation", "created-then-read", "rate-limit-window", "authentication"]));
    }
  });
});
