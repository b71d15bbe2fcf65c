/**
 * What the family B checks of every resource share: the refused-key checks, the 429 check, ids
 * no resource has and the recommended X-Idempotency-Key.
 */
import { rateLimitedCheck, refusedKeyChecks, type ResponseCheck } from "../response-check.ts";
import { NotApplicable, type FamilyContext, type KeyChoice, type RequestOptions } from "../../core/check-context.ts";

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

/**
 * The 400 of an operation for a `User-Agent` one character over its bound (D45), in the
 * operation's error envelope: `VALIDATION_ERROR` (envelope 1, or envelope 2 where the operation's
 * errors are, D45). The bound is read from the contract; the request is otherwise valid.
 */
export function userAgentTooLong(operationId: string, request: (ctx: FamilyContext) => Promise<RequestOptions>): ResponseCheck {
  return {
    family,
    operationId,
    status: "400",
    variant: "user-agent-over-bound",
    title: "a User-Agent one character over its bound (D45)",
    errorCode: "VALIDATION_ERROR",
    profile: "full",
    decision: "D45",
    request: async (ctx) => {
      const header = ctx.operation(operationId).parameters.find((p) => p.in === "header" && p.name.toLowerCase() === "user-agent");
      const bound = header?.schema.maxLength;
      if (typeof bound !== "number") throw new NotApplicable(`the contract gives ${operationId}'s User-Agent no maxLength`);
      const options = await request(ctx);
      return { ...options, headers: { ...options.headers, "User-Agent": "u".repeat(bound + 1) } };
    },
  };
}
