/**
 * What the family B checks of every resource share: the refused-key checks, the 429 check, ids
 * no resource has and the recommended X-Idempotency-Key.
 */
import { rateLimitedCheck, refusedKeyChecks, type ResponseCheck } from "../response-check.ts";
import type { FamilyContext, KeyChoice, RequestOptions } from "../../core/check-context.ts";

export const family = "family-b" as const;

/** Checks that a key is refused: an invalid key (the Dredd transaction) and no key at all. */
export function unauthorized(operationId: string, request: (ctx: FamilyContext, key: KeyChoice) => Promise<RequestOptions>): ResponseCheck[] {
  return refusedKeyChecks(family, operationId, request, { keyHeader: "X-API-Key", errorCode: "UNAUTHORIZED" });
}

/** The 429 of an operation, once the account's limit is used up (see the exhaust stage). */
export function rateLimited(operationId: string, request: (ctx: FamilyContext) => Promise<RequestOptions>): ResponseCheck {
  return rateLimitedCheck(family, operationId, request);
}

/** An id no resource has, in the contract's id format (UUID), drawn from the run's seed. */
export const unknownId = (ctx: FamilyContext) => ctx.uuid();

/** Headers of a POST that may carry X-Idempotency-Key (recommended by the document). */
export const withIdempotencyKey = (ctx: FamilyContext) => ({ "X-Idempotency-Key": ctx.idempotencyKey() });
