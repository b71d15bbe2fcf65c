/**
 * Family B through the client against a Prism mock of the generated 3.1 document: all 16
 * operations with the contract's own request examples, the envelope helper, and both error
 * envelopes. Prism checks the requests (X-API-Key header, bodies, parameters).
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../generated/types/family-b.ts";
import { ROOT } from "@payment-collection/contract/build/contract-build.ts";
import { createFamilyBClient, isFamilyBError, FamilyBEnvelope1Error, FamilyBEnvelope2Error, type FamilyBClient } from "../src/index.ts";
import { openapiPath } from "@payment-collection/contract/model/layout.ts";
import { startPrism, type RunningPrism } from "@payment-collection/conformance/mock/prism.ts";
import { exampleOf, operationExamples } from "./support/contract-examples.ts";
import { operationRecorder } from "./support/called-operations.ts";

type Schemas = components["schemas"];
const API_KEY = "pcs_test_client0001";
let mock: RunningPrism;
let familyB: FamilyBClient;
const recorder = operationRecorder();

const example = (operationId: string) => exampleOf("family-b", operationId);
const pathParam = (operationId: string, name: string) => example(operationId).params.path[name]!;

beforeAll(async () => {
  mock = await startPrism({ document: join(ROOT, "generated", openapiPath("3.1", "family-b", "yaml")) });
  familyB = createFamilyBClient({ environment: mock.url, apiKey: API_KEY, retry: false });
  familyB.use(recorder.middleware);
});

afterAll(async () => {
  await mock?.close();
});

describe("family B client against the Prism mock", () => {
  it("GET /sdk/status/health: unwrap returns the envelope's data, unwrapEnvelope the whole envelope", async () => {
    const health = await familyB.unwrap(familyB.GET("/sdk/status/health"));
    expect(health.version).toBe("v1");
    const envelope = await familyB.unwrapEnvelope(familyB.GET("/sdk/status/health"));
    expect(envelope.success).toBe(true);
    expect(envelope.data.status).toBeTypeOf("string");
  });

  it("customers: create, get, update, delete", async () => {
    const created = await familyB.unwrap(
      familyB.POST("/api/v1/sdk/customers", { body: example("createCustomer").body as Schemas["CustomerCreateRequest"] }),
    );
    expect(created.status).toBe("ACTIVE");
    const id = pathParam("getCustomer", "id");
    const customer = await familyB.unwrap(familyB.GET("/api/v1/sdk/customers/{id}", { params: { path: { id } } }));
    expect(customer.id).toBe(id);
    const updated = await familyB.unwrap(
      familyB.PUT("/api/v1/sdk/customers/{id}", {
        params: { path: { id } },
        body: example("updateCustomer").body as Schemas["CustomerUpdateRequest"],
      }),
    );
    expect(updated.email).toBeTypeOf("string");
    const deleted = await familyB.unwrap(familyB.DELETE("/api/sdk/customers/{id}", { params: { path: { id } } }));
    expect(deleted.status).toBe("DELETED");
  });

  it("boletos: get and cancel (DELETE with a body)", async () => {
    const boletoId = pathParam("getBoleto", "boletoId");
    const boleto = await familyB.unwrap(familyB.GET("/sdk/boleto/{boletoId}", { params: { path: { boletoId } } }));
    expect(boleto.boleto.barCode).toMatch(/^\d{44}$/);
    const canceled = await familyB.unwrap(
      familyB.DELETE("/api/v1/sdk/boleto/{boletoId}/cancel", {
        params: { path: { boletoId } },
        body: example("cancelBoleto").body as Schemas["BoletoCancelRequest"],
      }),
    );
    expect(canceled.status).toBe("CANCELED");
  });

  it("PIX: create a charge, read it and its QR code, query a key, pay it", async () => {
    const pix = await familyB.unwrap(familyB.POST("/pix", { body: example("createPixCharge").body as Schemas["PixChargeCreateRequest"] }));
    expect(pix.brCode.length).toBeGreaterThan(0);
    const pixId = pathParam("getPixCharge", "pixId");
    expect((await familyB.unwrap(familyB.GET("/pix/{pixId}", { params: { path: { pixId } } }))).txid).toBeTypeOf("string");
    const qr = await familyB.unwrap(familyB.GET("/pix/{pixId}/qrcode", { params: { path: { pixId } } }));
    expect(qr.mediaType).toBe("image/png");
    const key = await familyB.unwrap(familyB.POST("/pix/query", { body: example("queryPixKey").body as Schemas["PixKeyQueryRequest"] }));
    expect(key.endToEndId).toBeTypeOf("string");
    const payment = await familyB.unwrap(
      familyB.POST("/pix/payment", { body: example("createPixPayment").body as Schemas["PixPaymentRequest"] }),
    );
    expect(payment.status).toBeTypeOf("string");
  });

  it("transactions: create, get, status, list with filters", async () => {
    const created = await familyB.unwrap(
      familyB.POST("/transactions", { body: example("createTransaction").body as Schemas["TransactionCreateRequest"] }),
    );
    expect(created.currency).toBe("BRL");
    const transactionId = pathParam("getTransaction", "transactionId");
    expect((await familyB.unwrap(familyB.GET("/transactions/{transactionId}", { params: { path: { transactionId } } }))).id).toBe(transactionId);
    const status = await familyB.unwrap(familyB.GET("/transactions/{transactionId}/status", { params: { path: { transactionId } } }));
    expect(status.status).toBeTypeOf("string");
    const page = await familyB.unwrap(
      familyB.GET("/transactions", { params: { query: { status: "PENDING", startDate: "2026-11-01T00:00:00Z", endDate: "2026-12-01T00:00:00Z", page: 1, limit: 20 } } }),
    );
    expect(Array.isArray(page.items)).toBe(true);
  });

  it("envelope 1 error: 401 UNAUTHORIZED with code and details", async () => {
    const error = await familyB.unwrap(familyB.GET("/sdk/status/health", { headers: { Prefer: "code=401" } })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FamilyBEnvelope1Error);
    if (!isFamilyBError(error) || error.envelope !== 1) throw new Error("expected an envelope 1 error");
    expect(error.code).toBe("UNAUTHORIZED");
    expect(error.details).toBeTypeOf("string");
  });

  it("envelope 2 errors: ODE001 on an unknown boleto, ODE002 on a boleto that cannot be cancelled", async () => {
    const boletoId = pathParam("getBoleto", "boletoId");
    const notFound = await familyB
      .unwrap(familyB.GET("/sdk/boleto/{boletoId}", { params: { path: { boletoId } }, headers: { Prefer: "code=404" } }))
      .catch((caught: unknown) => caught);
    expect(notFound).toBeInstanceOf(FamilyBEnvelope2Error);
    expect((notFound as FamilyBEnvelope2Error).code).toBe("ODE001");
    expect((notFound as FamilyBEnvelope2Error).errorCode).toBe("ODE001");
    const conflict = await familyB
      .unwrap(
        familyB.DELETE("/api/v1/sdk/boleto/{boletoId}/cancel", {
          params: { path: { boletoId } },
          body: { reason: "Pedido cancelado." },
          headers: { Prefer: "code=409" },
        }),
      )
      .catch((caught: unknown) => caught);
    expect(conflict).toBeInstanceOf(FamilyBEnvelope2Error);
    expect((conflict as FamilyBEnvelope2Error).code).toBe("ODE002");
    expect((conflict as FamilyBEnvelope2Error).status).toBe(409);
  });

  it("called every family B operation of the document", () => {
    const expected = operationExamples("family-b").map((operation) => `${operation.method} ${operation.path}`);
    expect([...recorder.called].sort()).toEqual(expected.sort());
  });
});
