/**
 * Family B errors come in two envelopes:
 *   envelope 1 (authentication, validation...): {success: false, error: {code, message, details}}
 *   envelope 2 (customer delete, boleto):       {version, status: "ERROR", error: {errorCode, message}}
 * Both error classes expose `code` (envelope 2's `errorCode` under the same name) with code
 * unions derived from the generated `operations`; the unions are disjoint, so
 * `switch (error.code)` is checked and narrows to the right envelope.
 */
import type { operations } from "../../generated/types/family-b.ts";
import type { ErrorBodies } from "./contract-types.ts";
import { causeText, PaymentClientError, UnexpectedResponseError } from "./errors.ts";
import { readRateLimit, type RateLimitInfo } from "./rate-limit.ts";

/** Every error body family B can answer with. */
export type FamilyBErrorBody = ErrorBodies<operations>;
/** Envelope 1 bodies: `{success: false, error: {code, message, details}}`. */
export type FamilyBEnvelope1Body = Extract<FamilyBErrorBody, { success: false }>;
/** Envelope 2 bodies: `{version, status: "ERROR", error: {errorCode, message}}`. */
export type FamilyBEnvelope2Body = Extract<FamilyBErrorBody, { status: "ERROR" }>;
export type FamilyBEnvelope1Code = FamilyBEnvelope1Body["error"]["code"];
export type FamilyBEnvelope2Code = FamilyBEnvelope2Body["error"]["errorCode"];
export type FamilyBErrorCode = FamilyBEnvelope1Code | FamilyBEnvelope2Code;

/** Common part of both family B error classes. */
export abstract class FamilyBApiError extends PaymentClientError {
  override name = "FamilyBApiError";
  readonly kind = "family-b-api";
  abstract readonly envelope: 1 | 2;
  abstract readonly code: FamilyBErrorCode;
  readonly status: number;
  readonly response: Response;
  readonly rateLimit: RateLimitInfo | undefined;
  constructor(message: string, response: Response) {
    super(message);
    this.status = response.status;
    this.response = response;
    this.rateLimit = readRateLimit(response);
  }
}

/**
 * Envelope 1's message and details on one line: the message says what kind of refusal
 * (`The request is invalid.`), the details say why (`body/address/postalCode: must match ...`).
 */
function envelope1Text(message: string, details: unknown): string {
  const said = typeof details === "string" ? details.trim() : "";
  if (said === "" || said === message.trim()) return message;
  return `${message.trim().replace(/[.:;\s]+$/, "")}: ${causeText(said, "error.details")}`;
}

/** Envelope 1 error (`error.code`). */
export class FamilyBEnvelope1Error extends FamilyBApiError {
  override name = "FamilyBEnvelope1Error";
  readonly envelope = 1 as const;
  readonly code: FamilyBEnvelope1Code;
  /** The server's `error.details`, whole (the message may shorten it). */
  readonly details: string;
  readonly body: FamilyBEnvelope1Body;
  constructor(body: FamilyBEnvelope1Body, response: Response) {
    super(`HTTP ${response.status} ${body.error.code}: ${envelope1Text(body.error.message, body.error.details)}`, response);
    this.code = body.error.code;
    this.details = body.error.details;
    this.body = body;
  }
}

/** Envelope 2 error (`error.errorCode`, also exposed as `code`). */
export class FamilyBEnvelope2Error extends FamilyBApiError {
  override name = "FamilyBEnvelope2Error";
  readonly envelope = 2 as const;
  readonly code: FamilyBEnvelope2Code;
  readonly errorCode: FamilyBEnvelope2Code;
  /** Semantic version of the interface that produced the error. */
  readonly version: string;
  readonly body: FamilyBEnvelope2Body;
  constructor(body: FamilyBEnvelope2Body, response: Response) {
    super(`HTTP ${response.status} ${body.error.errorCode}: ${body.error.message}`, response);
    this.code = body.error.errorCode;
    this.errorCode = body.error.errorCode;
    this.version = body.version;
    this.body = body;
  }
}

/** A family B error: `switch (error.code)` is checked against the contract's codes. */
export type FamilyBError = FamilyBEnvelope1Error | FamilyBEnvelope2Error;

export function isFamilyBError(value: unknown): value is FamilyBError {
  return value instanceof FamilyBEnvelope1Error || value instanceof FamilyBEnvelope2Error;
}

function errorField(body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  return typeof error === "object" && error !== null ? (error as Record<string, unknown>) : undefined;
}

/** The error to throw for a failed family B call, by the envelope the body uses. */
export function familyBErrorFrom(body: unknown, response: Response): FamilyBError | UnexpectedResponseError {
  const error = errorField(body);
  if (typeof error?.errorCode === "string") return new FamilyBEnvelope2Error(body as FamilyBEnvelope2Body, response);
  if (typeof error?.code === "string") return new FamilyBEnvelope1Error(body as FamilyBEnvelope1Body, response);
  return new UnexpectedResponseError(response.status, body, response, readRateLimit(response));
}
