/**
 * Boletos on the sandbox: created in any state by the control with valid FEBRABAN numbers,
 * another account's boleto not found (ODE001, D33), a malformed cancel body in envelope 2,
 * and the payment control. The cancellation state machine and its ODE002/ODE003 answers are
 * checked by the conformance suites (family-b/boletos/cancel-state-machine, family-b/cancelBoleto/*).
 */
import * as boletoUtils from "@mrmgomes/boleto-utils";
import { parsePix } from "pix-utils";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { expectAllConformant, startTestSandbox, type TestSandbox } from "./support.ts";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => expectAllConformant(t));

const STATUSES = ["ERROR", "REGISTERED", "PROCESSING", "CONFIRMED", "CANCELED"] as const;
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

async function boleto(status: (typeof STATUSES)[number], extra: Record<string, unknown> = {}) {
  const res = await t.b.post("/_sandbox/boletos", { status, ...extra });
  expect(res.status).toBe(201);
  return res.json.data;
}

const cancel = (id: string, reason: unknown = "Pedido cancelado pelo cliente.", key?: string) =>
  t.b.delete(`/api/v1/sdk/boleto/${id}/cancel`, { reason }, { key });

describe("boleto numbers", () => {
  it("have barcode and typed line with right check digits, due-date factor (2025 rule) and amount", async () => {
    const data = await boleto("REGISTERED", { amount: 1234.56, duedate: "2026-03-15" });
    const { barCode, bankLine } = data.boleto;
    const fromLine = boletoUtils.validarBoleto(bankLine) as unknown as { sucesso: boolean; codigoBarras: string; valor: number };
    expect(fromLine.sucesso).toBe(true);
    expect(fromLine.codigoBarras).toBe(barCode);
    expect(fromLine.valor).toBeCloseTo(1234.56, 2);
    expect((boletoUtils.validarBoleto(barCode) as unknown as { sucesso: boolean }).sucesso).toBe(true);
    const due = boletoUtils.identificarDataComNovoFator2025(barCode, "CODIGO_DE_BARRAS") as unknown as Date | string;
    expect(new Date(due).toISOString().slice(0, 10)).toBe("2026-03-15");
  });

  it("carry a PIX block with a BR Code when asked, and null otherwise", async () => {
    const withPix = await boleto("REGISTERED", { withPix: true });
    expect(withPix.pix.status).toBe("PENDING");
    expect((parsePix(withPix.pix.emv) as { type?: string }).type).toBe("DYNAMIC");
    expect((await boleto("REGISTERED")).pix).toBeNull();
  });

  it("set amountConfirmed for a CONFIRMED boleto only", async () => {
    expect((await boleto("CONFIRMED", { amount: 99.9 })).amountConfirmed).toBe(99.9);
    expect((await boleto("PROCESSING")).amountConfirmed).toBeNull();
  });
});

describe("reading", () => {
  it("answers 404 ODE001 for an unknown id and another account's boleto (D33)", async () => {
    const data = await boleto("REGISTERED");
    for (const [id, key] of [
      ["a1f0c9d2-5b3e-4c7a-8e6f-0d9b2c4a7e15", undefined],
      [data.transactionId, t.sandbox.keys.familyB.secondAccount],
    ] as const) {
      const res = await t.b.get(`/sdk/boleto/${id}`, { key });
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ status: "ERROR", error: { errorCode: "ODE001" } });
      expect(res.json.version).toMatch(SEMVER);
    }
  });
});

describe("cancellation", () => {
  it("answers 404 ODE001 for an unknown id and for another account's boleto", async () => {
    const data = await boleto("REGISTERED");
    expect((await cancel("a1f0c9d2-5b3e-4c7a-8e6f-0d9b2c4a7e15")).json.error.errorCode).toBe("ODE001");
    const other = await cancel(data.transactionId, "motivo", t.sandbox.keys.familyB.secondAccount);
    expect(other.status).toBe(404);
    expect((await t.b.get(`/sdk/boleto/${data.transactionId}`)).json.data.status).toBe("REGISTERED");
  });

  it("answers a malformed cancel body with envelope 2 (400)", async () => {
    const data = await boleto("REGISTERED");
    for (const body of [undefined, "{", { reason: 42 }, {}]) {
      const res = await t.b.delete(`/api/v1/sdk/boleto/${data.transactionId}/cancel`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.status).toBe("ERROR");
    }
    expect((await t.b.get(`/sdk/boleto/${data.transactionId}`)).json.data.status).toBe("REGISTERED");
  });
});

describe("payment control", () => {
  it("confirms a REGISTERED boleto with amountConfirmed, and refuses other states", async () => {
    const data = await boleto("REGISTERED", { amount: 250 });
    const paid = await t.b.post(`/_sandbox/boletos/${data.transactionId}/pay`);
    expect(paid.status).toBe(200);
    expect(paid.json.data).toMatchObject({ status: "CONFIRMED", amountConfirmed: 250 });
    const again = await t.b.post(`/_sandbox/boletos/${data.transactionId}/pay`);
    expect(again.status).toBe(409);
    expect((await cancel(data.transactionId)).status).toBe(409);
  });
});
