/**
 * Typed clients of the Payment Collection API, built on openapi-fetch and the types generated
 * from the contract. Runs in Node 20+ and in browsers (no Node-only imports).
 */
export { createChargesClient, defaultChargesBaseUrl } from "./charges-client.ts";
export type { ChargesClient, ChargesClientOptions, ChargesPaths } from "./charges-client.ts";
export { createSdkClient, resolveSdkBaseUrl, sdkEnvironmentUrls } from "./sdk-client.ts";
export type { SdkClient, SdkClientOptions, SdkEnvironment, SdkPaths } from "./sdk-client.ts";
export type { CommonClientOptions } from "./options.ts";

export { ChargesApiError } from "./charges-errors.ts";
export type { ChargesErrorCode, ChargesProblem } from "./charges-errors.ts";
export { SdkApiError, SdkEnvelope1Error, SdkEnvelope2Error, isSdkError } from "./sdk-errors.ts";
export type {
  SdkError,
  SdkErrorBody,
  SdkErrorCode,
  SdkEnvelope1Body,
  SdkEnvelope1Code,
  SdkEnvelope2Body,
  SdkEnvelope2Code,
} from "./sdk-errors.ts";
export { ApiKeyInUrlError, IdempotencyKeyError, NetworkError, PaymentClientError, UnexpectedResponseError } from "./errors.ts";

export { readRateLimit } from "./rate-limit.ts";
export type { RateLimitInfo } from "./rate-limit.ts";
export type { RetryEvent, RetryOptions } from "./retry.ts";
export { generateIdempotencyKey } from "./idempotency.ts";
export { envelopeData } from "./envelope.ts";
export type { EnvelopeData } from "./envelope.ts";
export type { ErrorBodies, ErrorBodyOf } from "./contract-types.ts";

export {
  signWebhook,
  verifyWebhook,
  WebhookHeadersError,
  WebhookPayloadError,
  WebhookSignatureError,
  WebhookTimestampError,
  WebhookVerificationError,
} from "./webhooks.ts";
export type {
  BoletoCanceledEvent,
  BoletoPaidEvent,
  ChargePaidEvent,
  VerifyWebhookOptions,
  WebhookEvent,
  WebhookHeaders,
} from "./webhooks.ts";
