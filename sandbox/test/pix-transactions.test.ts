/**
 * Family B PIX and transactions on the sandbox: a QR code PNG that decodes back to the BR
 * Code, amount bounds, other accounts' records, the payment control, X-Idempotency-Key
 * lengths and creation without a key (D36), the sandbox's PIX keys, and the transaction list
 * with its filters and pagination (D15, D28). Creation and reading, replays and unknown ids
 * are checked by the conformance suites (family-b/createPixCharge/*, family-b/idempotency/no-duplicates...).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { decodeQrPng } from "@payment-collection/contract/domain/domain-checks.ts";
import { customerBody, expectAllConformant, freshKey, startTestSandbox, type TestSandbox } from "./support.ts";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => expectAllConformant(t));

describe("PIX charges", () => {
  it("serves a QR code PNG that decodes to the BR Code", async () => {
    const { json } = await t.b.post("/pix", { amount: 10.5 });
    const res = await t.b.get(`/pix/${json.data.id}/qrcode`);
    expect(res.status).toBe(200);
    expect(res.json.data.mediaType).toBe("image/png");
    expect(Buffer.from(res.json.data.image, "base64").subarray(1, 4).toString()).toBe("PNG");
    expect(decodeQrPng(res.json.data.image)).toBe(json.data.brCode);
  });

  it("refuses amounts out of bounds or with more than two decimals", async () => {
    for (const amount of [0, -1, 0.001, 10.123, 10_000_000_000, "10"]) {
      const res = await t.b.post("/pix", { amount });
      expect(res.status, String(amount)).toBe(400);
      expect(res.json.error.code).toBe("VALIDATION_ERROR");
    }
  });

  it("answers 404 NOT_FOUND for unknown and other accounts' PIX charges", async () => {
    const { json } = await t.b.post("/pix", { amount: 1 });
    for (const [path, key] of [
      ["/pix/00000000000000000000000000000000", undefined],
      [`/pix/${json.data.id}`, t.sandbox.keys.familyB.secondAccount],
      [`/pix/${json.data.id}/qrcode`, t.sandbox.keys.familyB.secondAccount],
    ] as const) {
      const res = await t.b.get(path, { key });
      expect(res.status).toBe(404);
      expect(res.json.error.code).toBe("NOT_FOUND");
    }
  });

  it("is paid by the control: CONCLUIDA with paidAt and an EndToEndId", async () => {
    const { json } = await t.b.post("/pix", { amount: 12 });
    const paid = await t.b.post(`/_sandbox/pix/${json.data.id}/pay`);
    expect(paid.status).toBe(200);
    expect(paid.json.data.status).toBe("CONCLUIDA");
    expect(paid.json.data.endToEndId).toMatch(/^E[0-9A-Z]{8}\d{12}[A-Za-z0-9]{11}$/);
    expect((await t.b.get(`/pix/${json.data.id}`)).json.data).toEqual(paid.json.data);
    expect((await t.b.post(`/_sandbox/pix/${json.data.id}/pay`)).status).toBe(409);
  });
});

describe("X-Idempotency-Key (D36)", () => {
  it("replays a PIX charge for a used key, refuses another payload, and creates without a key", async () => {
    const key = freshKey();
    const first = await t.b.post("/pix", { amount: 99.9 }, { headers: { "X-Idempotency-Key": key } });
    const again = await t.b.post("/pix", { amount: 99.9 }, { headers: { "X-Idempotency-Key": key } });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.data.id).toBe(first.json.data.id);
    expect(again.json.data.brCode).toBe(first.json.data.brCode);
    const other = await t.b.post("/pix", { amount: 99.91 }, { headers: { "X-Idempotency-Key": key } });
    expect(other.status).toBe(422);
    expect(other.json.error.code).toBe("IDEMPOTENCY_KEY_MISMATCH");
    const a = await t.b.post("/pix", { amount: 99.9 });
    const b = await t.b.post("/pix", { amount: 99.9 });
    expect(a.json.data.id).not.toBe(b.json.data.id);
  });

  it("refuses keys shorter than 8 or longer than 255 characters", async () => {
    for (const key of ["1234567", "k".repeat(256)]) {
      const res = await t.b.post("/transactions", { amount: 1 }, { headers: { "X-Idempotency-Key": key } });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("PIX key lookup and payment", () => {
  it("finds the contract's example key and the sandbox's keys, and pays them with the reserved EndToEndId", async () => {
    const found = await t.b.post("/pix/query", { key: "joao.pereira@example.com.br" });
    expect(found.status).toBe(200);
    expect(found.json.data).toMatchObject({ key: "joao.pereira@example.com.br", keyType: "EMAIL" });
    const e2e = found.json.data.endToEndId;
    const paid = await t.b.post("/pix/payment", { endToEndId: e2e, amount: 120.5, description: "Reembolso" });
    expect(paid.status).toBe(201);
    expect(paid.json.data).toMatchObject({ endToEndId: e2e, key: "joao.pereira@example.com.br", amount: 120.5, status: "PROCESSING" });
    const again = await t.b.post("/pix/payment", { endToEndId: e2e, amount: 10 });
    expect(again.status).toBe(201);
    expect(again.json.data.id).not.toBe(paid.json.data.id);
    for (const [key, type] of [
      ["93013060425", "CPF"],
      ["+5511912345678", "PHONE"],
      ["2f0d6c1e-8b3a-4d7f-9e52-6a1b4c8d0e3f", "EVP"],
    ]) {
      expect((await t.b.post("/pix/query", { key })).json.data.keyType).toBe(type);
    }
  });

  it("answers 404 for a well-formed unknown key, a foreign phone too, and 400 VALIDATION_ERROR saying why for a malformed one", async () => {
    for (const key of ["7d9f0a1b-2c3d-4e5f-8a9b-0c1d2e3f4a5b", "+14155552671"]) expect((await t.b.post("/pix/query", { key })).status, key).toBe(404);
    for (const [key, why] of [
      ["not a key", /body\/key: must match format "pix-key": not a PIX key/],
      ["12345678901", /body\/key: must match format "pix-key": CPF key: check digits are 01, should be 09/],
      ["Joao.Pereira@example.com.br", /not a PIX key/],
    ] as const) {
      const res = await t.b.post("/pix/query", { key });
      expect(res.status, key).toBe(400);
      expect(res.json.error.code).toBe("VALIDATION_ERROR");
      expect(res.json.error.details).toMatch(why);
    }
  });
});

describe("transactions", () => {
  it("refuses a customerId of another account", async () => {
    const customer = await t.b.post("/api/v1/sdk/customers", customerBody(), { key: t.sandbox.keys.familyB.secondAccount });
    const res = await t.b.post("/transactions", { amount: 1, customerId: customer.json.data.id });
    expect(res.status).toBe(400);
  });

  it("answers 404 for another account's transaction", async () => {
    const { json } = await t.b.post("/transactions", { amount: 1 });
    const res = await t.b.get(`/transactions/${json.data.id}/status`, { key: t.sandbox.keys.familyB.secondAccount });
    expect(res.status).toBe(404);
  });
});

describe("transaction list", () => {
  let list: TestSandbox;
  const ids: string[] = [];
  beforeAll(async () => {
    list = await startTestSandbox();
    for (let i = 0; i < 25; i++) {
      const res = await list.b.post("/transactions", { amount: i + 1 });
      ids.push(res.json.data.id);
      if (i % 5 === 0) await list.b.post(`/_sandbox/transactions/${res.json.data.id}/status`, { status: "COMPLETED" });
    }
  });
  afterAll(async () => {
    expectAllConformant(list);
    await list.close();
  });

  it("pages newest first with default page 1 and limit 20 (D28)", async () => {
    const first = await list.b.get("/transactions");
    expect(first.json.data).toMatchObject({ page: 1, limit: 20, total: 25, totalPages: 2 });
    expect(first.json.data.items.map((i: { id: string }) => i.id)).toEqual([...ids].reverse().slice(0, 20));
    const second = await list.b.get("/transactions?page=2");
    expect(second.json.data.items.map((i: { id: string }) => i.id)).toEqual([...ids].reverse().slice(20));
    const past = await list.b.get("/transactions?page=9");
    expect(past.status).toBe(200);
    expect(past.json.data.items).toEqual([]);
  });

  it("filters by status and by the half-open period [startDate, endDate)", async () => {
    const completed = await list.b.get("/transactions?status=COMPLETED&limit=100");
    expect(completed.json.data.total).toBe(5);
    const all = (await list.b.get("/transactions?limit=100")).json.data.items as Array<{ createdAt: string }>;
    const pivot = all[10].createdAt;
    const after = await list.b.get(`/transactions?limit=100&startDate=${encodeURIComponent(pivot)}`);
    const before = await list.b.get(`/transactions?limit=100&endDate=${encodeURIComponent(pivot)}`);
    expect(after.json.data.total + before.json.data.total).toBe(25);
    expect(after.json.data.items.every((i: { createdAt: string }) => i.createdAt >= pivot)).toBe(true);
  });

  it("refuses bad filters and page sizes with 400 VALIDATION_ERROR", async () => {
    for (const query of ["limit=0", "limit=101", "page=0", "page=x", "status=DONE", "startDate=yesterday", "limit=1&limit=2"]) {
      const res = await list.b.get(`/transactions?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json.error.code).toBe("VALIDATION_ERROR");
    }
  });

  it("shows another account none of them", async () => {
    const res = await list.b.get("/transactions", { key: list.sandbox.keys.familyB.secondAccount });
    expect(res.json.data.total).toBe(0);
  });
});
