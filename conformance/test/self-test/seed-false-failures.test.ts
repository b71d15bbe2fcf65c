/**
 * Faithful servers that chose otherwise where the document is silent, one choice each, as a
 * small proxy over the sandbox. Each choice once made seed fail; seed must pass it (nothing
 * decided is asserted, nor used to generate data) and full, which holds the server to the
 * project's decisions, must fail it:
 * - no rate limits on family A ("Whether the rate limits apply to family A and to POST
 *   /v1/charges: not shown"; decision D09);
 * - a boleto cancel without a reason is accepted (the document gives the body `{reason}` and
 *   never says a cancel without one is refused; decision D18);
 * - a higher minimum charge amount, and a ceiling on PIX amounts ("bounds of amount ...: not
 *   shown"; decision D03);
 * - another cross-origin policy: every origin granted with a wildcard, no header exposed, no
 *   `Vary` (the document says nothing of browsers; decision D44).
 * Each run is cut down to the checks concerned and the family concerned.
 *
 * Any server but the sandbox lacks the sandbox's clock control: the scenarios that move an
 * account's clock are then not applicable under full, never failed.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import { FAMILY_CHECKS } from "../../src/checks/index.ts";
import { SCENARIOS } from "../../src/scenarios/index.ts";
import { failed, type RunReport } from "../../src/core/results.ts";
import type { DerivedClass } from "../../src/derived/index.ts";
import { formatReport } from "../../src/runner/report.ts";
import { failures, runAgainstSandbox, untilFailed, type SandboxProxy } from "../sandbox-run.ts";
import { startProxy, type Exchange, type Reply } from "./mutants.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A server that changes the requests it forwards to the sandbox and/or its replies. */
function variant(change: { request?(request: Exchange): Exchange; reply?(request: Exchange, reply: Reply): Reply }): SandboxProxy {
  return (upstream) =>
    startProxy(upstream, async (incoming, forward) => {
      const request = change.request ? change.request(incoming) : incoming;
      const reply = await forward(request);
      return change.reply ? change.reply(request, reply) : reply;
    });
}

/** Rewrites the JSON body of matching requests (a request the sandbox must see otherwise). */
function editRequest(matches: (request: Exchange) => boolean, edit: (body: Record<string, unknown>) => void) {
  return (request: Exchange): Exchange => {
    if (!matches(request)) return request;
    let body: unknown;
    try {
      body = JSON.parse(request.body);
    } catch {
      return request;
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) return request;
    edit(body as Record<string, unknown>);
    return { ...request, body: JSON.stringify(body) };
  };
}

/** Family A answered without any rate-limit header: the sandbox's generous plan never limits it. */
const noFamilyALimits = variant({
  reply: (request, reply) => {
    if (!request.path.startsWith("/v1/")) return reply;
    const headers = Object.fromEntries(Object.entries(reply.headers).filter(([name]) => !/^(x-ratelimit-|retry-after$)/i.test(name)));
    return { ...reply, headers };
  },
});

/** A cancel without reason cancels the boleto (the sandbox is given a reason of the server's own). */
const cancelWithoutReason = variant({
  request: editRequest(
    (r) => r.method === "DELETE" && /^\/api\/v1\/sdk\/boleto\/[^/]+\/cancel$/.test(r.path),
    (body) => {
      if (!("reason" in body)) body.reason = "cancelado sem motivo";
    },
  ),
});

/**
 * Amounts the server refuses: sent on to the sandbox as 0, which it refuses with its own 400
 * (so the refusal has the family's error body).
 */
function amountRefused(method: string, path: string, refused: (amount: number) => boolean): SandboxProxy {
  return variant({
    request: editRequest(
      (r) => r.method === method && r.path === path,
      (body) => {
        if (typeof body.amount === "number" && refused(body.amount)) body.amount = 0;
      },
    ),
  });
}

/** Charges of at least R$ 5,00 (500 centavos). */
const higherMinimumAmount = amountRefused("POST", "/v1/charges", (amount) => amount < 500);
/** PIX charges of at most R$ 100.000,00. */
const pixAmountCeiling = amountRefused("POST", "/pix", (amount) => amount > 100_000);

/** Lets any page call it: `*` for every origin, its preflights answered 200, nothing exposed, no Vary. */
const openCrossOrigin = variant({
  request: (request) => (request.method === "OPTIONS" && request.headers["access-control-request-method"] ? { ...request, headers: { ...request.headers, origin: "http://localhost:8080" } } : request),
  reply: (request, reply) => {
    if (request.headers.origin === undefined) return reply;
    const headers = Object.fromEntries(Object.entries(reply.headers).filter(([name]) => !name.startsWith("access-control-") && name !== "vary"));
    const preflight = request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined;
    return { ...reply, status: preflight ? 200 : reply.status, headers: { ...headers, "access-control-allow-origin": "*", ...(preflight ? { "access-control-allow-methods": "*", "access-control-allow-headers": "*" } : {}) } };
  },
});

interface Cut {
  proxy: SandboxProxy;
  family: FamilyId;
  classes: DerivedClass[];
  /** Run the family's 429 response checks too. */
  rateLimitChecks?: boolean;
  /** The generated data's seed, where a check must draw a value the faithful server refuses. */
  seed?: number;
}

/** `mustFail`: the full run stops once each of these checks has failed (all it is asked). */
function run(cut: Cut, profile: "seed" | "full", mustFail?: string[]): Promise<RunReport> {
  const checks = { "family-a": [], "family-b": [], ...(cut.rateLimitChecks ? { [cut.family]: FAMILY_CHECKS[cut.family].filter((c) => c.status === "429") } : {}) };
  return runAgainstSandbox(
    { proxy: cut.proxy, families: [cut.family], profile, checks, scenarios: [], derived: { classes: cut.classes, ...(cut.seed !== undefined ? { seed: cut.seed } : {}) }, exhaust: cut.classes.includes("rate-limits") || cut.rateLimitChecks, stopWhen: mustFail && untilFailed(mustFail) },
    cleanups,
  );
}

const ids = (report: RunReport) => failed(report).map((r) => r.id);

describe("seed passes faithful servers that chose otherwise where the document is silent; full fails them", () => {
  it("a server that does not rate-limit family A (D09)", { timeout: 120_000 }, async () => {
    const cut: Cut = { proxy: noFamilyALimits, family: "family-a", classes: ["rate-limits"], rateLimitChecks: true };
    const seed = await run(cut, "seed");
    expect(failures(seed), formatReport(seed)).toEqual([]);
    const limitsApply = seed.results.filter((r) => r.id.endsWith("/limits-apply"));
    expect(limitsApply.map((r) => r.id).sort()).toEqual(["createCharge", "getCharge", "getMerchant"].map((op) => `family-a/derived/rate-limits/${op}/limits-apply`));
    expect(limitsApply.every((r) => r.verdict === "not-applicable" && r.reasons.some((reason) => reason.includes("D09")))).toBe(true);
    const rateLimited = seed.results.filter((r) => r.covers.some((c) => c.status === "429") || r.id.includes("/429/"));
    expect(rateLimited.length).toBeGreaterThan(0);
    // The 429 checks still run (an exceeded limit is 429 by the document's word), and find no limit to use up.
    expect(rateLimited.filter((r) => r.verdict !== "not-applicable").map((r) => r.id), formatReport(seed)).toEqual([]);

    const limits = ["family-a/derived/rate-limits/createCharge/pix-limit-enforced", "family-a/derived/rate-limits/getMerchant/general-limit-enforced"];
    const full = await run(cut, "full", limits);
    expect(ids(full)).toEqual(expect.arrayContaining(limits));
  });

  it("a server that accepts a boleto cancel without reason (D18)", { timeout: 120_000 }, async () => {
    const cut: Cut = { proxy: cancelWithoutReason, family: "family-b", classes: ["negative-data"] };
    const seed = await run(cut, "seed");
    expect(failures(seed), formatReport(seed)).toEqual([]);
    const cancel = seed.results.filter((r) => r.id.startsWith("family-b/derived/negative-data/cancelBoleto/"));
    // The document's own rules are still enforced on the cancel: the type and the 200 characters.
    expect(cancel.filter((r) => r.verdict === "pass").map((r) => r.id)).toEqual(
      expect.arrayContaining(["wrong-type-reason", "over-maxLength-reason", "nothing-changed"].map((v) => `family-b/derived/negative-data/cancelBoleto/${v}`)),
    );
    expect(cancel.map((r) => r.id)).not.toContain("family-b/derived/negative-data/cancelBoleto/without-reason");

    const cancelChecks = ["family-b/derived/negative-data/cancelBoleto/without-reason", "family-b/derived/negative-data/cancelBoleto/nothing-changed"];
    const full = await run(cut, "full", cancelChecks);
    expect(ids(full)).toEqual(expect.arrayContaining(cancelChecks));
  });

  it("a server with a higher minimum charge amount (D03)", { timeout: 120_000 }, async () => {
    // Five generated bodies: a seed whose amounts include one under R$ 5,00 (a seed of the run's
    // own may draw none, and then full has nothing to fail on).
    const cut: Cut = { proxy: higherMinimumAmount, family: "family-a", classes: ["positive-data"], seed: 2 };
    const seed = await run(cut, "seed");
    expect(failures(seed), formatReport(seed)).toEqual([]);
    expect(seed.results.find((r) => r.id === "family-a/derived/positive-data/createCharge/generated-bodies")?.verdict).toBe("pass");

    const full = await run(cut, "full", ["family-a/derived/positive-data/createCharge/generated-bodies"]);
    expect(ids(full)).toContain("family-a/derived/positive-data/createCharge/generated-bodies");
  });

  it("a server that caps PIX charge amounts at 100,000 (D03)", { timeout: 120_000 }, async () => {
    const cut: Cut = { proxy: pixAmountCeiling, family: "family-b", classes: ["positive-data"], seed: 2 };
    const seed = await run(cut, "seed");
    expect(failures(seed), formatReport(seed)).toEqual([]);
    expect(seed.results.find((r) => r.id === "family-b/derived/positive-data/createPixCharge/generated-bodies")?.verdict).toBe("pass");

    const full = await run(cut, "full", ["family-b/derived/positive-data/createPixCharge/generated-bodies"]);
    expect(ids(full)).toContain("family-b/derived/positive-data/createPixCharge/generated-bodies");
  });
});

describe("seed passes a server with another cross-origin policy; full holds it to D44", () => {
  it("a server that lets every page call it with wildcards (D44)", { timeout: 120_000 }, async () => {
    const cut: Cut = { proxy: openCrossOrigin, family: "family-b", classes: ["cors"] };
    const seed = await run(cut, "seed");
    expect(failures(seed), formatReport(seed)).toEqual([]);
    expect(seed.results.map((r) => [r.id, r.verdict, r.decisions])).toEqual([["family-b/derived/cors/every-operation/cors", "not-applicable", ["D44"]]]);
    expect(seed.results[0]!.reasons[0]).toMatch(/--profile full/);

    const preflight = "family-b/derived/cors/getHealth/preflight-granted";
    const full = await run(cut, "full", [preflight]);
    expect(ids(full)).toContain(preflight);
  });
});

describe("the scenarios that move an account's clock, against a server without the sandbox's clock control", () => {
  it("are not applicable under full, never failed", { timeout: 60_000 }, async () => {
    const noClock = variant({ reply: (request, reply) => (request.path.startsWith("/_sandbox/clock") ? { status: 404, headers: { "content-type": "application/json" }, body: "{}" } : reply) });
    const ids = ["family-a/idempotency/key-kept-24-hours", "family-a/charges/expired-at-expires-at", "family-a/charges/paid-stays-paid"];
    const clockScenarios = SCENARIOS.filter((s) => ids.includes(s.id));
    const report = await runAgainstSandbox({ proxy: noClock, families: ["family-a"], profile: "full", checks: { "family-a": [], "family-b": [] }, scenarios: clockScenarios, derived: false }, cleanups);
    expect(report.results.map((r) => [r.id, r.verdict, r.reasons.some((reason) => reason.includes("has no control POST /_sandbox/clock/advance"))])).toEqual(clockScenarios.map((s) => [s.id, "not-applicable", true]));
  });
});
