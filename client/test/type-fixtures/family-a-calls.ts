/**
 * Type fixture, family A. Compiled by client/test/types.test.ts: the file must compile with
 * no diagnostics, and each `@ts-expect-error` line must really be an error (else TypeScript
 * reports the unused directive). Never executed.
 */
import { expectTypeOf } from "vitest";
import type { components } from "../../../generated/types/family-a.ts";
import { FamilyAApiError, createFamilyAClient, type FamilyAErrorCode } from "../../src/index.ts";

type Schemas = components["schemas"];
const familyA = createFamilyAClient({ baseUrl: "http://127.0.0.1:1", apiKey: "sk_live_fixture" });

export async function validCalls() {
  // The Idempotency-Key the contract requires is optional here: the client generates one.
  const created = await familyA.unwrap(familyA.POST("/v1/charges", { body: { amount: 1990, method: "pix" } }));
  expectTypeOf(created).toEqualTypeOf<Schemas["Charge"]>();
  await familyA.POST("/v1/charges", { body: { amount: 1990, method: "pix", expires_in: 600 }, params: { header: { "Idempotency-Key": "order-0001" } } });
  const charge = await familyA.unwrap(familyA.GET("/v1/charges/{id}", { params: { path: { id: "ch_1" } } }));
  expectTypeOf(charge.status).toEqualTypeOf<"pending" | "paid" | "expired">();
  const merchant = await familyA.unwrap(familyA.GET("/v1/merchant"));
  expectTypeOf(merchant).toEqualTypeOf<Schemas["Merchant"]>();
  const result = await familyA.GET("/v1/merchant");
  if (result.error) expectTypeOf(result.error.code).toEqualTypeOf<"UNAUTHORIZED" | "TEST_KEY_NOT_ACCEPTED" | "INSUFFICIENT_SCOPE" | "RATE_LIMITED">();
}

export async function wrongCalls() {
  // @ts-expect-error wrong field name (amont)
  await familyA.POST("/v1/charges", { body: { amont: 1990, method: "pix" } });
  // @ts-expect-error wrong name of an optional field (referense)
  await familyA.POST("/v1/charges", { body: { amount: 1990, method: "pix", referense: "order-1" } });
  // @ts-expect-error wrong name of the params option (parms)
  await familyA.GET("/v1/charges/{id}", { parms: { path: { id: "ch_1" } } });
  // @ts-expect-error wrong field type (amount as a string)
  await familyA.POST("/v1/charges", { body: { amount: "1990", method: "pix" } });
  // @ts-expect-error a value outside the enum (method card)
  await familyA.POST("/v1/charges", { body: { amount: 1990, method: "card" } });
  // @ts-expect-error a required field missing (method)
  await familyA.POST("/v1/charges", { body: { amount: 1990 } });
  // @ts-expect-error a path the contract does not have
  await familyA.GET("/v1/charge/{id}", { params: { path: { id: "ch_1" } } });
  // @ts-expect-error a method the path does not have
  await familyA.DELETE("/v1/charges/{id}", { params: { path: { id: "ch_1" } } });
  // @ts-expect-error the path parameter is missing
  await familyA.GET("/v1/charges/{id}");
  // @ts-expect-error the idempotency key header must be a string
  await familyA.POST("/v1/charges", { body: { amount: 1, method: "pix" }, params: { header: { "Idempotency-Key": 12345678 } } });
  const charge = await familyA.unwrap(familyA.GET("/v1/charges/{id}", { params: { path: { id: "ch_1" } } }));
  // @ts-expect-error a response field that does not exist (br_code lives under pix)
  charge.br_code;
}

export function errorCodes(error: unknown): string {
  if (!(error instanceof FamilyAApiError)) return "other";
  expectTypeOf(error.code).toEqualTypeOf<FamilyAErrorCode>();
  switch (error.code) {
    case "IDEMPOTENCY_KEY_REQUIRED":
    case "NOT_FOUND":
      return error.problem.title;
    // @ts-expect-error a code the contract does not define
    case "CHARGE_NOT_FOUND":
      return "never";
    default:
      return error.code;
  }
}
