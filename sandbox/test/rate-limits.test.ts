/**
 * Rate limits on the sandbox (Limits table, D09, D27): headers on every response, consistent
 * (Limit constant, Remaining one lower per request and never negative, Reset an integer Unix
 * time within the window), 429 with Retry-After consistent with Reset, per-resource limits
 * enforced separately from the general one, accounts independent, windows renewed by the base
 * (real) clock and never by an account's clock control. The base clock is frozen (and moved by
 * hand) so that no window boundary falls inside a test.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { expectAllConformant, startTestSandbox, type ApiResponse, type TestSandbox } from "./support.ts";

const FROZEN = new Date("2026-11-21T14:30:10.250Z");
const WINDOW_END = Date.parse("2026-11-21T14:31:00Z") / 1000;

function limits(res: ApiResponse) {
  return {
    limit: Number(res.headers.get("x-ratelimit-limit")),
    remaining: Number(res.headers.get("x-ratelimit-remaining")),
    reset: Number(res.headers.get("x-ratelimit-reset")),
    retryAfter: res.headers.get("retry-after"),
  };
}

describe("the default plan", () => {
  let t: TestSandbox;
  let baseMs = FROZEN.getTime();
  beforeAll(async () => {
    t = await startTestSandbox({ plan: "default", now: () => new Date(baseMs) });
  });
  afterAll(async () => {
    await t.close();
  });
  afterEach(() => expectAllConformant(t));

  it("puts consistent headers on every response and answers 429 after 100 requests", async () => {
    const client = t.client(t.sandbox.keys.familyB.rateLimits);
    const seen: ReturnType<typeof limits>[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await client.get(i % 2 === 0 ? "/sdk/status/health" : "/api/v1/sdk/customers/unknown");
      expect(res.status).toBeLessThan(429);
      seen.push(limits(res));
    }
    seen.forEach((s, i) => {
      expect(s.limit).toBe(100);
      expect(s.remaining).toBe(99 - i);
      expect(s.reset).toBe(WINDOW_END);
      expect(Number.isInteger(s.reset)).toBe(true);
      expect(s.retryAfter).toBeNull();
    });
    const refused = await client.get("/sdk/status/health");
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ success: false, error: { code: "RATE_LIMITED" } });
    const after = limits(refused);
    expect(after).toMatchObject({ limit: 100, remaining: 0, reset: WINDOW_END });
    expect(Number(after.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(after.retryAfter)).toBe(WINDOW_END - Math.floor(FROZEN.getTime() / 1000));
    // The same account's family A requests count in family A's own window (D09).
    const familyA = await t.a.get("/v1/merchant", { key: t.sandbox.keys.familyA.rateLimits });
    expect(familyA.status).toBe(200);
    expect(limits(familyA)).toMatchObject({ limit: 100, remaining: 99, reset: WINDOW_END });
    // Another account is not affected.
    expect((await t.b.get("/sdk/status/health")).status).toBe(200);
  });

  it("renews the window when the base clock reaches Reset, not when the account's clock does", async () => {
    const client = t.client(t.sandbox.keys.familyB.rateLimits);
    expect((await client.get("/sdk/status/health")).status).toBe(429);
    // The clock control counts too, so a spent account cannot even advance its clock.
    expect((await client.post("/_sandbox/clock/advance", { seconds: 50 })).status).toBe(429);
    baseMs += 50_000;
    const res = await client.get("/sdk/status/health");
    expect(res.status).toBe(200);
    expect(limits(res)).toMatchObject({ limit: 100, remaining: 99, reset: WINDOW_END + 60 });
    baseMs = FROZEN.getTime();
  });

  it("limits PIX creations to 30 per minute across POST /pix and POST /pix/payment, and family A's POST /v1/charges to 30 of its own", async () => {
    const b = t.client(t.sandbox.keys.familyB.primary);
    const baseline = limits(await b.get("/sdk/status/health"));
    for (let i = 0; i < 30; i++) {
      const res = await b.post("/pix", { amount: 1 });
      expect(res.status).toBe(201);
      expect(limits(res)).toMatchObject({ limit: 30, remaining: 29 - i });
    }
    const refused = await b.post("/pix", { amount: 1 });
    expect(refused.status).toBe(429);
    expect(limits(refused)).toMatchObject({ limit: 30, remaining: 0 });
    expect((await b.post("/pix/payment", { amount: 1 })).status).toBe(429);
    // The general limit is separate: other requests still pass. It counted the 30 creations
    // and this request; the refused ones consumed nothing.
    const health = await b.get("/sdk/status/health");
    expect(health.status).toBe(200);
    expect(limits(health)).toMatchObject({ limit: 100, remaining: baseline.remaining - 31 });
    // Family A's charges, on the same account, count against family A's own PIX limit (D09).
    const a = (i: number) => t.a.post("/v1/charges", { amount: 100, method: "pix" }, { headers: { "Idempotency-Key": `rate-limit-${String(i).padStart(4, "0")}` } });
    for (let i = 0; i < 30; i++) {
      const res = await a(i);
      expect(res.status).toBe(201);
      expect(limits(res)).toMatchObject({ limit: 30, remaining: 29 - i });
    }
    expect((await a(30)).status).toBe(429);
  });

  it("limits transaction creations to 50 per minute", async () => {
    const b = t.client(t.sandbox.keys.familyB.secondAccount);
    for (let i = 0; i < 50; i++) expect((await b.post("/transactions", { amount: 1 })).status).toBe(201);
    const refused = await b.post("/transactions", { amount: 1 });
    expect(refused.status).toBe(429);
    expect(limits(refused).limit).toBe(50);
    expect((await b.post("/pix", { amount: 1 })).status).toBe(201);
  });

  it("puts the headers on 401 responses too, and on the controls, which count against the account", async () => {
    const anonymous = await t.b.get("/sdk/status/health", { key: null });
    expect(anonymous.status).toBe(401);
    expect(limits(anonymous).limit).toBe(100);
    const before = limits(await t.b.get("/sdk/status/health"));
    const control = await t.b.get("/_sandbox/clock");
    expect(control.status).toBe(200);
    expect(limits(control)).toMatchObject({ limit: 100, remaining: before.remaining - 1 });
  });
});

describe("a custom plan", () => {
  let t: TestSandbox;
  beforeAll(async () => {
    t = await startTestSandbox({
      plan: { windowSeconds: 60, general: 20, pixCreations: 3, transactionCreations: 4, queries: 5 },
      now: () => FROZEN,
    });
  });
  afterAll(async () => {
    await t.close();
  });
  afterEach(() => expectAllConformant(t));

  it("enforces the queries limit separately and reports the limit closest to exhaustion", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await t.b.get("/transactions");
      expect(res.status).toBe(200);
      expect(limits(res)).toMatchObject({ limit: 5, remaining: 4 - i });
    }
    const refused = await t.b.get("/transactions");
    expect(refused.status).toBe(429);
    expect(limits(refused)).toMatchObject({ limit: 5, remaining: 0 });
    const health = await t.b.get("/sdk/status/health");
    expect(health.status).toBe(200);
    expect(limits(health)).toMatchObject({ limit: 20, remaining: 14 });
  });

  it("admits exactly the limit under concurrency, never a negative Remaining", async () => {
    const client = t.client(t.sandbox.keys.familyB.secondAccount);
    const responses = await Promise.all(Array.from({ length: 40 }, () => client.get("/sdk/status/health")));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(20);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(20);
    const remaining = responses.filter((r) => r.status === 200).map((r) => limits(r).remaining).sort((x, y) => x - y);
    expect(remaining).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});

describe("the short-windows plan (npm start)", () => {
  let t: TestSandbox;
  beforeAll(async () => {
    t = await startTestSandbox({ plan: "short-windows", now: () => FROZEN });
  });
  afterAll(async () => {
    await t.close();
  });
  afterEach(() => expectAllConformant(t));

  it("keeps the published figures and renews every 5 seconds: a 429 waits seconds, not a minute", async () => {
    const client = t.client(t.sandbox.keys.familyB.rateLimits);
    const first = await client.get("/sdk/status/health");
    // 14:30:10.250 lies in the window 14:30:10-14:30:15.
    expect(limits(first)).toMatchObject({ limit: 100, remaining: 99, reset: Date.parse("2026-11-21T14:30:15Z") / 1000 });
    for (let i = 1; i < 100; i++) expect((await client.get("/sdk/status/health")).status).toBe(200);
    const refused = await client.get("/sdk/status/health");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(5);
  });
});
