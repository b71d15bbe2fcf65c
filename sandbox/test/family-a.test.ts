/**
 * Family A on the sandbox, where the conformance self-test does not reach: keys of another
 * kind or family, the merchant of each account, the BR Code and fields of a charge, the
 * Idempotency-Key length bound (D08) and refused requests storing nothing, the payment
 * control and expiry on the account's clock. The wire rules the conformance suites check
 * (401s, scopes, 201/404, replay, mismatch, per-key scope, tenant isolation) are tested there.
 * Every response is checked against the contract.
 */
import { parsePix } from "pix-utils";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { expectAllConformant, freshKey, startTestSandbox, type TestSandbox } from "./support.ts";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => expectAllConformant(t));

/** POST /v1/charges with a fresh Idempotency-Key (null: without the header). */
const charge = (body: unknown, key: string | null = freshKey(), apiKey?: string) =>
  t.a.post("/v1/charges", body, { headers: key === null ? {} : { "Idempotency-Key": key }, key: apiKey });

describe("authentication", () => {
  it("refuses an unknown key, a live key and a family B key", async () => {
    for (const key of ["sk_test_doesnotexist000000000000000000", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", t.sandbox.keys.familyB.primary]) {
      const res = await t.a.get("/v1/merchant", { key });
      expect(res.status, key).toBe(401);
      expect(res.json.code).toBe("UNAUTHORIZED");
    }
  });
});

describe("merchant", () => {
  it("shows each account its own merchant", async () => {
    const first = await t.a.get("/v1/merchant");
    const second = await t.a.get("/v1/merchant", { key: t.sandbox.keys.familyA.secondAccount });
    expect(second.json.id).not.toBe(first.json.id);
  });
});

describe("charges", () => {
  it("gives a dynamic BR Code that pix-utils parses, and a txid of the BCB shape", async () => {
    const { json } = await charge({ amount: 990, method: "pix", reference: "pedido-1", webhook_url: "https://loja.example.com.br/hook", expires_in: 600 });
    const parsed = parsePix(json.pix.br_code) as { type?: string; url?: string };
    expect(parsed.type).toBe("DYNAMIC");
    expect(parsed.url).toContain(json.pix.txid);
    expect(json.pix.txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
    expect(json).toMatchObject({ reference: "pedido-1", webhook_url: "https://loja.example.com.br/hook" });
    expect(Date.parse(json.expires_at) - Date.parse(json.created_at)).toBe(600_000);
  });

  it("echoes a payer as payer_request", async () => {
    const payer = { name: "Maria da Silva Santos", document: "52998224725" };
    const { status, json } = await charge({ amount: 100, method: "pix", payer });
    expect(status).toBe(201);
    expect(json.payer_request).toEqual(payer);
  });

  it("refuses invalid bodies with 400 VALIDATION_ERROR", async () => {
    const invalid = [
      { method: "pix" },
      { amount: 0, method: "pix" },
      { amount: 1000000000000, method: "pix" },
      { amount: "100", method: "pix" },
      { amount: 10.5, method: "pix" },
      { amount: 100, method: "boleto" },
      { amount: 100, method: "pix", webhook_url: "ftp://example.com" },
      { amount: 100, method: "pix", expires_in: 59 },
      { amount: 100, method: "pix", reference: "x".repeat(256) },
      { amount: 100, method: "pix", payer: { name: "X", document: "12345678900" } },
      [],
      "pix",
    ];
    for (const body of invalid) {
      const res = await charge(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.code).toBe("VALIDATION_ERROR");
    }
  });

  it("tells a wrong method with 405 and Allow, and an unknown path with 404, in problem details", async () => {
    const wrong = await t.a.request("DELETE", "/v1/charges/ch_1");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET");
    expect(wrong.json).toMatchObject({ status: 405, code: "METHOD_NOT_ALLOWED" });
    const unknown = await t.a.get("/v1/refunds");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toBe("application/problem+json");
  });
});

describe("idempotency", () => {
  it("accepts keys of 255 characters and refuses longer ones with VALIDATION_ERROR (D08)", async () => {
    const long = freshKey().padEnd(255, "k");
    expect((await charge({ amount: 100, method: "pix" }, long)).status).toBe(201);
    const tooLong = await charge({ amount: 100, method: "pix" }, `${long}k`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.code).toBe("VALIDATION_ERROR");
  });

  it("stores nothing for a refused request: the key stays usable", async () => {
    const key = freshKey();
    expect((await charge({ amount: -1, method: "pix" }, key)).status).toBe(400);
    const created = await charge({ amount: 100, method: "pix" }, key);
    expect(created.status).toBe(201);
    expect(created.headers.get("idempotent-replayed")).toBeNull();
  });
});

describe("payment control and expiry", () => {
  it("pays a pending charge: paid, paid_at and an EndToEndId; a second payment is refused", async () => {
    const created = await charge({ amount: 100, method: "pix" });
    const paid = await t.a.post(`/_sandbox/charges/${created.json.id}/pay`);
    expect(paid.status).toBe(200);
    expect(paid.json.status).toBe("paid");
    expect(paid.json.paid_at).not.toBeNull();
    expect(paid.json.pix.end_to_end_id).toMatch(/^E[0-9A-Z]{8}\d{12}[A-Za-z0-9]{11}$/);
    expect(paid.json.pix.br_code).toBe(created.json.pix.br_code);
    expect((await t.a.get(`/v1/charges/${created.json.id}`)).json).toEqual(paid.json);
    const again = await t.a.post(`/_sandbox/charges/${created.json.id}/pay`);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("INVALID_STATE");
  });

  it("does not let another account pay a charge", async () => {
    const created = await charge({ amount: 100, method: "pix" });
    const res = await t.a.post(`/_sandbox/charges/${created.json.id}/pay`, undefined, { key: t.sandbox.keys.familyB.secondAccount });
    expect(res.status).toBe(404);
  });
});

describe("the account's clock", () => {
  let clocked: TestSandbox;
  beforeAll(async () => {
    clocked = await startTestSandbox();
  });
  afterAll(async () => {
    expectAllConformant(clocked);
    await clocked.close();
  });

  it("expires a pending charge once expires_at passes, and then refuses to pay it", async () => {
    const created = await clocked.a.post("/v1/charges", { amount: 100, method: "pix", expires_in: 60 }, { headers: { "Idempotency-Key": freshKey() } });
    const advanced = await clocked.a.post("/_sandbox/clock/advance", { seconds: 60 });
    expect(advanced.status).toBe(200);
    expect(advanced.json.offsetSeconds).toBeGreaterThanOrEqual(60);
    const read = await clocked.a.get(`/v1/charges/${created.json.id}`);
    expect(read.json.status).toBe("expired");
    expect((await clocked.a.post(`/_sandbox/charges/${created.json.id}/pay`)).status).toBe(409);
  });

  it("forgets idempotency keys after 24 hours (D08)", async () => {
    const key = freshKey();
    const first = await clocked.a.post("/v1/charges", { amount: 100, method: "pix" }, { headers: { "Idempotency-Key": key } });
    await clocked.a.post("/_sandbox/clock/advance", { seconds: 86_399 });
    const replay = await clocked.a.post("/v1/charges", { amount: 100, method: "pix" }, { headers: { "Idempotency-Key": key } });
    expect(replay.json.id).toBe(first.json.id);
    await clocked.a.post("/_sandbox/clock/advance", { seconds: 1 });
    const fresh = await clocked.a.post("/v1/charges", { amount: 100, method: "pix" }, { headers: { "Idempotency-Key": key } });
    expect(fresh.status).toBe(201);
    expect(fresh.json.id).not.toBe(first.json.id);
    expect(fresh.headers.get("idempotent-replayed")).toBeNull();
  });

  it("moves one account's clock only", async () => {
    const mine = await clocked.a.get("/_sandbox/clock");
    const other = await clocked.a.get("/_sandbox/clock", { key: clocked.sandbox.keys.familyA.secondAccount });
    expect(mine.json.offsetSeconds).toBeGreaterThan(0);
    expect(other.json.offsetSeconds).toBe(0);
  });
});
