/**
 * Verification of webhook deliveries (decisions D24 and D25): Standard Webhooks 1.0. A
 * delivery carries `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature`
 * (space-separated `v1,<base64 HMAC-SHA256>` entries over `"<id>.<timestamp>.<body>"`, keyed
 * with the decoded `whsec_` secret). `verifyWebhook` checks the timestamp against a tolerance,
 * accepts the delivery if any `v1` entry matches (several appear during a secret rotation),
 * and returns the typed event, or throws one typed error per failed check.
 *
 * Built on the Standard Webhooks reference library (`standardwebhooks`, plain JavaScript with
 * no Node-only import, so it runs in browsers too): its `verify` checks the signature in
 * constant time and its `sign` makes signatures. Its 1.0.0 API takes no tolerance and no clock
 * (it applies 5 minutes on the real clock), so the timestamp check stays ours and runs first,
 * with the caller's `toleranceSeconds` and `now`; when the library's fixed window then refuses
 * a timestamp ours accepted, the signature is checked with the library's `sign` instead.
 */
import { Webhook, WebhookVerificationError as LibraryVerificationError } from "standardwebhooks";
import type { components as FamilyA } from "../../generated/types/family-a.ts";
import type { components as FamilyB } from "../../generated/types/family-b.ts";
import { PaymentClientError } from "./errors.ts";
/** `charge.paid`: the payment of a charge was received (family A). */
export type ChargePaidEvent = FamilyA["schemas"]["ChargePaidEvent"];
/** `boleto.paid`: a boleto became CONFIRMED (family B). */
export type BoletoPaidEvent = FamilyB["schemas"]["BoletoPaidEvent"];
/** `boleto.canceled`: a boleto was cancelled (family B). */
export type BoletoCanceledEvent = FamilyB["schemas"]["BoletoCanceledEvent"];
/**
 * Every event the contract defines, discriminated by `type`. Event types added later arrive
 * with a `type` outside this list: switch on `type` with a default branch that acknowledges.
 */
export type WebhookEvent = ChargePaidEvent | BoletoPaidEvent | BoletoCanceledEvent;

/** Headers as a fetch `Headers`, a plain object, or Node's `IncomingHttpHeaders`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** Largest accepted distance between `webhook-timestamp` and now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The receiver's clock (default `Date.now`). */
  now?: () => number;
}

/** Why a delivery was refused; `kind` tells which check failed. */
export class WebhookVerificationError extends PaymentClientError {
  override name = "WebhookVerificationError";
  constructor(
    readonly kind: "missing-headers" | "bad-signature" | "timestamp-out-of-tolerance" | "bad-payload",
    message: string,
  ) {
    super(message);
  }
}

/** A required header is absent or malformed. */
export class WebhookHeadersError extends WebhookVerificationError {
  override name = "WebhookHeadersError";
  constructor(message: string) {
    super("missing-headers", message);
  }
}

/** No `v1` signature of the delivery matches the secret: not sent by the service, or altered. */
export class WebhookSignatureError extends WebhookVerificationError {
  override name = "WebhookSignatureError";
  constructor() {
    super("bad-signature", "No webhook-signature entry matches the secret.");
  }
}

/** `webhook-timestamp` is further from now than the tolerance (a replay, or a wrong clock). */
export class WebhookTimestampError extends WebhookVerificationError {
  override name = "WebhookTimestampError";
  constructor(
    /** The delivery's `webhook-timestamp`, Unix seconds. */
    readonly timestamp: number,
    /** Now on the receiver's clock, Unix seconds. */
    readonly now: number,
    readonly toleranceSeconds: number,
  ) {
    super("timestamp-out-of-tolerance", `webhook-timestamp ${timestamp} is ${Math.abs(now - timestamp)} s away from now (tolerance ${toleranceSeconds} s).`);
  }
}

/** The signature matched but the body is not an event `{type, timestamp, data}`. */
export class WebhookPayloadError extends WebhookVerificationError {
  override name = "WebhookPayloadError";
  constructor(message: string) {
    super("bad-payload", message);
  }
}

const DEFAULT_TOLERANCE_SECONDS = 300;
/** What the library's messages mean (standardwebhooks 1.0.0, `WebhookVerificationError`). */
const LIBRARY_NO_MATCH = "No matching signature found";
const LIBRARY_TIMESTAMP = /^Message timestamp too (old|new)$/;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(" ") : value;
  }
  return undefined;
}

/** The library's signer for a `whsec_` secret; a secret it cannot decode is a TypeError. */
function webhookOf(secret: string): Webhook {
  try {
    return new Webhook(secret);
  } catch {
    throw new TypeError("The webhook secret is not `whsec_` followed by base64.");
  }
}

/** Compares two strings in time that does not depend on where they differ. */
function constantTimeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let difference = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) difference |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return difference === 0;
}

/** Whether a `v1` entry of `signatures` is the library's signature of the delivery. */
function signedWith(webhook: Webhook, id: string, timestamp: number, body: string, signatures: string): boolean {
  const expected = webhook.sign(id, new Date(timestamp * 1000), body).slice("v1,".length);
  return signatures
    .split(" ")
    .map((entry) => entry.split(","))
    .some(([version, signature]) => version === "v1" && signature !== undefined && constantTimeEqual(signature, expected));
}

/** The `v1` signature (base64) of a delivery under `secret` (`whsec_...`). */
export async function signWebhook(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  return webhookOf(secret).sign(id, new Date(timestamp * 1000), body).slice("v1,".length);
}

/** The event of a verified body, or WebhookPayloadError. */
function eventOf(parsed: unknown): WebhookEvent {
  const shape = parsed as { type?: unknown; timestamp?: unknown; data?: unknown } | null;
  if (!shape || typeof shape !== "object" || typeof shape.type !== "string" || typeof shape.timestamp !== "string" || !("data" in shape)) {
    throw new WebhookPayloadError("The webhook body is not an event {type, timestamp, data}.");
  }
  return parsed as WebhookEvent;
}

function parseBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new WebhookPayloadError("The webhook body is not JSON.");
  }
}

/**
 * Verifies one delivery and returns its event. `rawBody` must be the exact bytes received
 * (read the body as text or bytes before any JSON parsing: a re-serialised body no longer
 * matches its signature). Throws `WebhookHeadersError`, `WebhookTimestampError`,
 * `WebhookSignatureError` or `WebhookPayloadError` (all `WebhookVerificationError`).
 * De-duplicate on `webhook-id`: a delivery may be repeated, always with the same id.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const id = header(headers, "webhook-id");
  const timestampHeader = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestampHeader || !signatures) {
    throw new WebhookHeadersError("A webhook delivery needs the webhook-id, webhook-timestamp and webhook-signature headers.");
  }
  if (!/^\d+$/.test(timestampHeader)) throw new WebhookHeadersError("webhook-timestamp is not a Unix time in seconds.");
  const timestamp = Number(timestampHeader);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = Math.floor((options.now ?? Date.now)() / 1000);
  if (Math.abs(now - timestamp) > tolerance) throw new WebhookTimestampError(timestamp, now, tolerance);

  const body = typeof rawBody === "string" ? rawBody : new TextDecoder("utf-8", { fatal: false }).decode(rawBody);
  const webhook = webhookOf(secret);
  let parsed: unknown;
  try {
    parsed = webhook.verify(body, { "webhook-id": id, "webhook-timestamp": timestampHeader, "webhook-signature": signatures });
  } catch (error) {
    if (error instanceof SyntaxError) throw new WebhookPayloadError("The webhook body is not JSON.");
    if (!(error instanceof LibraryVerificationError)) throw error;
    if (error.message === LIBRARY_NO_MATCH) throw new WebhookSignatureError();
    // The library's fixed window refused a timestamp the caller's tolerance and clock accept.
    if (!LIBRARY_TIMESTAMP.test(error.message)) throw new WebhookHeadersError(`The webhook headers were refused: ${error.message}.`);
    if (!signedWith(webhook, id, timestamp, body, signatures)) throw new WebhookSignatureError();
    parsed = parseBody(body);
  }
  return eventOf(parsed);
}
