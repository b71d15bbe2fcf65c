/**
 * Family A response checks: for every documented response of every operation, the request
 * that makes a real server answer it. The first check of a response runs as its Dredd
 * transaction, the others as probes.
 */
import { idempotencyConflictChecks } from "./idempotency.ts";
import { charge, exampleBody } from "./provisioning.ts";
import { rateLimitedCheck, type ResponseCheck } from "./response-check.ts";
import type { FamilyContext, KeyChoice, RequestOptions } from "../core/check-context.ts";
import { errorCodeOf, parseJsonBody } from "../core/validate.ts";

const family = "a" as const;

/** A valid charge creation: the contract's example body and a fresh Idempotency-Key. */
function createChargeRequest(ctx: FamilyContext, overrides: Partial<RequestOptions> = {}): RequestOptions {
  return {
    body: exampleBody(ctx, "createCharge"),
    headers: { "Idempotency-Key": ctx.idempotencyKey() },
    ...overrides,
  };
}

/** Checks that a key is refused: an invalid key (the Dredd transaction) and no key at all. */
function unauthorized(operationId: string, request: (ctx: FamilyContext, key: KeyChoice) => Promise<RequestOptions>): ResponseCheck[] {
  return (["invalid", "none"] as const).map((key) => ({
    family,
    operationId,
    status: "401",
    variant: key === "invalid" ? "invalid-key" : "missing-key",
    title: key === "invalid" ? "a key no server issued" : "no x-api-key header",
    request: (ctx) => request(ctx, key),
  }));
}

/** The 429 of an operation, once the account's limit is used up (see the exhaust stage). */
function rateLimited(operationId: string, request: (ctx: FamilyContext) => Promise<RequestOptions>): ResponseCheck {
  return rateLimitedCheck(family, operationId, request);
}

/**
 * "Every error carries a stable code in addition to the HTTP status": under seed the error
 * body's shape is the server's (D21), but a code must be in it.
 */
function withStableCode(check: ResponseCheck): ResponseCheck {
  if (Number(check.status) < 400 || check.errorCode) return check;
  return {
    ...check,
    assess: (ctx, response) => [
      ...(check.assess?.(ctx, response) ?? []),
      ...(response.status >= 400 && errorCodeOf(parseJsonBody(response.body).ok ? JSON.parse(response.body) : undefined) === undefined
        ? ["the error carries no stable code (the document: every error carries a stable `code`)"]
        : []),
    ],
  };
}

const CHECKS: ResponseCheck[] = [
  // POST /v1/charges
  {
    family,
    operationId: "createCharge",
    status: "201",
    variant: "new-key",
    title: "the contract's example with a new Idempotency-Key",
    request: async (ctx) => createChargeRequest(ctx),
  },
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

  // GET /v1/merchant
  {
    family,
    operationId: "getMerchant",
    status: "200",
    variant: "key-with-scope",
    title: "the primary key (scope merchant:read)",
    request: async () => ({}),
  },
  ...unauthorized("getMerchant", async (_ctx, key) => ({ key })),
  {
    family,
    operationId: "getMerchant",
    status: "403",
    variant: "key-without-scope",
    title: "a key of the account without merchant:read",
    request: async () => ({ key: "noMerchantRead" }),
  },
  rateLimited("getMerchant", async () => ({})),
];

export const FAMILY_A_CHECKS: ResponseCheck[] = CHECKS.map(withStableCode);
