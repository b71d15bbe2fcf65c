/**
 * Response bodies of each surface:
 * - family A: the charge and merchant objects as they are; errors are RFC 9457 problem
 *   details `{type, title, status, detail, code}` as `application/problem+json` (D21);
 * - family B: success envelopes `{success, data, timestamp}` (or `{success, data}` where the
 *   document publishes no timestamp), envelope 1 `{success: false, error: {code, message,
 *   details}}` and envelope 2 `{version, status: "ERROR", error: {errorCode, message}}`;
 * - sandbox controls: the resource as its family returns it; errors like envelope 1.
 */
import type { RequestContext } from "./app.ts";
import { describeProblems, type ValidationProblem } from "./contract/operations.ts";
import { isoTimestamp } from "./domain/timestamps.ts";
import type { Reply } from "./http/reply.ts";

export type Surface = "A" | "B" | "controls";

/** Base of family A problem `type` URIs, as in the contract's examples. */
// Stryker disable next-line StringLiteral: a problem's `type` is a URI reference (D21), one per code, and no decision names its text: every variant is still a URI reference, distinct per code
export const PROBLEM_TYPE_BASE = "https://docs.payments.example/errors/";

const PROBLEM_TITLES: Record<string, string> = {
  UNAUTHORIZED: "Unauthorized",
  INSUFFICIENT_SCOPE: "Insufficient scope",
  NOT_FOUND: "Not found",
  VALIDATION_ERROR: "Invalid request",
  IDEMPOTENCY_KEY_REQUIRED: "Idempotency-Key required",
  IDEMPOTENCY_KEY_MISMATCH: "Idempotency-Key reused with a different payload",
  IDEMPOTENCY_KEY_IN_USE: "Idempotency-Key in use",
  RATE_LIMITED: "Too many requests",
  METHOD_NOT_ALLOWED: "Method not allowed",
  INTERNAL_ERROR: "Internal error",
  SERVICE_UNAVAILABLE: "Service unavailable",
};

/** A family A error: problem details with a stable `code`. */
export function problem(status: number, code: string, detail: string): Reply {
  return {
    status,
    contentType: "application/problem+json",
    body: {
      // Stryker disable next-line MethodExpression,StringLiteral: a problem's `type` is a URI reference (D21), one per code, and no decision names its text: every variant is still a URI reference, distinct per code
      type: PROBLEM_TYPE_BASE + code.toLowerCase().replace(/_/g, "-"),
      // Stryker disable next-line LogicalOperator: a human-readable text of an error body (D21's `title`): the contract types it as a string and pins no text
      title: PROBLEM_TITLES[code] ?? code,
      status,
      detail,
      code,
    },
  };
}

/** Family B envelope 1 (and the controls' error body). */
export function sdkError(status: number, code: string, message: string, details: string): Reply {
  return { status, body: { success: false, error: { code, message, details } } };
}

/** Family B envelope 2, carrying the interface's semantic version. */
export function operationError(status: number, version: string, errorCode: string, message: string): Reply {
  return { status, body: { version, status: "ERROR", error: { errorCode, message } } };
}

/**
 * The `invalid` answer of the family B operations whose errors are envelope 2 (customer delete,
 * boletos): 400 with the project code VALIDATION_ERROR (D18, D45), never a documented O-code.
 */
export function operationValidationError(ctx: Pick<RequestContext, "app">, problems: readonly ValidationProblem[]): Reply {
  return operationError(400, ctx.app.contract.version("family-b"), "VALIDATION_ERROR", `The request is invalid: ${describeProblems(problems)}`);
}

/** Family B success envelope `{success, data, timestamp}`. */
export function success(status: number, data: unknown, now: Date): Reply {
  return { status, body: { success: true, data, timestamp: isoTimestamp(now.getTime()) } };
}

/** Family B `{success, data}` (health check and customer creation publish no timestamp). */
export function dataEnvelope(status: number, data: unknown): Reply {
  return { status, body: { success: true, data } };
}

/**
 * The surface of a path no operation matches, for the error body of its 404/405 (`/V1` is family
 * A too). Elsewhere envelope 1, family B's: the controls' errors are envelope 1 as well, so a path
 * under `/_sandbox` needs no surface of its own.
 */
export function surfaceOfPath(path: string): Surface {
  if (/^\/v1(\/|$)/i.test(path)) return "A";
  // Stryker disable next-line StringLiteral: equivalent, any surface but A answers envelope 1, and an unrouted path is answered before its key is read
  return "B";
}

/** Errors the pipeline gives before or around any operation's own, in the surface's error body. */
export type CommonError = "UNAUTHORIZED" | "INSUFFICIENT_SCOPE" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "RATE_LIMITED" | "VALIDATION_ERROR" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";

const COMMON_STATUS: Record<CommonError, number> = {
  UNAUTHORIZED: 401,
  INSUFFICIENT_SCOPE: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  RATE_LIMITED: 429,
  VALIDATION_ERROR: 400,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

const COMMON_MESSAGE: Record<CommonError, string> = {
  UNAUTHORIZED: "Invalid or missing API key.",
  INSUFFICIENT_SCOPE: "Insufficient scope.",
  NOT_FOUND: "Resource not found.",
  METHOD_NOT_ALLOWED: "Method not allowed.",
  RATE_LIMITED: "Rate limit exceeded.",
  VALIDATION_ERROR: "The request is invalid.",
  INTERNAL_ERROR: "Internal error.",
  SERVICE_UNAVAILABLE: "The service is temporarily unavailable.",
};

/** A common error in the error body of the surface. */
export function commonError(surface: Surface, code: CommonError, detail: string): Reply {
  const status = COMMON_STATUS[code];
  if (surface === "A") return problem(status, code, detail);
  return sdkError(status, code, COMMON_MESSAGE[code], detail);
}
