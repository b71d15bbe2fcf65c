/**
 * Errors the client raises itself (before or around the HTTP exchange). Errors that carry a
 * service error body live with their family: family-a-errors.ts and family-b-errors.ts.
 */
import type { RateLimitInfo } from "./rate-limit.ts";

/** Longest server explanation an error's message quotes; the whole text stays in a field. */
const MESSAGE_CAUSE_LENGTH = 300;

/**
 * A server's explanation as it goes into an error's message: on one line, whole when short;
 * longer, cut at the last boundary (`; ` between problems, else a space) and saying where the
 * whole text is, so a message never ends in half a word.
 */
export function causeText(text: string, wholeIn: string, max: number = MESSAGE_CAUSE_LENGTH): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const head = flat.slice(0, max);
  const between = head.lastIndexOf("; ");
  const cut = between > max / 2 ? between : head.lastIndexOf(" ");
  const kept = (cut > max / 2 ? head.slice(0, cut) : head).replace(/[\s;,:]+$/, "");
  return `${kept} ... (${flat.length - kept.length} more characters in ${wholeIn})`;
}

/** Base class of every error thrown by this package's clients. */
export class PaymentClientError extends Error {
  override name = "PaymentClientError";
}

/**
 * The URL of a request carried the API key. The request is not sent: the key belongs in its
 * header only, never in a URL (URLs end up in logs, proxies and browser history).
 */
export class ApiKeyInUrlError extends PaymentClientError {
  override name = "ApiKeyInUrlError";
  readonly kind = "api-key-in-url";
  /** The offending URL with the key replaced by `[redacted]`. */
  readonly url: string;
  constructor(redactedUrl: string) {
    super(`Refusing to send a request whose URL carries the API key: ${redactedUrl}`);
    this.url = redactedUrl;
  }
}

/** An idempotency key given by the caller is outside the lengths the contract allows. */
export class IdempotencyKeyError extends PaymentClientError {
  override name = "IdempotencyKeyError";
  readonly kind = "idempotency-key";
  constructor(
    readonly header: string,
    readonly length: number,
    readonly minLength: number,
    readonly maxLength: number | null,
  ) {
    super(`${header} must have ${minLength}${maxLength === null ? " or more" : ` to ${maxLength}`} characters; got ${length}`);
  }
}

interface Caused {
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** An error's message and its causes' ("fetch failed (connect ECONNREFUSED 127.0.0.1:4010)"): fetch's own says only that it failed. */
function withCauses(error: unknown): string {
  const messages: string[] = [];
  for (let err = error as Caused | undefined, depth = 0; err && typeof err === "object" && depth < 5; err = err.cause as Caused | undefined, depth++) {
    // An AggregateError (every address of a host refused) may carry its reasons in `errors` only.
    const own = typeof err.message === "string" && err.message ? err.message : Array.isArray(err.errors) ? String((err.errors[0] as Caused | undefined)?.message ?? "") : "";
    if (own && !messages.includes(own)) messages.push(own);
  }
  if (messages.length === 0) return String(error);
  return messages.length === 1 ? messages[0]! : `${messages[0]} (${messages.slice(1).join(": ")})`;
}

/** The request could not reach the service (after the retries the policy allowed). */
export class NetworkError extends PaymentClientError {
  override name = "NetworkError";
  readonly kind = "network";
  constructor(
    readonly attempts: number,
    options: { cause: unknown },
  ) {
    super(`Request failed after ${attempts} attempt(s): ${withCauses(options.cause)}`, options);
  }
}

/** A non-2xx response whose body is not an error body of the contract (e.g. a proxy's 502 page). */
export class UnexpectedResponseError extends PaymentClientError {
  override name = "UnexpectedResponseError";
  readonly kind = "unexpected-response";
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly response: Response,
    readonly rateLimit: RateLimitInfo | undefined,
  ) {
    const text = body === undefined || body === null || body === "" ? "" : typeof body === "string" ? body : JSON.stringify(body);
    super(`Unexpected HTTP ${status} response${text ? `: ${causeText(text, "error.body", 200)}` : ""}`);
  }
}
