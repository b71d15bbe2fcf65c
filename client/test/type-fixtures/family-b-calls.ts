/**
 * Type fixture, family B. Compiled by client/test/types.test.ts: the file must compile with
 * no diagnostics, and each `@ts-expect-error` line must really be an error. Never executed.
 */
import { expectTypeOf } from "vitest";
import type { components } from "../../../generated/types/family-b.ts";
import { createFamilyBClient, isFamilyBError, type FamilyBEnvelope1Code, type FamilyBEnvelope2Code } from "../../src/index.ts";

type Schemas = components["schemas"];
const familyB = createFamilyBClient({ environment: "sandbox", apiKey: "pcs_test_fixture" });

export async function validCalls() {
  const customer = await familyB.unwrap(familyB.GET("/api/v1/sdk/customers/{id}", { params: { path: { id: "c1" } } }));
  expectTypeOf(customer).toEqualTypeOf<Schemas["Customer"]>();
  const envelope = await familyB.unwrapEnvelope(familyB.GET("/sdk/boleto/{boletoId}", { params: { path: { boletoId: "b1" } } }));
  expectTypeOf(envelope.data).toEqualTypeOf<Schemas["BoletoCharge"]>();
  expectTypeOf(envelope.timestamp).toEqualTypeOf<string>();
  const pix = await familyB.unwrap(familyB.POST("/pix", { body: { amount: 10.5 } }));
  expectTypeOf(pix).toEqualTypeOf<Schemas["PixCharge"]>();
  await familyB.DELETE("/api/v1/sdk/boleto/{boletoId}/cancel", { params: { path: { boletoId: "b1" } }, body: { reason: "duplicated" } });
  await familyB.PUT("/api/v1/sdk/customers/{id}", { params: { path: { id: "c1" } }, body: { status: "INACTIVE" } });
  const page = await familyB.unwrap(familyB.GET("/transactions", { params: { query: { status: "PENDING", page: 1, limit: 20 } } }));
  expectTypeOf(page.items).toEqualTypeOf<Schemas["Transaction"][]>();
}

export async function wrongCalls() {
  // @ts-expect-error wrong field name (document instead of documentNumber)
  await familyB.PUT("/api/v1/sdk/customers/{id}", { params: { path: { id: "c1" } }, body: { document: "12345678909" } });
  // @ts-expect-error wrong field type (amount as a string)
  await familyB.POST("/pix", { body: { amount: "10.50" } });
  // @ts-expect-error a status an update may not set (DELETED comes only from delete)
  await familyB.PUT("/api/v1/sdk/customers/{id}", { params: { path: { id: "c1" } }, body: { status: "DELETED" } });
  // @ts-expect-error the cancel body needs reason
  await familyB.DELETE("/api/v1/sdk/boleto/{boletoId}/cancel", { params: { path: { boletoId: "b1" } }, body: {} });
  // @ts-expect-error the published delete path has no /v1 segment
  await familyB.DELETE("/api/v1/sdk/customers/{id}", { params: { path: { id: "c1" } } });
  // @ts-expect-error an unknown list filter
  await familyB.GET("/transactions", { params: { query: { state: "PENDING" } } });
  // @ts-expect-error a filter value outside the enum
  await familyB.GET("/transactions", { params: { query: { status: "DONE" } } });
  const customer = await familyB.unwrap(familyB.GET("/api/v1/sdk/customers/{id}", { params: { path: { id: "c1" } } }));
  // @ts-expect-error get responses carry no phoneNumber
  customer.phoneNumber;
  // @ts-expect-error an unknown environment name is not a URL either
  createFamilyBClient({ environment: 42, apiKey: "k" });
}

export function errorCodes(error: unknown): string {
  if (!isFamilyBError(error)) return "other";
  switch (error.code) {
    case "UNAUTHORIZED":
      expectTypeOf(error.envelope).toEqualTypeOf<1>();
      return error.details; // envelope 1 only
    case "ODE002":
      expectTypeOf(error.envelope).toEqualTypeOf<2>();
      return error.version; // envelope 2 only
    // @ts-expect-error a code the contract does not define
    case "ODE999":
      return "never";
    default:
      return error.code;
  }
}

export function envelopesAreDistinct(error: unknown): void {
  if (!isFamilyBError(error)) return;
  // @ts-expect-error details exists only on envelope 1: narrow first
  error.details;
  if (error.envelope === 2) {
    expectTypeOf(error.errorCode).toEqualTypeOf<FamilyBEnvelope2Code>();
  } else {
    expectTypeOf(error.code).toEqualTypeOf<FamilyBEnvelope1Code>();
  }
}
