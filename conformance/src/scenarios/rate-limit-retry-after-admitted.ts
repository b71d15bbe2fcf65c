/**
 * A 429's `Retry-After` is the "seconds to wait before retrying" (family B), and a limit counts
 * the requests of one window ("100 requests/min"; `X-RateLimit-Reset`, "at which the window
 * renews"): once an account's limit is used up, the same request sent again after waiting the
 * announced seconds must be admitted. A server that keeps counting the spent window, or that
 * announces a wait shorter than the one its limit needs, refuses it. Runs in the exhaust stage
 * on the target's `rateLimits` key (else the primary one); a wait longer than the run may make
 * (--max-wait) is not applicable.
 */
import { NotApplicable } from "../core/check-context.ts";
import { exhaustLimit } from "../core/exhaust.ts";
import type { Scenario } from "../core/scenario.ts";
import { describe, is2xx, sender } from "./support.ts";

/** Beyond the announced seconds: the granularity of the clocks that measure them. */
const SLACK_MS = 250;

export const rateLimitRetryAfterAdmitted: Scenario = {
  id: "family-b/rate-limits/retry-after-admitted",
  family: "family-b",
  profile: "seed",
  stage: "exhaust",
  waitsForWindow: true,
  title: "a request refused by a used-up limit is admitted once retried after its Retry-After",
  statements: ["B-LIMITS-HEADER-retry-after", "B-LIMITS-HEADER-rate-limit", "B-LIMITS-LIMIT-general"],
  covers: [{ operationId: "getHealth", status: "429" }],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const key = ctx.rateLimitKey();
    let limited = await send("getHealth", { key, expect429: true });
    if (limited.status !== 429) {
      const reason = await exhaustLimit(ctx, { cap: 1000 });
      if (reason) throw new NotApplicable(reason);
      limited = await send("getHealth", { key, expect429: true });
    }
    if (limited.status !== 429) throw new NotApplicable(`after the limit was used up the next request answered ${describe(limited)}`);
    const refusedAt = Date.now();
    const retryAfter = limited.headers["retry-after"];
    if (retryAfter === undefined || !/^\d+$/.test(retryAfter.trim())) throw new NotApplicable(`the 429 carried Retry-After ${retryAfter ?? "(absent)"}, no number of seconds to wait`);
    const retryAt = refusedAt + Number(retryAfter) * 1000 + SLACK_MS;
    await ctx.pacer.waitUntil(retryAt, `the Retry-After of a 429 (${retryAfter} s)`);
    if (Date.now() < retryAt) throw new NotApplicable(`Retry-After ${retryAfter} s is longer than this run may wait (--max-wait)`);
    const retried = await send("getHealth", { key, expect429: true });
    check.that(is2xx(retried), `retried ${Number(retryAfter)} s after a 429 that said Retry-After ${retryAfter}, the request answered ${describe(retried)}${retried.status === 429 ? ` (Retry-After ${retried.headers["retry-after"] ?? "absent"})` : ""}`);
  },
};
