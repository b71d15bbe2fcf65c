/**
 * Family B customers on the sandbox: the create shape and ACTIVE status, the get/update
 * shape (no phoneNumber, address without postalCode), validation (D23), the soft delete and
 * its OCD001 cases (D19, D30, D31), tenant isolation, and the family B envelopes.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { customerBody, expectAllConformant, freshKey, startTestSandbox, type TestSandbox } from "./support.ts";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => expectAllConformant(t));

async function createCustomer(body = customerBody()) {
  const res = await t.b.post("/api/v1/sdk/customers", body);
  expect(res.status).toBe(201);
  return res.json.data as { id: string };
}

describe("authentication (family B)", () => {
  it("answers a missing or invalid key with 401 envelope 1 UNAUTHORIZED", async () => {
    for (const key of [null, "sdk_test_unknown", "sdk_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", t.sandbox.keys.familyA.primary]) {
      const res = await t.b.get("/sdk/status/health", { key });
      expect(res.status, String(key)).toBe(401);
      expect(res.json).toMatchObject({ success: false, error: { code: "UNAUTHORIZED" } });
      expect(typeof res.json.error.message).toBe("string");
      expect(typeof res.json.error.details).toBe("string");
    }
  });

  it("never reads the key from the URL query", async () => {
    const res = await t.b.get(`/sdk/status/health?X-API-Key=${t.sandbox.keys.familyB.primary}`, { key: null });
    expect(res.status).toBe(401);
  });

  it("uses keys of the published format <prefix>_test_<random>", () => {
    expect(t.sandbox.keys.familyB.primary).toMatch(/^[a-z]+_test_[A-Za-z0-9]+$/);
  });
});

describe("health", () => {
  it("reports version v1 in the success envelope", async () => {
    const res = await t.b.get("/sdk/status/health");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, data: { status: "ok", version: "v1" } });
  });
});

describe("customer lifecycle", () => {
  it("creates an ACTIVE customer and returns the create shape", async () => {
    const res = await t.b.post("/api/v1/sdk/customers", customerBody());
    expect(res.status).toBe(201);
    expect(res.json.success).toBe(true);
    expect(Object.keys(res.json.data).sort()).toEqual(["createdAt", "documentNumber", "email", "id", "name", "phoneNumber", "status"]);
    expect(res.json.data.status).toBe("ACTIVE");
  });

  it("returns the get shape: no phoneNumber, address without postalCode, notes and updatedAt", async () => {
    const { id } = await createCustomer();
    const res = await t.b.get(`/api/v1/sdk/customers/${id}`);
    expect(res.status).toBe(200);
    const data = res.json.data;
    expect(data).not.toHaveProperty("phoneNumber");
    expect(data.address).not.toHaveProperty("postalCode");
    expect(data).toMatchObject({ id, status: "ACTIVE", notes: "Cliente desde 2024.", updatedAt: null });
    expect(typeof res.json.timestamp).toBe("string");
  });

  it("accepts the contract example's CPF 12345678909 (check digits are right)", async () => {
    t.b.checkDomain = false; // the domain checker flags this well-known test number on purpose
    try {
      const res = await t.b.post("/api/v1/sdk/customers", customerBody("12345678909"));
      expect(res.status).toBe(201);
    } finally {
      t.b.checkDomain = true;
    }
  });

  it("updates any subset of fields, including status and part of the address", async () => {
    const { id } = await createCustomer();
    const res = await t.b.put(`/api/v1/sdk/customers/${id}`, { status: "INACTIVE", address: { city: "Campinas", complement: null }, unknownField: 1 });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ status: "INACTIVE", address: { city: "Campinas", complement: null, street: "Avenida Paulista" } });
    expect(res.json.data).not.toHaveProperty("phoneNumber");
    expect(res.json.data.updatedAt).not.toBeNull();
    const read = await t.b.get(`/api/v1/sdk/customers/${id}`);
    expect(read.json.data).toEqual(res.json.data);
  });

  it("refuses an update with no field with 400 VALIDATION_ERROR", async () => {
    const { id } = await createCustomer();
    for (const body of [{}, { unknownField: "x" }]) {
      const res = await t.b.put(`/api/v1/sdk/customers/${id}`, body);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR" } });
    }
    expect((await t.b.put(`/api/v1/sdk/customers/${id}`, { status: "DELETED" })).status).toBe(400);
  });

  it("validates documents, phone, postal code, state and e-mail (D23)", async () => {
    const base = customerBody();
    const invalid = [
      { ...base, documentNumber: "93013060426" },
      { ...base, documentNumber: "11111111111" },
      { ...base, documentNumber: "930.130.604-25" },
      { ...base, phoneNumber: "11987654321" },
      { ...base, email: "not-an-email" },
      { ...base, address: { ...(base.address as object), postalCode: "01310-100" } },
      { ...base, address: { ...(base.address as object), state: "sp" } },
      { ...base, name: undefined },
    ];
    for (const body of invalid) {
      const res = await t.b.post("/api/v1/sdk/customers", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.code).toBe("VALIDATION_ERROR");
    }
  });

  it("answers 404 NOT_FOUND for unknown, malformed and other accounts' ids on GET and PUT", async () => {
    const { id } = await createCustomer();
    for (const [path, key] of [
      ["/api/v1/sdk/customers/3f2b8c1e-7d4a-4e9b-9c61-2a5d8e0f1b47", undefined],
      ["/api/v1/sdk/customers/12345", undefined],
      [`/api/v1/sdk/customers/${id}`, t.sandbox.keys.familyB.secondAccount],
    ] as const) {
      const read = await t.b.get(path, { key });
      expect(read.status).toBe(404);
      expect(read.json.error.code).toBe("NOT_FOUND");
      expect((await t.b.put(path, { name: "X" }, { key })).status).toBe(404);
    }
  });
});

describe("customer soft delete", () => {
  it("marks the customer DELETED, keeps the record and returns it again on a repeat (D31)", async () => {
    const { id } = await createCustomer();
    const deleted = await t.b.delete(`/api/sdk/customers/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.json.data.status).toBe("DELETED");
    const read = await t.b.get(`/api/v1/sdk/customers/${id}`);
    expect(read.status).toBe(200);
    expect(read.json.data).toEqual(deleted.json.data);
    const again = await t.b.delete(`/api/sdk/customers/${id}`);
    expect(again.status).toBe(200);
    expect(again.json.data).toEqual(deleted.json.data);
  });

  it("answers 404 OCD001 for an unknown id and for another account's customer", async () => {
    const { id } = await createCustomer();
    for (const [path, key] of [
      ["/api/sdk/customers/3f2b8c1e-7d4a-4e9b-9c61-2a5d8e0f1b47", undefined],
      [`/api/sdk/customers/${id}`, t.sandbox.keys.familyB.secondAccount],
    ] as const) {
      const res = await t.b.delete(path, undefined, { key });
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ status: "ERROR", error: { errorCode: "OCD001" } });
      expect(res.json.version).toMatch(/^\d+\.\d+\.\d+/);
    }
    expect((await t.b.get(`/api/v1/sdk/customers/${id}`)).json.data.status).toBe("ACTIVE");
  });

  it("answers 400 OCD001 for a malformed id", async () => {
    for (const id of ["12345", "not-a-uuid", "3f2b8c1e7d4a4e9b9c612a5d8e0f1b47"]) {
      const res = await t.b.delete(`/api/sdk/customers/${id}`);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ status: "ERROR", error: { errorCode: "OCD001" } });
    }
  });

  it("answers 409 OCD001 while the customer is tied to an open charge, and deletes once it is settled", async () => {
    const { id } = await createCustomer();
    const transaction = await t.b.post("/transactions", { amount: 10, customerId: id }, { headers: { "X-Idempotency-Key": freshKey() } });
    expect(transaction.status).toBe(201);
    const refused = await t.b.delete(`/api/sdk/customers/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ status: "ERROR", error: { errorCode: "OCD001" } });
    expect((await t.b.get(`/api/v1/sdk/customers/${id}`)).json.data.status).toBe("ACTIVE");
    const settled = await t.b.post(`/_sandbox/transactions/${transaction.json.data.id}/status`, { status: "COMPLETED" });
    expect(settled.status).toBe(200);
    expect((await t.b.delete(`/api/sdk/customers/${id}`)).status).toBe(200);
  });

  it("refuses new transactions and updates for a deleted customer", async () => {
    const { id } = await createCustomer();
    await t.b.delete(`/api/sdk/customers/${id}`);
    const transaction = await t.b.post("/transactions", { amount: 10, customerId: id });
    expect(transaction.status).toBe(400);
    expect((await t.b.put(`/api/v1/sdk/customers/${id}`, { name: "Outro" })).status).toBe(400);
  });
});
