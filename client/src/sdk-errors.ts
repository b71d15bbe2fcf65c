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
import { PaymentClientError, UnexpectedResponseError } from "./errors.ts";
import { readRateLimit, type RateLimitInfo } from "./rate-limit.ts";

/** Every error body family B can answer with. */
export type SdkErrorBody = ErrorBodies<operations>;
/** Envelope 1 bodies: `{success: false, error: {code, message, details}}`. */
export type SdkEnvelope1Body = Extract<SdkErrorBody, { success: false }>;
/** Envelope 2 bodies: `{version, status: "ERROR", error: {errorCode, message}}`. */
export type SdkEnvelope2Body = Extract<SdkErrorBody, { status: "ERROR" }>;
export type SdkEnvelope1Code = SdkEnvelope1Body["error"]["code"];
export type SdkEnvelope2Code = SdkEnvelope2Body["error"]["errorCode"];
export type SdkErrorCode = SdkEnvelope1Code | SdkEnvelope2Code;

/** Common part of both family B error classes. */
export abstract class SdkApiError extends PaymentClientError {
  override name = "SdkApiError";
  readonly kind = "sdk-api";
  abstract readonly envelope: 1 | 2;
  abstract readonly code: SdkErrorCode;
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

/** Envelope 1 error (`error.code`). */
export class SdkEnvelope1Error extends SdkApiError {
  override name = "SdkEnvelope1Error";
  readonly envelope = 1 as const;
  readonly code: SdkEnvelope1Code;
  readonly details: string;
  readonly body: SdkEnvelope1Body;
  constructor(body: SdkEnvelope1Body, response: Response) {
    super(`HTTP ${response.status} ${body.error.code}: ${body.error.message}`, response);
    this.code = body.error.code;
    this.details = body.error.details;
    this.body = body;
  }
}

/** Envelope 2 error (`error.errorCode`, also exposed as `code`). */
export class SdkEnvelope2Error extends SdkApiError {
  override name = "SdkEnvelope2Error";
  readonly envelope = 2 as const;
  readonly code: SdkEnvelope2Code;
  readonly errorCode: SdkEnvelope2Code;
  /** Semantic version of the interface that produced the error. */
  readonly version: string;
  readonly body: SdkEnvelope2Body;
  constructor(body: SdkEnvelope2Body, response: Response) {
    super(`HTTP ${response.status} ${body.error.errorCode}: ${body.error.message}`, response);
    this.code = body.error.errorCode;
    this.errorCode = body.error.errorCode;
    this.version = body.version;
    this.body = body;
  }
}

/** A family B error: `switch (error.code)` is checked against the contract's codes. */
export type SdkError = SdkEnvelope1Error | SdkEnvelope2Error;

export function isSdkError(value: unknown): value is SdkError {
  return value instanceof SdkEnvelope1Error || value instanceof SdkEnvelope2Error;
}

function errorField(body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  return typeof error === "object" && error !== null ? (error as Record<string, unknown>) : undefined;
}

/** The error to throw for a failed family B call, by the envelope the body uses. */
export function sdkErrorFrom(body: unknown, response: Response): SdkError | UnexpectedResponseError {
  const error = errorField(body);
  if (typeof error?.errorCode === "string") return new SdkEnvelope2Error(body as SdkEnvelope2Body, response);
  if (typeof error?.code === "string") return new SdkEnvelope1Error(body as SdkEnvelope1Body, response);
  return new UnexpectedResponseError(response.status, body, response, readRateLimit(response));
}
