/**
 * Rate limits per account and family (the Limits table; decision D09 for family A, which has
 * windows of its own; decision D27 for plans). Every request of an account counts against the
 * general limit of its key's family; PIX creations
 * (POST /v1/charges, POST /pix, POST /pix/payment), transaction creations (POST
 * /transactions) and queries (GET of PIX charges and transactions) also count against their
 * own limit. A request is admitted only if no limit it counts against is exhausted, and a
 * refused request (429) consumes nothing.
 *
 * Windows are fixed, aligned to multiples of the window length on the base clock (real time;
 * an account's clock control does not move them). The headers describe the limit closest to
 * exhaustion for this request: Limit, what is left after it (never negative) and the Unix time
 * at which its window renews; a 429 adds Retry-After, the whole seconds until then (at least 1).
 *
 * The counters are behind the store (`SandboxStore.admit`): in memory for SQLite
 * (rate-limit-counter.ts), in a table shared by every instance for PostgreSQL.
 *
 * Requests without a valid key have no account: they are counted per client address
 * against the general limit, so that 401 responses carry the same headers.
 */
import type { RateLimitPlan } from "./plans.ts";
import type { Admission, RateLimitBucket } from "./store/types.ts";

type BucketName = Exclude<keyof RateLimitPlan, "windowSeconds">;

const OPERATION_BUCKETS: Record<string, BucketName> = {
  createCharge: "pixCreations",
  createPixCharge: "pixCreations",
  createPixPayment: "pixCreations",
  createTransaction: "transactionCreations",
  getPixCharge: "queries",
  getPixQrCode: "queries",
  listTransactions: "queries",
  getTransaction: "queries",
  getTransactionStatus: "queries",
};

export interface RateDecision {
  admitted: boolean;
  headers: Record<string, string>;
}

/** Whose windows a request with a valid key counts in: its account's, of its family (D09). */
export function rateSubject(key: { accountId: string; family: string }): string {
  return `${key.accountId}:${key.family}`;
}

/** The buckets a request of `subject` (`rateSubject`, or `anonymous:<address>`) counts against, in the window of `nowMs`. */
export function rateBuckets(plan: RateLimitPlan, subject: string, operationId: string | undefined, nowMs: number): { windowStartMs: number; buckets: RateLimitBucket[] } {
  const windowMs = plan.windowSeconds * 1000;
  const windowStartMs = Math.floor(nowMs / windowMs) * windowMs;
  const specific = operationId ? OPERATION_BUCKETS[operationId] : undefined;
  const general = { key: `${subject}|general`, limit: plan.general };
  return { windowStartMs, buckets: specific ? [{ key: `${subject}|${specific}`, limit: plan[specific] }, general] : [general] };
}

/** The decision and headers of a request charged (or refused) by the store's counters. */
export function rateDecision(plan: RateLimitPlan, windowStartMs: number, buckets: readonly RateLimitBucket[], outcome: Pick<Admission, "admitted" | "counts">, nowMs: number): RateDecision {
  const windowMs = plan.windowSeconds * 1000;
  // The limit to report: the one with the least left (the specific limit first on a tie, being
  // listed first). On a refusal that is an exhausted one: it has none left, the others some.
  let chosen = 0;
  for (let i = 1; i < buckets.length; i++) {
    if (buckets[i].limit - outcome.counts[i] < buckets[chosen].limit - outcome.counts[chosen]) chosen = i;
  }
  const resetMs = windowStartMs + windowMs;
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(buckets[chosen].limit),
    "X-RateLimit-Remaining": String(Math.max(0, buckets[chosen].limit - outcome.counts[chosen])),
    "X-RateLimit-Reset": String(Math.floor(resetMs / 1000)),
  };
  if (!outcome.admitted) headers["Retry-After"] = String(Math.max(1, Math.ceil((resetMs - nowMs) / 1000)));
  return { admitted: outcome.admitted, headers };
}
