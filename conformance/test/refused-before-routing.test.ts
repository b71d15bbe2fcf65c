/**
 * Decision D39's requests refused before routing against the project's sandbox: with its request
 * timeout declared (as a temporary sandbox's target declares it), the request whose headers never
 * end is answered 408 in time, directly and through the proxies that relay it (the self-test's,
 * the validating proxy); with none declared, or one
 * longer than a run waits, the other refusals are judged and the pass says the 408 was not.
 */
import { afterEach, describe, expect, it } from "vitest";
import { refusedBeforeRoutingA, refusedBeforeRoutingB } from "../src/scenarios/paths-refused-before-routing.ts";
import { TrafficEngine } from "../src/traffic/engine.ts";
import { startTrafficProxy } from "../src/traffic/proxy-server.ts";
import { familyRoutes } from "../src/traffic/routing.ts";
import { startProxy } from "./self-test/mutants.ts";
import { runAgainstSandbox, type RunSetup } from "./sandbox-run.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const both: RunSetup = { profile: "full", checks: { "family-a": [], "family-b": [] }, derived: false, scenarios: [refusedBeforeRoutingA, refusedBeforeRoutingB] };

async function resultsOf(setup: RunSetup) {
  const report = await runAgainstSandbox({ ...both, ...setup }, cleanups);
  expect(report.results.map((r) => r.id).sort()).toEqual([refusedBeforeRoutingA.id, refusedBeforeRoutingB.id]);
  return report.results;
}

describe("requests refused before routing (D39)", () => {
  it("passes against the sandbox, its declared timeout's 408 judged, directly and through the relaying proxies", { timeout: 90_000 }, async () => {
    const validating = (upstream: string) => {
      const routes = familyRoutes({});
      return startTrafficProxy({ engine: new TrafficEngine({ profile: "full", routes }), routes, upstreams: { "family-a": upstream, "family-b": upstream } });
    };
    // Side by side, each with its sandbox: a run is mostly the wait for the 408.
    const runs = await Promise.all([undefined, (upstream: string) => startProxy(upstream, (request, forward) => forward(request)), validating].map((proxy) => resultsOf({ proxy })));
    for (const result of runs.flat()) expect([result.verdict, ...result.reasons]).toEqual(["pass"]);
  });

  it("judges the other refusals and says why the 408 was not when no short timeout is declared", { timeout: 60_000 }, async () => {
    const cases = [[undefined, "declares no request timeout"], [60_000, "declares a request timeout of 60000 ms"]] as const;
    const runs = await Promise.all(
      cases.map(([declared]) =>
        resultsOf({
          adjustTarget: (target) => {
            target.familyA!.requestTimeoutMs = declared;
            target.familyB!.requestTimeoutMs = declared;
          },
        }),
      ),
    );
    runs.forEach((results, i) => {
      for (const result of results) {
        expect(result.verdict, result.reasons.join("\n")).toBe("pass");
        expect(result.reasons.join(" ")).toContain(`the target ${cases[i]![1]} (requestTimeoutMs, at most 10000 ms)`);
      }
    });
  });
});
