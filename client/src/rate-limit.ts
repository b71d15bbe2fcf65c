/**
 * Rate-limit information of a response: `X-RateLimit-Limit`, `X-RateLimit-Remaining`,
 * `X-RateLimit-Reset` (Unix timestamp, seconds) on any response, and `Retry-After` (seconds)
 * on a 429. Family B publishes these headers; family A uses the same ones (decision D09).
 */

export interface RateLimitInfo {
  /** Maximum requests in the current window. */
  limit?: number;
  /** Requests left in the current window. */
  remaining?: number;
  /** Unix timestamp (seconds) at which the window renews. */
  reset?: number;
  /** Seconds to wait before retrying, from `Retry-After` (sent with 429). */
  retryAfter?: number;
}

function integerHeader(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === "") return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

/** Reads the rate-limit headers of a response; undefined when it carries none of them. */
export function readRateLimit(source: Response | Headers): RateLimitInfo | undefined {
  const headers = source instanceof Headers ? source : source.headers;
  const info: RateLimitInfo = {};
  const limit = integerHeader(headers, "X-RateLimit-Limit");
  const remaining = integerHeader(headers, "X-RateLimit-Remaining");
  const reset = integerHeader(headers, "X-RateLimit-Reset");
  const retryAfter = integerHeader(headers, "Retry-After");
  if (limit !== undefined) info.limit = limit;
  if (remaining !== undefined) info.remaining = remaining;
  if (reset !== undefined) info.reset = reset;
  if (retryAfter !== undefined) info.retryAfter = retryAfter;
  return limit === undefined && remaining === undefined && reset === undefined && retryAfter === undefined ? undefined : info;
}

/**
 * Remembers the rate-limit information of the latest response a client received, so callers
 * can read `client.rateLimit` after each call (each result's `response` has it too). Only
 * the headers are kept; they are parsed when someone asks.
 */
export function rateLimitTracker(): { record(response: Response): void; latest(): RateLimitInfo | undefined } {
  let headers: Headers | undefined;
  return {
    record: (response) => {
      headers = response.headers;
    },
    latest: () => (headers === undefined ? undefined : readRateLimit(headers)),
  };
}
