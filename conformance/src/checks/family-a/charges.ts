/** Family A response checks of the charges: POST /v1/charges and GET /v1/charges/{id}. */
import { idempotencyConflictChecks } from "../idempotency.ts";
import { lifetimeChecks } from "../lifetime.ts";
import { charge, exampleBody } from "../provisioning.ts";
import type { ResponseCheck } from "../response-check.ts";
import type { FamilyContext, RequestOptions } from "../../core/check-context.ts";
import { family, rateLimited, unauthorized } from "./support.ts";

/** A valid charge creation: the contract's example body and a fresh Idempotency-Key. */
function createChargeRequest(ctx: FamilyContext, overrides: Partial<RequestOptions> = {}): RequestOptions {
  return {
    body: exampleBody(ctx, "createCharge"),
    headers: { "Idempotency-Key": ctx.idempotencyKey() },
    ...overrides,
  };
}

export const CHARGE_CHECKS: ResponseCheck[] = [
  // POST /v1/charges
  {
    family,
    operationId: "createCharge",
    status: "201",
    variant: "new-key",
    title: "the contract's example with a new Idempotency-Key",
    request: async (ctx) => createChargeRequest(ctx),
  },
  ...lifetimeChecks({
    family,
    operationId: "createCharge",
    decision: "D02",
    members: { lifetime: "expires_in", createdAt: "created_at", expiresAt: "expires_at" },
    statements: ["A-CHARGE-FIELD-expires_at", "A-CHARGE-FIELD-request.expires_in"],
    request: (ctx, body) => createChargeRequest(ctx, { body }),
  }),
  {
    family,
    operationId: "createCharge",
    status: "400",
    variant: "missing-idempotency-key",
    title: "no Idempotency-Key header",
    errorCode: "IDEMPOTENCY_KEY_REQUIRED",
    request: async (ctx) => createChargeRequest(ctx, { headers: {} }),
  },
  {
    family,
    operationId: "createCharge",
    status: "400",
    variant: "short-idempotency-key",
    title: "an Idempotency-Key of 7 characters",
    errorCode: "IDEMPOTENCY_KEY_REQUIRED",
    request: async (ctx) => createChargeRequest(ctx, { headers: { "Idempotency-Key": ctx.idempotencyKey().slice(-7) } }),
  },
  ...unauthorized("createCharge", async (ctx, key) => createChargeRequest(ctx, { key })),
  ...idempotencyConflictChecks({
    family,
    operationId: "createCharge",
    header: "Idempotency-Key",
    decision: "D07",
    request: async (ctx, key) => createChargeRequest(ctx, { headers: { "Idempotency-Key": key } }),
  }),
  rateLimited("createCharge", async (ctx) => createChargeRequest(ctx)),

  // GET /v1/charges/{id}
  {
    family,
    operationId: "getCharge",
    status: "200",
    variant: "created-charge",
    title: "a charge created by this run",
    request: async (ctx) => ({ params: { id: await charge(ctx) } }),
  },
  ...unauthorized("getCharge", async (ctx, key) => ({ key, params: { id: `unknown-${ctx.runId}` } })),
  {
    family,
    operationId: "getCharge",
    status: "404",
    variant: "unknown-id",
    title: "an id no charge has",
    request: async (ctx) => ({ params: { id: `ch_unknown_${ctx.runId}` } }),
  },
  rateLimited("getCharge", async (ctx) => ({ params: { id: `ch_unknown_${ctx.runId}` } })),
];
