/**
 * Retry behaviour against a scripted loopback server: the schedule honours Retry-After (then
 * X-RateLimit-Reset), attempts are bounded, a POST is repeated only when it carries an
 * idempotency key (and then with the same key), network errors follow the same rule.
 * Waits go through an injected sleep and clock: nothing really waits, nothing is timed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFamilyAClient, createFamilyBClient, NetworkError, UnexpectedResponseError, type RetryEvent, type RetryOptions } from "../src/index.ts";
import { startScriptedServer, type ScriptedServer } from "./support/scripted-server.ts";

const API_KEY = "sk_live_retry_test_0001";
const NOW = 1_800_000_000_000; // fixed clock, ms
let server: ScriptedServer;

beforeAll(async () => {
  server = await startScriptedServer({ status: 200, body: { ok: true } });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

/** Retry options with a recording sleep and a fixed clock. */
function recorded(extra: RetryOptions = {}) {
  const waits: number[] = [];
  const events: RetryEvent[] = [];
  const retry: RetryOptions = {
    sleep: async (ms) => {
      waits.push(ms);
    },
    now: () => NOW,
    random: () => 0.5,
    onRetry: (event) => events.push(event),
    ...extra,
  };
  return { waits, events, retry };
}

const charge = { amount: 1990, method: "pix" as const };
const problem = (status: number, code: string) => ({ type: "about:blank", title: code, status, code });

describe("retry schedule", () => {
  it("waits at least Retry-After seconds after a 429, then succeeds", async () => {
    const { waits, events, retry } = recorded();
    const client = createFamilyAClient({ baseUrl: server.url, apiKey: API_KEY, retry });
    server.script({ status: 429, headers: { "Retry-After": "7" }, body: problem(429, "RATE_LIMITED") });
    const result = await client.GET("/v1/merchant");
    expect(result.response.status).toBe(200);
    expect(server.received).toHaveLength(2);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(7_000);
    expect(events[0]).toMatchObject({ attempt: 1, status: 429, source: "retry-after" });
  });

  it("accepts Retry-After as an HTTP date", async () => {
    const { waits, retry } = recorded();
    const client = createFamilyAClient({ baseUrl: server.url, apiKey: API_KEY, retry });
    server.script({ status: 503, headers: { "Retry-After": new Date(NOW + 4_000).toUTCString() } });
    await client.GET("/v1/merchant");
    expect(waits[0]).toBeGreaterThanOrEqual(4_000);
  });

  it("falls back to X-RateLimit-Reset when there is no Retry-After", async () => {
    const { waits, events, retry } = recorded();
    const client = createFamilyAClient({ baseUrl: server.url, apiKey: API_KEY, retry });
    const reset = NOW / 1000 + 12;
    server.script({ status: 429, headers: { "X-RateLimit-Reset": String(reset), "X-RateLimit-Remaining": "0" } });
    await client.GET("/v1/merchant");
    expect(waits[0]).toBeGreaterThanOrEqual(12_000);
    expect(events[0]?.source).toBe("rate-limit-reset");
  });

  it("uses capped exponential backoff with jitter when the response gives no hint", async () => {
    const { waits, retry } = recorded({ maxAttempts: 6, baseDelayMs: 100, maxDelayMs: 1_000, random: () => 0.5 });
    const client = createFamilyAClient({ baseUrl: server.url, apiKey: API_KEY, retry });
    server.script(...Array.from({ length: 5 }, () => ({ status: 503 })));
    await client.GET("/v1/merchant");
    // full jitter: random x min(cap, base x 2^(n-1)) = 0.5 x 100, 200, 400, 800, 1000 (capped)
    expect(waits).toEqual([50, 100, 200, 400, 500]);
  });

  it("bounds the attempts: a 503 that never ends gives up after maxAttempts and returns the last response", async () => {
    const { waits, retry } = recorded({ maxAttempts: 4 });
    server.script(...Array.from({ length: 10 }, () => ({ status: 503, body: { message: "maintenance" } })));
    const client = createFamilyAClient({ baseUrl: server.url, apiKey: API_KEY, retry });
    const error = await client.unwrap(client.GET("/v1/merchant")).catch((caught: unknown) => caught);
    expect(server.received).toHaveLength(4);
    expect(waits).toHaveLength(3);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).status).toBe(503);
  });

  it("does not wait longer than maxRetryAfterMs: the 429 goes back to the caller with its rate-limit info", async () => {
    const { waits, retry } = recorded({ maxRetryAfterMs: 30_000 });
    server.script({ status: 429, headers: { "Retry-After": "3600", "X-RateLimit-Limit": "100", "X-RateLimit-Remaining": "0" }, body: problem(429, "RATE_LIMITED") });
    const client = createFamilyAClient({ baseUrl: server.url, apiKey: API_KEY, retry });
    const result = await client.GET("/v1/merchant");
    expect(result.response.status).toBe(429);
    expect(result.error?.code).toBe("RATE_LIMITED");
    expect(waits).toHaveLength(0);
    expect(client.rateLimit).toEqual({ limit: 100, remaining: 0, retryAfter: 3600 });
  });

  it("does not retry other statuses (500, 400)", async () => {
    const { waits, retry } = recorded();
    const client = createFamilyAClient({ baseUrl: server.url, apiKey: API_KEY, retry });
    server.script({ status: 500 });
    expect((await client.GET("/v1/merchant")).response.status).toBe(500);
    expect(server.received).toHaveLength(1);
    expect(waits).toHaveLength(0);
  });
});

describe("idempotency keys across retries", () => {
  it("POST /v1/charges: generates an Idempotency-Key of at least 8 characters and repeats the same key and body on every retry", async () => {
    const { retry } = recorded();
    const client = createFamilyAClient({ baseUrl: server.url, apiKey: API_KEY, retry });
    server.script({ status: 503 }, { status: 429, headers: { "Retry-After": "1" } }, { status: 201, body: { id: "ch_1" } });
    const result = await client.POST("/v1/charges", { body: charge });
    expect(result.response.status).toBe(201);
    expect(server.received).toHaveLength(3);
    const keys = server.received.map((request) => request.headers["idempotency-key"]);
    expect(keys[0]).toBeTypeOf("string");
    expect((keys[0] as string).length).toBeGreaterThanOrEqual(8);
    expect(new Set(keys).size).toBe(1);
    expect(new Set(server.received.map((request) => request.body)).size).toBe(1);
    expect(JSON.parse(server.received[0]!.body)).toEqual(charge);
  });

  it("keeps the caller's own key on every retry, and a new call gets a new generated key", async () => {
    const { retry } = recorded();
    const client = createFamilyAClient({ baseUrl: server.url, apiKey: API_KEY, retry });
    server.script({ status: 503 }, { status: 201, body: {} });
    await client.POST("/v1/charges", { body: charge, params: { header: { "Idempotency-Key": "order-2026-0001" } } });
    expect(server.received.map((request) => request.headers["idempotency-key"])).toEqual(["order-2026-0001", "order-2026-0001"]);
    server.reset();
    await client.POST("/v1/charges", { body: charge });
    await client.POST("/v1/charges", { body: charge });
    const [first, second] = server.received.map((request) => request.headers["idempotency-key"]);
    expect(first).not.toBe(second);
  });

  it("family B: X-Idempotency-Key on POST /pix, /pix/payment and /transactions, the same key on each retry", async () => {
    const { retry } = recorded();
    const familyB = createFamilyBClient({ environment: server.url, apiKey: API_KEY, retry });
    server.script({ status: 503 }, { status: 201, body: {} });
    await familyB.POST("/pix", { body: { amount: 10.5 } });
    server.script({ status: 503 }, { status: 201, body: {} });
    await familyB.POST("/pix/payment", { body: { endToEndId: "E18236120202611211435Qz7Lm2Np4Rs", amount: 1 } });
    server.script({ status: 503 }, { status: 201, body: {} });
    await familyB.POST("/transactions", { body: { amount: 1 } });
    expect(server.received).toHaveLength(6);
    const keys = server.received.map((request) => request.headers["x-idempotency-key"] as string);
    for (const key of keys) expect(key.length).toBeGreaterThanOrEqual(8);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).toBe(keys[3]);
    expect(keys[4]).toBe(keys[5]);
    expect(new Set(keys).size).toBe(3);
  });

  it("refuses a caller's key shorter than the contract's minimum without sending anything", async () => {
    const client = createFamilyAClient({ baseUrl: server.url, apiKey: API_KEY });
    await expect(client.POST("/v1/charges", { body: charge, params: { header: { "Idempotency-Key": "short" } } })).rejects.toMatchObject({
      name: "IdempotencyKeyError",
      header: "Idempotency-Key",
      minLength: 8,
    });
    expect(server.received).toHaveLength(0);
  });
});

describe("no retry without an idempotency key", () => {
  it("POST /api/v1/sdk/customers (no key in the contract) is sent once on 503 and on 429", async () => {
    const { waits, retry } = recorded();
    const familyB = createFamilyBClient({ environment: server.url, apiKey: API_KEY, retry });
    server.script({ status: 503 });
    const body = {
      name: "Maria da Silva Santos",
      email: "maria@example.com.br",
      documentNumber: "12345678909",
      phoneNumber: "+5511987654321",
      address: { postalCode: "01310100", street: "Avenida Paulista", number: "1578", neighborhood: "Bela Vista", city: "São Paulo", state: "SP" },
    };
    expect((await familyB.POST("/api/v1/sdk/customers", { body })).response.status).toBe(503);
    server.script({ status: 429, headers: { "Retry-After": "1" } });
    expect((await familyB.POST("/pix/query", { body: { key: "joao@example.com.br" } })).response.status).toBe(429);
    expect(server.received).toHaveLength(2);
    expect(server.received.every((request) => request.headers["x-idempotency-key"] === undefined)).toBe(true);
    expect(waits).toHaveLength(0);
  });
});

describe("network errors", () => {
  it("retries a GET whose connection dropped", async () => {
    const { waits, events, retry } = recorded();
    const familyB = createFamilyBClient({ environment: server.url, apiKey: API_KEY, retry });
    server.script("drop", { status: 200, body: { success: true, data: { status: "ok" } } });
    const result = await familyB.GET("/sdk/status/health");
    expect(result.response.status).toBe(200);
    expect(server.received).toHaveLength(2);
    expect(waits).toHaveLength(1);
    expect(events[0]?.source).toBe("backoff");
    expect(events[0]?.status).toBeUndefined();
  });

  it("retries a keyed POST with the same key, and gives up with NetworkError after maxAttempts", async () => {
    const { retry } = recorded({ maxAttempts: 3 });
    const familyB = createFamilyBClient({ environment: server.url, apiKey: API_KEY, retry });
    server.script("drop", "drop", "drop");
    const error = await familyB.POST("/transactions", { body: { amount: 5 } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).attempts).toBe(3);
    // fetch's own message says only that it failed; the reason is its cause's.
    expect((error as NetworkError).message).toMatch(/^Request failed after 3 attempt\(s\): fetch failed \(.+\)$/);
    expect(server.received).toHaveLength(3);
    expect(new Set(server.received.map((request) => request.headers["x-idempotency-key"])).size).toBe(1);
  });

  it("does not retry an unkeyed POST after a network error", async () => {
    const { retry } = recorded();
    const familyB = createFamilyBClient({ environment: server.url, apiKey: API_KEY, retry });
    server.script("drop");
    const error = await familyB.POST("/pix/query", { body: { key: "joao@example.com.br" } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).attempts).toBe(1);
    expect(server.received).toHaveLength(1);
  });

  it("stops waiting when the caller aborts", async () => {
    const controller = new AbortController();
    const familyB = createFamilyBClient({
      environment: server.url,
      apiKey: API_KEY,
      retry: { sleep: async () => controller.abort(new Error("caller gave up")) },
    });
    server.script({ status: 503 }, { status: 200, body: {} });
    await expect(familyB.GET("/sdk/status/health", { signal: controller.signal })).rejects.toThrow();
    expect(server.received).toHaveLength(1);
  });
});
