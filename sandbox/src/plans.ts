/**
 * Rate-limit plans. The published numbers (Limits table) are the default plan's (decision
 * D27); `generous` is for test runs that must never meet a limit; `short-windows` has the
 * published figures over windows of a few seconds, so that a run that must wait for a window
 * to renew (the conformance suites using up every limit) waits seconds instead of a minute:
 * `npm start` runs on it. Chosen over more accounts (one per limit to use up) because the
 * suites send more requests on the primary account than a published minute allows (the
 * fixtures and the records the checks read live there), which no spreading over other accounts
 * removes; with short windows every check keeps its account, and the target declares the window
 * (`familyB.plan.windowSeconds`), so the announced limits and resets are still held to a plan.
 * The published minute stays tested by the sandbox's own tests (test/rate-limits.test.ts).
 * Limits are per account and per window of `windowSeconds` on the account's sandbox clock.
 */
export interface RateLimitPlan {
  /** Window length in seconds (the published limits are per minute). */
  windowSeconds: number;
  /** All requests of an account (family A and B). */
  general: number;
  /** POST /v1/charges, POST /pix and POST /pix/payment (decision D09 for family A). */
  pixCreations: number;
  /** POST /transactions. */
  transactionCreations: number;
  /** GET of transactions and PIX charges. */
  queries: number;
}

export const RATE_LIMIT_PLANS = {
  default: { windowSeconds: 60, general: 100, pixCreations: 30, transactionCreations: 50, queries: 200 },
  "short-windows": { windowSeconds: 5, general: 100, pixCreations: 30, transactionCreations: 50, queries: 200 },
  generous: { windowSeconds: 60, general: 1_000_000, pixCreations: 1_000_000, transactionCreations: 1_000_000, queries: 1_000_000 },
} as const satisfies Record<string, RateLimitPlan>;

export type PlanName = keyof typeof RATE_LIMIT_PLANS;

/** The plan of a name, or a custom plan (the operator's choice, checked at start: lifecycle.ts). */
export function resolvePlan(plan: PlanName | RateLimitPlan): RateLimitPlan {
  return typeof plan === "string" ? RATE_LIMIT_PLANS[plan] : plan;
}
