/**
 * The rate-limit counters of the SQLite store (one process): requests per bucket (an account's
 * or a client address's limit) in the current fixed window, kept in memory. They only matter
 * for the current window, and a restart renewing the windows is harmless in a sandbox.
 * rate-limit.ts decides which buckets a request counts against and what the headers say. The
 * PostgreSQL store keeps them in a table shared by every instance (store/postgres/).
 */
import type { RateLimitBucket } from "./store/types.ts";

export type { RateLimitBucket } from "./store/types.ts";

export interface RateLimitOutcome {
  /** Whether the request was admitted (then every bucket was charged one). */
  admitted: boolean;
  /** Per bucket: requests counted in the window after this request. */
  counts: number[];
}

export interface RateLimitCounter {
  /**
   * Charges one request to every bucket of a window if none would exceed its limit, else
   * to none. Atomic across buckets.
   */
  consume(windowStartMs: number, buckets: readonly RateLimitBucket[]): RateLimitOutcome;
}

/**
 * Only the current window's counts are kept: the first request of a new window drops the
 * counts of the one before, which no later request reads (windows are aligned to multiples of
 * one plan's length on the real clock, so every bucket's current window is the same one).
 */
export function createRateLimitCounter(): RateLimitCounter {
  let slot: { startMs: number; counts: Map<string, number> } | undefined;
  return {
    consume(windowStartMs, buckets) {
      if (slot?.startMs !== windowStartMs) slot = { startMs: windowStartMs, counts: new Map() };
      const kept = slot.counts;
      const current = buckets.map((bucket) => kept.get(bucket.key) ?? 0);
      if (buckets.some((bucket, i) => current[i] + 1 > bucket.limit)) return { admitted: false, counts: current };
      const counts = current.map((count, i) => {
        kept.set(buckets[i].key, count + 1);
        return count + 1;
      });
      return { admitted: true, counts };
    },
  };
}
