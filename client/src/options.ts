/** Options both family clients accept. */
import type { FetchLike } from "./client-request.ts";
import type { RetryOptions } from "./retry.ts";

export interface CommonClientOptions {
  /** The API key, sent in the family's API key header on every request (never in a URL). */
  apiKey: string;
  /** Retry policy for 429, 503 and network errors; `false` turns retries off. */
  retry?: RetryOptions | false;
  /**
   * The fetch to use (default `globalThis.fetch`), e.g. a wrapped fetch or a test double.
   * Called as `fetch(url, init)` (or `fetch(request)` when a middleware returned a Request).
   */
  fetch?: FetchLike;
  /** Extra headers sent with every request (the API key header cannot be overridden). */
  headers?: Record<string, string>;
  /** Generates idempotency keys when a call gives none (default: `crypto.randomUUID()`). */
  idempotencyKey?: () => string;
}
