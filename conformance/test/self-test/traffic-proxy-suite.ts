/**
 * The broken servers of the self-test, seen through the validating proxy: the suite runs as in
 * the mutation self-test (mutation.ts), with the proxy between the suite and the broken server.
 * The proxy must flag the fault of every broken server whose fault shows in the traffic; the
 * figure proxy vs suite is printed at the end. A faithful server that decided differently
 * (OTHER_DECISIONS) must pass the proxy under seed and be flagged under full, by decision ids.
 *
 * A broken server caught by a response check meets the checks of its operation only (as in
 * mutation.ts), and the whole suite when that is not enough.
 *
 * By default the broken servers that change answers (mutants.ts) run; TRAFFIC_ALL_MUTANTS=1
 * runs every broken server (behaviour and wire-rule ones too). They are split over two test
 * files (traffic-proxy-N.test.ts), which vitest runs side by side.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { Profile } from "../../src/core/profiles/index.ts";
import {
  failed,
  type CheckResult,
  type RunReport,
} from "../../src/core/results.ts";
import { SCENARIOS } from "../../src/scenarios/index.ts";
import {
  TrafficEngine,
  violationLine,
  type TrafficSummary,
  type Violation,
} from "../../src/traffic/engine.ts";
import { startTrafficProxy } from "../../src/traffic/proxy-server.ts";
import { familyRoutes } from "../../src/traffic/routing.ts";
import { accountsOfTarget } from "../../src/traffic/accounts.ts";
import {
  MUTATIONS,
  OTHER_DECISIONS,
  startMutant,
  type Mutation,
} from "./mutants.ts";
import { ALL_MUTATIONS, operationChecks, WHOLE_SUITE_RUNS } from "./mutation.ts";
import { runAgainstSandbox, SMALL_PLAN } from "../sandbox-run.ts";

const WEBHOOKS =
  "webhooks go from the server to the client's webhook_url, not through the proxy";
const PLAN =
  "the limits of the account's plan are account data (the target's plan), not in the traffic";
const KEYS =
  "which key prefixes a server must accept or refuse is judged with keys of every kind, which a client's traffic does not carry";

const LIFETIME =
  "the proxy does not judge a charge's lifetime yet: an expiry against the creation plus the lifetime sent (D02, D14) is a rule between a request and its answer that no schema or encoding carries";
const EXPIRY =
  "the proxy does not judge a charge's expiry yet: the status a read owes depends on the account's clock (D02, D04), which the traffic shows only through the sandbox's clock control";
const SLOW =
  "a request whose headers never end is no exchange the proxy reads: it hands the bytes on to the server as they came (core/raw-relay.ts), and its answer back";

/** Broken servers whose fault no exchange shows on its own (or that the proxy does not judge yet), and why. */
const NOT_IN_TRAFFIC: Record<string, string> = {
  "merchant-scope-ignored":
    "which scopes a key holds is account data: the exchange of a key without merchant:read looks like any other success",
  "webhook-unsigned": WEBHOOKS,
  "webhook-signed-with-another-secret": WEBHOOKS,
  "webhook-not-retried": WEBHOOKS,
  "general-limit-announced-one-fewer": PLAN,
  "pix-limit-announced-one-fewer": PLAN,
  "transactions-limit-announced-one-fewer": PLAN,
  "queries-limit-announced-one-fewer": PLAN,
  "pix-limit-counts-every-request":
    "the headers show one bucket, the one with the least left: a count in another bucket does not show",
  "live-key-accepted-by-test-server": KEYS,
  "live-server-accepts-test-keys": KEYS,
  "keys-of-two-prefixes": KEYS,
  "retry-after-zero":
    "shown only when the 429 comes more than a second before the window renews (with 5-second windows, not every run): Retry-After 0 is right at the very end of a window",
  "new-charge-already-paid-at":
    "the catalogue states 'paid_at is null while pending' in prose, not as an encoding the proxy can read",
  "canceled-boleto-shown-registered":
    "the boleto does change after the cancel (other members); that its status must read CANCELED is in the transition table's prose, not in an encoding",
  "refused-delete-still-deletes":
    "the scenario's traffic has no read of the customer before the refused delete: the later read has nothing to be compared with",
  "slow-request-answered-without-body-family-a": SLOW,
  "slow-request-answered-without-body-family-b": SLOW,
  "charge-never-expires": EXPIRY,
  "charge-expires-a-second-late": EXPIRY,
  "charge-expires-a-second-early": EXPIRY,
  "paid-charge-expires": EXPIRY,
  "pix-charge-never-removed": EXPIRY,
  "pix-charge-removed-a-second-late": EXPIRY,
  "charge-expires-in-ignored": LIFETIME,
  "charge-default-lifetime-an-hour": LIFETIME,
  "charge-expires-at-a-second-off": LIFETIME,
  "pix-expires-in-ignored": LIFETIME,
  "pix-default-lifetime-an-hour": LIFETIME,
  "pix-expires-at-a-second-off": LIFETIME,
  "transactions-second-page-repeats-the-first":
    "how pages split a list is read across the pages of one list; the proxy's rules across exchanges compare a record's readings, not a list's pages",
  "deleted-customer-still-active":
    "under seed what a soft delete shows is not stated (the suites' consistency class holds it under full only, as the proxy does)",
};

const cleanups: Array<() => Promise<void>> = [];

/**
 * What a test asks of a run, once it is known the run stops (what follows can change nothing
 * asked): the suite caught the broken server (a failure under its `caughtBy`) and the proxy
 * flagged an exchange; or the proxy flagged an exchange by a decision. Without it the suite
 * runs whole and the proxy sees all its traffic.
 */
type Enough = "caught and flagged" | "a decision flagged";

async function throughProxy(
  mutation: Mutation,
  profile: Profile,
  enough?: Enough,
  ofOperation?: ReturnType<typeof operationChecks>,
): Promise<{ report: RunReport; summary: TrafficSummary }> {
  let engine: TrafficEngine | undefined;
  let flagged = false;
  let decisionFlagged = false;
  let caught = false;
  const onViolation = (violation: Violation) => {
    if (violation.side !== "server") return;
    flagged = true;
    decisionFlagged ||= violation.naming.kind === "decision";
  };
  const stopWhen = (result: CheckResult) => {
    caught ||=
      mutation.caughtBy !== "" &&
      result.verdict === "fail" &&
      result.id.startsWith(mutation.caughtBy);
    return enough === "caught and flagged"
      ? caught && flagged
      : decisionFlagged;
  };
  const catching = SCENARIOS.filter(
    (s) => mutation.caughtBy !== "" && mutation.caughtBy.startsWith(s.id),
  );
  const byScenario = catching.length > 0;
  const report = await runAgainstSandbox(
    {
      proxy: async (upstream, keys) => {
        const mutant = await startMutant(upstream, mutation, keys);
        const routes = familyRoutes({});
        engine = new TrafficEngine({ profile, routes, onViolation });
        const proxy = await startTrafficProxy({
          engine,
          routes,
          upstreams: { "family-a": mutant.url, "family-b": mutant.url },
        });
        return {
          url: proxy.url,
          close: async () => (await proxy.close(), await mutant.close()),
        };
      },
      checks: byScenario ? { "family-a": [], "family-b": [] } : ofOperation,
      scenarios: byScenario ? catching : ofOperation ? [] : undefined,
      derived: false,
      families: mutation === OTHER_DECISIONS ? undefined : [mutation.family],
      profile,
      plan: mutation.needsRateLimits ? SMALL_PLAN : "generous",
      exhaust: mutation.needsRateLimits ?? false,
      adjustTarget: (target) => {
        mutation.adjustTarget?.(target);
        engine!.options.accounts = accountsOfTarget(target);
      },
      ...(enough ? { stopWhen } : {}),
    },
    cleanups,
  );
  await new Promise((resolve) => setImmediate(resolve));
  return { report, summary: engine!.summary() };
}

/**
 * One part of the broken servers (`part` of `parts`, by position), which vitest runs side by
 * side as traffic-proxy-N.test.ts; part 1 also runs the correct and the faithful server.
 */
export function trafficProxySuite(part = 1, parts = 1): void {
  const tally = {
    runs: 0,
    suite: 0,
    proxy: 0,
    named: [] as string[],
    missed: [] as string[],
  };
  const mutations = (
    process.env.TRAFFIC_ALL_MUTANTS ? ALL_MUTATIONS : MUTATIONS
  ).filter((_, i) => i % parts === part - 1);

  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });

  afterAll(() => {
    console.log(
      [
        `validating proxy vs suite${parts > 1 ? ` (part ${part} of ${parts})` : ""} over ${tally.runs} broken servers: the suite caught ${tally.suite}, the proxy flagged ${tally.proxy}`,
        ...tally.named.map((line) => `  flagged: ${line}`),
        ...tally.missed.map((line) => `  not flagged by the proxy: ${line}`),
      ].join("\n"),
    );
  });

  describe("broken servers through the validating proxy", () => {
    for (const mutation of mutations) {
      it(
        `${mutation.name}: ${mutation.breaks}`,
        { timeout: 120_000 },
        async () => {
          // One caught by a response check meets its operation's checks, as in the mutation
          // self-test; if the suite does not catch it there, or the proxy does not flag what it
          // must, the whole suite runs.
          const ofOperation = WHOLE_SUITE_RUNS.has(mutation.name) ? undefined : operationChecks(mutation);
          const enough = ({ report, summary }: { report: RunReport; summary: TrafficSummary }) =>
            failed(report).some((r) => r.id.startsWith(mutation.caughtBy)) &&
            (NOT_IN_TRAFFIC[mutation.name] !== undefined || summary.violations.some((v) => v.side === "server"));
          let run = await throughProxy(mutation, mutation.profile ?? "seed", "caught and flagged", ofOperation);
          if (ofOperation && !enough(run)) run = await throughProxy(mutation, mutation.profile ?? "seed", "caught and flagged");
          const { report, summary } = run;
          tally.runs += 1;
          if (failed(report).some((r) => r.id.startsWith(mutation.caughtBy)))
            tally.suite += 1;
          const flagged = summary.violations.filter((v) => v.side === "server");
          if (flagged.length > 0) tally.proxy += 1;
          if (flagged.length > 0)
            tally.named.push(
              `${mutation.name} -> ${[...new Set(flagged.map((v) => v.naming.id))].join(", ")}`,
            );
          if (flagged.length === 0)
            tally.missed.push(
              `${mutation.name}${NOT_IN_TRAFFIC[mutation.name] ? ` (${NOT_IN_TRAFFIC[mutation.name]})` : ""}`,
            );
          expect(summary.upstreamFaults).toBe(0);
          if (!NOT_IN_TRAFFIC[mutation.name])
            expect(
              flagged.map(violationLine),
              `the proxy flagged nothing against ${mutation.name}`,
            ).not.toEqual([]);
        },
      );
    }

    if (part === 1)
      it(
        "the correct server with a small rate-limit plan, its limits used up: the proxy finds nothing",
        { timeout: 240_000 },
        async () => {
          const correct: Mutation = {
            name: "correct",
            breaks: "nothing",
            family: "family-b",
            caughtBy: "",
          };
          for (const family of ["family-a", "family-b"] as const) {
            const { summary } = await throughProxy(
              { ...correct, family, needsRateLimits: true },
              "seed",
            );
            expect(summary.violations.map(violationLine)).toEqual([]);
            expect(summary.cases.some((c) => c.status === "429")).toBe(true);
          }
        },
      );

    if (part === parts)
      it(
        "a faithful server that decided differently passes the proxy under seed and is flagged by decision ids under full",
        { timeout: 240_000 },
        async () => {
          const seed = await throughProxy(OTHER_DECISIONS, "seed");
          expect(seed.summary.violations.map(violationLine)).toEqual([]);
          const full = await throughProxy(
            OTHER_DECISIONS,
            "full",
            "a decision flagged",
          );
          expect(full.summary.violations.length).toBeGreaterThan(0);
          expect(
            full.summary.violations.some((v) => v.naming.kind === "decision"),
          ).toBe(true);
        },
      );
  });
}
