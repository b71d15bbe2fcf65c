/**
 * The rules across exchanges, on exchanges written here (no server): each rule flags what
 * breaks it, names the statement the catalogue links to its check class, and leaves alone what
 * does not break it.
 */
import { describe, expect, it } from "vitest";
import { TrafficEngine, type Violation } from "../../src/traffic/engine.ts";
import { familyRoutes, routeByPath } from "../../src/traffic/routing.ts";
import type { TrafficExchange } from "../../src/traffic/exchange.ts";
import { classStatements } from "../../src/derived/index.ts";

const routes = familyRoutes({});
const KEY_A = "sk_live_first_account_key";
const KEY_A2 = "sk_live_first_account_second";
const KEY_B = "sk_live_second_account_key";
const BR_CODE = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";

function charge(id: string, amount: number, reference: string) {
  return {
    id,
    object: "charge",
    status: "pending",
    amount,
    currency: "BRL",
    method: "pix",
    reference,
    payer: null,
    payer_request: null,
    pix: { br_code: BR_CODE, txid: `tx${id}`, end_to_end_id: null },
    webhook_url: null,
    expires_at: "2026-11-26T10:00:00Z",
    paid_at: null,
    created_at: "2026-11-26T09:00:00Z",
  };
}

let clock = 1_700_000_000_000;
function exchange(method: string, path: string, key: string | undefined, status: number, body: unknown, extra: { request?: unknown; headers?: Record<string, string>; responseHeaders?: Record<string, string> } = {}): TrafficExchange {
  clock += 10;
  return {
    id: 0,
    startedAt: clock,
    endedAt: clock + 5,
    method,
    url: `http://api.test${path}`,
    requestHeaders: { ...(key ? { "x-api-key": key } : {}), ...(extra.request ? { "content-type": "application/json" } : {}), ...(extra.headers ?? {}) },
    requestBody: extra.request === undefined ? undefined : JSON.stringify(extra.request),
    status,
    responseHeaders: { "content-type": "application/json", ...(extra.responseHeaders ?? {}) },
    responseBody: JSON.stringify(body),
  };
}

function run(exchanges: TrafficExchange[], accounts?: Map<string, string>): Violation[] {
  const engine = new TrafficEngine({ profile: "seed", routes, accounts });
  exchanges.forEach((e, i) => engine.observe({ ...e, id: i + 1 }, routeByPath(routes, e.method, new URL(e.url).pathname)));
  return engine.summary().violations;
}

const create = (key: string, idempotencyKey: string, id: string, amount = 1500) =>
  exchange("POST", "/v1/charges", key, 201, charge(id, amount, "order-1"), { request: { amount, method: "pix", reference: "order-1" }, headers: { "idempotency-key": idempotencyKey } });

describe("rules across exchanges", () => {
  it("idempotency: a replay with the same key and payload returning another record is flagged; other payloads and other API keys are not", () => {
    expect(run([create(KEY_A, "idem-00001", "ch_1"), create(KEY_A, "idem-00001", "ch_1"), create(KEY_B, "idem-00001", "ch_9")])).toEqual([]);
    // Another payload under a used key: what the server does is not this rule's (the document does not show it).
    expect(run([create(KEY_A, "idem-00009", "ch_1", 1500), create(KEY_A, "idem-00009", "ch_3", 2000)])).toEqual([]);
    const violations = run([create(KEY_A, "idem-00002", "ch_1"), create(KEY_A, "idem-00002", "ch_2")]);
    expect(violations).toMatchObject([{ rule: "idempotency", exchangeId: 2, operationId: "createCharge", naming: { kind: "statement" } }]);
    expect(classStatements("idempotency-key-space", "family-a")).toContain(violations[0]!.naming.id);
    expect(violations[0]!.expected).toContain("ch_1");
    expect(violations[0]!.seen).toContain("ch_2");
  });

  it("idempotency: past D08's 24 hours on the account's clock (the sandbox's clock control), the same key may create anew", () => {
    const advance = (key: string, seconds: number) => exchange("POST", "/_sandbox/clock/advance", key, 200, { seconds }, { request: { seconds } });
    const day = 24 * 60 * 60;
    expect(run([create(KEY_A, "idem-00003", "ch_1"), advance(KEY_A, day), create(KEY_A, "idem-00003", "ch_2")])).toEqual([]);
    // Short of the 24 hours, or on another account's clock, it is still a replay.
    expect(run([create(KEY_A, "idem-00004", "ch_1"), advance(KEY_A, day - 60), create(KEY_A, "idem-00004", "ch_2")])).toMatchObject([{ rule: "idempotency", exchangeId: 3 }]);
    expect(run([create(KEY_A, "idem-00005", "ch_1"), advance(KEY_B, day), create(KEY_A, "idem-00005", "ch_2")])).toMatchObject([{ rule: "idempotency", exchangeId: 3 }]);
  });

  it("idempotency: a key never seen returning a record another key made is flagged, as is another API key's record under the same key", () => {
    const newKey = run([create(KEY_A, "idem-00010", "ch_1"), create(KEY_A, "idem-00011", "ch_1")]);
    expect(newKey).toMatchObject([{ rule: "idempotency", exchangeId: 2, naming: { id: "A-IDEM-RULE-new-key" } }]);
    const shared = run([create(KEY_A, "idem-00012", "ch_1"), create(KEY_B, "idem-00012", "ch_1")]);
    expect(shared).toMatchObject([{ rule: "idempotency", exchangeId: 2, naming: { id: "A-IDEM-RULE-scoped-per-key" } }]);
  });

  it("a refusal with the code a statement gives for a broken header, although the header is well formed, is flagged", () => {
    const refused = exchange("POST", "/v1/charges", KEY_A, 400, { code: "IDEMPOTENCY_KEY_REQUIRED", message: "x" }, { request: { amount: 1500, method: "pix" }, headers: { "idempotency-key": "abcdefgh" } });
    expect(run([refused])).toMatchObject([{ exchangeId: 1, naming: { id: "A-ERRORS-ERROR-idempotency-key-required" }, seen: "400 IDEMPOTENCY_KEY_REQUIRED" }]);
    const short = { ...refused, requestHeaders: { ...refused.requestHeaders, "idempotency-key": "abcdefg" } };
    expect(run([short])).toEqual([]);
  });

  it("a header's length counts the characters the client wrote in UTF-8 (D45), not the Latin-1 bytes Node reads", () => {
    // Seven characters, four of them outside the BMP: 19 bytes on the wire, as Node's Latin-1 reading records them.
    const written = Buffer.from("abc\u{10000}\u{10FFFF}\u{1F600}\u{1F601}", "utf8").toString("latin1");
    const refused = exchange("POST", "/v1/charges", KEY_A, 400, { code: "IDEMPOTENCY_KEY_REQUIRED", message: "x" }, { request: { amount: 1500, method: "pix" }, headers: { "idempotency-key": written } });
    expect(run([refused])).toEqual([]);
  });

  it("the code a statement gives for a broken header is owed only for what the document says of it: an over-long Idempotency-Key (D08) gets VALIDATION_ERROR", () => {
    const tooLong = exchange("POST", "/v1/charges", KEY_A, 400, { code: "VALIDATION_ERROR", message: "x" }, { request: { amount: 1500, method: "pix" }, headers: { "idempotency-key": "k".repeat(256) } });
    expect(run([tooLong])).toEqual([]);
    // Under 8 characters it is the document's word: IDEMPOTENCY_KEY_REQUIRED, not another code.
    const tooShort = { ...tooLong, requestHeaders: { ...tooLong.requestHeaders, "idempotency-key": "k".repeat(7) } };
    expect(run([tooShort])).toMatchObject([{ naming: { id: "A-ERRORS-ERROR-idempotency-key-required" } }]);
  });

  it("tenant isolation: a record created with one account's key read with another account's key is flagged, with the accounts known", () => {
    const accounts = new Map([
      [KEY_A, "first"],
      [KEY_A2, "first"],
      [KEY_B, "second"],
    ]);
    const read = (key: string) => exchange("GET", "/v1/charges/ch_7", key, 200, charge("ch_7", 1500, "order-1"));
    expect(run([create(KEY_A, "idem-00003", "ch_7"), read(KEY_A2)], accounts)).toEqual([]);
    expect(run([create(KEY_A, "idem-00004", "ch_7"), read(KEY_B)], accounts)).toMatchObject([{ rule: "tenant-isolation", exchangeId: 2 }]);
    // Without accounts, keys alone say nothing: not judged.
    expect(run([create(KEY_A, "idem-00005", "ch_7"), read(KEY_B)])).toEqual([]);
  });

  it("created then read: a read showing another value than the record was created with is flagged", () => {
    const violations = run([create(KEY_A, "idem-00006", "ch_8", 1500), exchange("GET", "/v1/charges/ch_8", KEY_A, 200, charge("ch_8", 2500, "order-1"))]);
    expect(violations).toMatchObject([{ rule: "created-then-read", exchangeId: 2, seen: "2500" }]);
    expect(violations[0]!.expected).toContain("amount as created or last updated: 1500");
  });

  it("a refused change leaves the record as the last read showed it; a change that succeeded shows in the next read (under seed where the document states the transition)", () => {
    const boleto = (status: string) => ({ success: true, data: { transactionId: "b1", status, amount: 10 }, timestamp: "2026-11-26T10:00:00Z" });
    const read = (status: string) => exchange("GET", "/sdk/boleto/b1", "pk_test_key_b", 200, boleto(status));
    const cancel = (status: number, body: unknown) => exchange("DELETE", "/api/v1/sdk/boleto/b1/cancel", "pk_test_key_b", status, body, { request: { reason: "duplicated" } });
    const refusal = { version: "1.0.0", status: "ERROR", error: { errorCode: "ODE002", message: "only REGISTERED" } };
    const changes = (exchanges: TrafficExchange[], profile: "seed" | "full" = "seed") => {
      const engine = new TrafficEngine({ profile, routes });
      exchanges.forEach((e, i) => engine.observe({ ...e, id: i + 1, requestHeaders: { ...e.requestHeaders, "x-api-key": "pk_test_key_b" } }, routeByPath(routes, e.method, new URL(e.url).pathname)));
      return engine.summary().violations.filter((v) => v.rule === "created-then-read");
    };
    expect(changes([read("CONFIRMED"), cancel(409, refusal), read("CANCELED")])).toMatchObject([{ exchangeId: 3, naming: { id: "B-BOLETO-TRANSITION-cancel-refused" } }]);
    expect(changes([read("CONFIRMED"), cancel(409, refusal), read("CONFIRMED")])).toEqual([]);
    const canceled = { success: true, data: { transactionId: "b1", status: "CANCELED" } };
    expect(changes([read("REGISTERED"), cancel(200, canceled), read("REGISTERED")], "full")).toMatchObject([{ exchangeId: 3, seen: "the record as before" }]);
    // Under seed too where the document states the transition (REGISTERED -> CANCELED).
    expect(changes([read("REGISTERED"), cancel(200, canceled), read("REGISTERED")], "seed")).toMatchObject([{ exchangeId: 3, naming: { id: "B-BOLETO-TRANSITION-cancel" } }]);
    expect(changes([read("REGISTERED"), cancel(200, canceled), read("CANCELED")], "full")).toEqual([]);
  });

  it("rate-limit window: Remaining not falling between exchanges that followed one another, or a Reset in the past, is flagged", () => {
    const reset = String(Math.floor(clock / 1000) + 60);
    const health = (remaining: number, resetAt = reset) =>
      exchange("GET", "/sdk/status/health", "pk_test_key_b", 200, { success: true, data: { status: "ok", timestamp: "2026-11-26T10:00:00Z", version: "v1" } }, { responseHeaders: { "x-ratelimit-limit": "100", "x-ratelimit-remaining": String(remaining), "x-ratelimit-reset": resetAt } });
    const withKeyB = (e: TrafficExchange) => ({ ...e, requestHeaders: { "x-api-key": "pk_test_key_b" } });
    expect(run([health(99), health(98), health(97)].map(withKeyB))).toEqual([]);
    expect(run([health(99), health(95), health(97)].map(withKeyB))).toMatchObject([{ rule: "rate-limit-window", exchangeId: 3, naming: { id: "B-LIMITS-HEADER-rate-limit" } }]);
    // Frozen: every request counts, so the same Remaining twice in a row is wrong.
    expect(run([health(99), health(99)].map(withKeyB))).toMatchObject([{ rule: "rate-limit-window", exchangeId: 2 }]);
    // Concurrent exchanges (the second started before the first ended) are not ordered.
    const [first, second] = [health(99), health(99)].map(withKeyB);
    expect(run([first!, { ...second!, startedAt: first!.startedAt + 1 }])).toEqual([]);
    expect(run([health(99, "1000")].map(withKeyB))).toMatchObject([{ rule: "rate-limit-window", seen: "1000" }]);
    // A 429 telling to come back now while the window renews in a minute.
    const limited = (retryAfter: string) => ({ ...withKeyB(health(0)), status: 429, responseHeaders: { ...health(0).responseHeaders, "retry-after": retryAfter } });
    expect(run([limited("0")])).toMatchObject([{ rule: "rate-limit-window", naming: { id: "B-LIMITS-HEADER-retry-after" }, seen: "0" }]);
    expect(run([limited("60")])).toEqual([]);
  });

  it("authentication: a request without the key answered with a success is flagged", () => {
    expect(run([exchange("GET", "/v1/merchant", undefined, 200, { id: "m_1", object: "merchant" })])).toMatchObject([{ rule: "authentication", status: 200 }]);
  });
});
