/**
 * Family B customers on the sandbox, where the conformance self-test does not reach: the
 * sandbox's key format, the get shape (no phoneNumber, address without postalCode), document
 * and field validation (D23), the soft delete once the open charge is settled through the
 * control (D19, D30), and what a deleted customer refuses. Creation, reading, updates, the
 * OCD001 cases and tenant isolation are checked by the conformance suites (family-b/customers/*).
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
  it("uses keys of the published format <prefix>_test_<random>", () => {
    expect(t.sandbox.keys.familyB.primary).toMatch(/^[a-z]+_test_[A-Za-z0-9]+$/);
  });
});

describe("customer lifecycle", () => {
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
});

describe("customer soft delete", () => {
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
