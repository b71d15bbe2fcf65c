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

/** Counters left untouched this long (real clock) belong to a window that is over. */
const STALE_AFTER_MS = 600_000;
/** How many counters are kept before stale ones are swept. */
const SWEEP_ABOVE = 50_000;

export function createRateLimitCounter(): RateLimitCounter {
  const windows = new Map<string, { windowStartMs: number; count: number; touchedMs: number }>();
  return {
    consume(windowStartMs, buckets) {
      const current = buckets.map((bucket) => {
        const entry = windows.get(bucket.key);
        return entry && entry.windowStartMs === windowStartMs ? entry.count : 0;
      });
      if (buckets.some((bucket, i) => current[i] + 1 > bucket.limit)) return { admitted: false, counts: current };
      const touchedMs = Date.now();
      const counts = current.map((count, i) => {
        windows.set(buckets[i].key, { windowStartMs, count: count + 1, touchedMs });
        return count + 1;
      });
      // Windows are per account clock, so age is measured on the real clock: a counter left
      // untouched for ten minutes belongs to a window that is over.
      if (windows.size > SWEEP_ABOVE) {
        for (const [key, entry] of windows) if (touchedMs - entry.touchedMs > STALE_AFTER_MS) windows.delete(key);
      }
      return { admitted: true, counts };
    },
  };
}
