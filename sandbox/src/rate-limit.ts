/**
 * Rate limits per account (the Limits table; decision D09 for family A; decision D27 for
 * plans). Every request of an account counts against the general limit; PIX creations
 * (POST /v1/charges, POST /pix, POST /pix/payment), transaction creations (POST
 * /transactions) and queries (GET of PIX charges and transactions) also count against their
 * own limit. A request is admitted only if no limit it counts against is exhausted, and a
 * refused request (429) consumes nothing.
 *
 * Windows are fixed, aligned to multiples of the window length on the account's sandbox
 * clock. The headers describe the limit closest to exhaustion for this request: Limit, what
 * is left after it (never negative) and the Unix time at which its window renews; a 429 adds
 * Retry-After, the whole seconds until then (at least 1).
 *
 * The counters themselves are in rate-limit-counter.ts (in memory).
 *
 * Requests without a valid key have no account: they are counted per client address
 * against the general limit, so that 401 responses carry the same headers.
 */
import type { SandboxApp } from "./app.ts";
import type { RateLimitPlan } from "./plans.ts";

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

/** Counts a request of `subject` (an account id, or `anonymous:<address>`). */
export function countRequest(app: SandboxApp, subject: string, operationId: string | undefined, nowMs: number): RateDecision {
  const plan = app.plan;
  const windowMs = plan.windowSeconds * 1000;
  const windowStartMs = Math.floor(nowMs / windowMs) * windowMs;
  const names: BucketName[] = [];
  const specific = operationId ? OPERATION_BUCKETS[operationId] : undefined;
  if (specific) names.push(specific);
  names.push("general");
  const buckets = names.map((name) => ({ key: `${subject}|${name}`, limit: plan[name] }));
  const outcome = app.rateLimits.consume(windowStartMs, buckets);

  // The limit to report: the exhausted one on a refusal, else the one with the least left
  // (the specific limit first on a tie, being listed first).
  let chosen = 0;
  if (!outcome.admitted) {
    chosen = Math.max(0, buckets.findIndex((b, i) => outcome.counts[i] + 1 > b.limit));
  } else {
    for (let i = 1; i < buckets.length; i++) {
      if (buckets[i].limit - outcome.counts[i] < buckets[chosen].limit - outcome.counts[chosen]) chosen = i;
    }
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
