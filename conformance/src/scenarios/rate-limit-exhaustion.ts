/**
 * Rate-limit exhaustion (family B): once an account's limit is used up, requests get 429 with
 * `Retry-After` of at least one second, consistent with `X-RateLimit-Reset`; another account
 * is not affected. Runs in the exhaust stage, on the target's `rateLimits` key when it names one
 * (--no-exhaust skips it); the limit is read from X-RateLimit-Limit (--exhaust-cap bounds it).
 */
import { NotApplicable } from "../core/check-context.ts";
import { exhaustLimit } from "../core/exhaust.ts";
import type { Scenario } from "../core/scenario.ts";
import { describe, is2xx, sender } from "./support.ts";

/** Seconds of disagreement tolerated between Retry-After and Reset (clocks, rounding). */
const SLACK_SECONDS = 2;

export const rateLimitExhaustion: Scenario = {
  id: "family-b/rate-limits/exhaustion",
  family: "family-b",
  profile: "seed",
  stage: "exhaust",
  title: "a used-up limit gives 429 with Retry-After >= 1 matching Reset; another account is unaffected",
  statements: ["B-LIMITS-STATUS-429", "B-LIMITS-HEADER-retry-after", "B-LIMITS-HEADER-rate-limit", "B-LIMITS-LIMIT-general"],
  covers: [{ operationId: "getHealth", status: "429" }],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const key = ctx.rateLimitKey();
    if (key === "primary") ctx.keyValue("secondAccount");
    let limited = await send("getHealth", { key, expect429: true });
    if (limited.status !== 429) {
      const reason = await exhaustLimit(ctx, { cap: 1000 });
      if (reason) throw new NotApplicable(reason);
      limited = await send("getHealth", { key, expect429: true });
    }
    check.that(limited.status === 429, `after the limit was used up the next request answered ${describe(limited)}, expected 429`);
    check.response("getHealth", "429", limited);
    const retryAfter = Number(limited.headers["retry-after"]);
    check.that(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After ${limited.headers["retry-after"] ?? "(absent)"} is not an integer of at least 1 second`);
    const reset = Number(limited.headers["x-ratelimit-reset"]);
    if (limited.headers["x-ratelimit-reset"] !== undefined && Number.isInteger(retryAfter)) {
      const untilReset = reset - Math.floor(Date.now() / 1000);
      check.that(Math.abs(untilReset - retryAfter) <= SLACK_SECONDS, `Retry-After ${retryAfter} s disagrees with X-RateLimit-Reset, ${untilReset} s away`);
    }
    if (limited.headers["x-ratelimit-remaining"] !== undefined) {
      check.that(limited.headers["x-ratelimit-remaining"] === "0", `a 429 says X-RateLimit-Remaining ${limited.headers["x-ratelimit-remaining"]}`);
    }
    const other = key === "rateLimits" ? "primary" : "secondAccount";
    const unaffected = await send("getHealth", { key: other });
    check.that(is2xx(unaffected), `another account (${other}) answered ${describe(unaffected)} while this one was limited`);
  },
};
