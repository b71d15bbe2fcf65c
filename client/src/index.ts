/**
 * Typed clients of the Payment Collection API, built on openapi-fetch and the types generated
 * from the contract. Runs in Node 20+ and in browsers (no Node-only imports).
 */
export { createFamilyAClient, defaultFamilyABaseUrl } from "./family-a-client.ts";
export type { FamilyAClient, FamilyAClientOptions, FamilyAPaths } from "./family-a-client.ts";
export { createFamilyBClient, resolveFamilyBBaseUrl, familyBEnvironmentUrls } from "./family-b-client.ts";
export type { FamilyBClient, FamilyBClientOptions, FamilyBEnvironment, FamilyBPaths } from "./family-b-client.ts";
export type { CommonClientOptions } from "./options.ts";

export { FamilyAApiError } from "./family-a-errors.ts";
export type { FamilyAErrorCode, FamilyAProblem } from "./family-a-errors.ts";
export { FamilyBApiError, FamilyBEnvelope1Error, FamilyBEnvelope2Error, isFamilyBError } from "./family-b-errors.ts";
export type {
  FamilyBError,
  FamilyBErrorBody,
  FamilyBErrorCode,
  FamilyBEnvelope1Body,
  FamilyBEnvelope1Code,
  FamilyBEnvelope2Body,
  FamilyBEnvelope2Code,
} from "./family-b-errors.ts";
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
