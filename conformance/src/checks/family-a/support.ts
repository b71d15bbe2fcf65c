/**
 * What the family A checks of every resource share: the refused-key checks, the 429 check and
 * the stable error code every error must carry.
 */
import { rateLimitedCheck, refusedKeyChecks, type ResponseCheck } from "../response-check.ts";
import type { FamilyContext, KeyChoice, RequestOptions } from "../../core/check-context.ts";
import { errorCodeOf, parseJsonBody } from "../../core/validate.ts";

export const family = "family-a" as const;

/** Checks that a key is refused: an invalid key (the Dredd transaction) and no key at all. */
export function unauthorized(operationId: string, request: (ctx: FamilyContext, key: KeyChoice) => Promise<RequestOptions>): ResponseCheck[] {
  return refusedKeyChecks(family, operationId, request, { keyHeader: "x-api-key" });
}

/** The 429 of an operation, once the account's limit is used up (see the exhaust stage). */
export function rateLimited(operationId: string, request: (ctx: FamilyContext) => Promise<RequestOptions>): ResponseCheck {
  return rateLimitedCheck(family, operationId, request);
}

/**
 * "Every error carries a stable code in addition to the HTTP status": under seed the error
 * body's shape is the server's (D21), but a code must be in it.
 */
export function withStableCode(check: ResponseCheck): ResponseCheck {
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
