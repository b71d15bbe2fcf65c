/**
 * Family A errors: RFC 9457 problem details with a stable `code` (decision D21). The code
 * union is derived from the error responses of the generated `operations`, so
 * `switch (error.code)` is checked against the contract.
 */
import type { operations } from "../../generated/types/family-a.ts";
import type { ErrorBodies } from "./contract-types.ts";
import { causeText, PaymentClientError, UnexpectedResponseError } from "./errors.ts";
import { readRateLimit, type RateLimitInfo } from "./rate-limit.ts";

/** Every problem body family A can answer with. */
export type FamilyAProblem = ErrorBodies<operations>;
/** Every error code of family A, e.g. `IDEMPOTENCY_KEY_REQUIRED`, `NOT_FOUND`. */
export type FamilyAErrorCode = FamilyAProblem["code"];

/**
 * A family A error response. `code` is the problem's stable code. (Not generic on purpose:
 * `instanceof` on a generic class yields `any` type arguments, which would untype `code`.)
 */
export class FamilyAApiError extends PaymentClientError {
  override name = "FamilyAApiError";
  readonly kind = "family-a-api";
  readonly code: FamilyAErrorCode;
  readonly status: number;
  /** The RFC 9457 problem body: type, title, status, detail, code. */
  readonly problem: FamilyAProblem;
  /** The problem's summary of its type (`Not found`). */
  readonly title: string;
  /** The problem's explanation of this occurrence, whole (the message may shorten it). */
  readonly detail: string | undefined;
  readonly response: Response;
  readonly rateLimit: RateLimitInfo | undefined;
  constructor(problem: FamilyAProblem, response: Response) {
    // The title names the kind of problem, the detail this occurrence (which member, which rule).
    const detail = typeof problem.detail === "string" && problem.detail.trim() !== "" ? causeText(problem.detail, "error.detail") : undefined;
    super(`HTTP ${response.status} ${problem.code}${detail ? ` (${problem.title}): ${detail}` : `: ${problem.title}`}`);
    this.code = problem.code;
    this.title = problem.title;
    this.detail = problem.detail;
    this.status = response.status;
    this.problem = problem;
    this.response = response;
    this.rateLimit = readRateLimit(response);
  }
}

function looksLikeProblem(body: unknown): body is FamilyAProblem {
  return typeof body === "object" && body !== null && typeof (body as { code?: unknown }).code === "string";
}

/** The error to throw for a failed family A call. */
export function familyAErrorFrom(body: unknown, response: Response): FamilyAApiError | UnexpectedResponseError {
  return looksLikeProblem(body)
    ? new FamilyAApiError(body, response)
    : new UnexpectedResponseError(response.status, body, response, readRateLimit(response));
}
