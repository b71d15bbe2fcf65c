/**
 * Family A through the client against a Prism mock of the generated 3.1 document: every
 * operation, success and error paths, with the contract's own request examples. Prism
 * checks the requests (API key header, Idempotency-Key, body) against the document.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../generated/types/family-a.ts";
import { ROOT } from "@payment-collection/contract/build/contract-build.ts";
import { FamilyAApiError, createFamilyAClient, type FamilyAClient } from "../src/index.ts";
import { openapiPath } from "@payment-collection/contract/model/layout.ts";
import { startPrism, type RunningPrism } from "@payment-collection/conformance/mock/prism.ts";
import { exampleOf, operationExamples } from "./support/contract-examples.ts";
import { operationRecorder } from "./support/called-operations.ts";

const API_KEY = "sk_live_client_test_0001";
let mock: RunningPrism;
let familyA: FamilyAClient;
const recorder = operationRecorder();

beforeAll(async () => {
  mock = await startPrism({ document: join(ROOT, "generated", openapiPath("3.1", "family-a", "yaml")) });
  familyA = createFamilyAClient({ baseUrl: mock.url, apiKey: API_KEY, retry: false });
  familyA.use(recorder.middleware);
});

afterAll(async () => {
  await mock?.close();
});

describe("family A client against the Prism mock", () => {
  it("creates a charge (POST /v1/charges) with a generated Idempotency-Key that Prism accepts", async () => {
    const body = exampleOf("family-a", "createCharge").body as components["schemas"]["ChargeCreateRequest"];
    const result = await familyA.POST("/v1/charges", { body });
    expect(result.response.status).toBe(201);
    const charge = await familyA.unwrap(result);
    expect(charge.object).toBe("charge");
    expect(charge.status).toBe("pending");
    expect(charge.pix.br_code.length).toBeGreaterThan(0);
  });

  it("gets a charge (GET /v1/charges/{id})", async () => {
    const { id } = exampleOf("family-a", "getCharge").params.path;
    const charge = await familyA.unwrap(familyA.GET("/v1/charges/{id}", { params: { path: { id: id! } } }));
    expect(charge.id).toMatch(/^ch_/);
    expect(charge.currency).toBe("BRL");
  });

  it("gets the merchant (GET /v1/merchant) and exposes the rate-limit headers of the response", async () => {
    const merchant = await familyA.unwrap(familyA.GET("/v1/merchant"));
    expect(merchant.object).toBe("merchant");
    // Prism sends the declared X-RateLimit-* headers; the client exposes what it read.
    expect(familyA.rateLimit).toMatchObject({ limit: expect.any(Number), remaining: expect.any(Number), reset: expect.any(Number) });
  });

  it("throws FamilyAApiError with the problem's code on a 404", async () => {
    const error = await familyA
      .unwrap(familyA.GET("/v1/charges/{id}", { params: { path: { id: "ch_unknown" } }, headers: { Prefer: "code=404" } }))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FamilyAApiError);
    const problem = error as FamilyAApiError;
    expect(problem.code).toBe("NOT_FOUND");
    expect(problem.status).toBe(404);
    expect(problem.problem.title).toBeTypeOf("string");
  });

  it("throws FamilyAApiError INSUFFICIENT_SCOPE on a 403 from GET /v1/merchant", async () => {
    const error = await familyA.unwrap(familyA.GET("/v1/merchant", { headers: { Prefer: "code=403" } })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FamilyAApiError);
    expect((error as FamilyAApiError).code).toBe("INSUFFICIENT_SCOPE");
  });

  it("called every family A operation of the document", () => {
    const expected = operationExamples("family-a").map((operation) => `${operation.method} ${operation.path}`);
    expect([...recorder.called].sort()).toEqual(expected.sort());
  });
});
