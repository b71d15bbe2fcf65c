/**
 * "Any response, success or error, may carry X-RateLimit-Limit, X-RateLimit-Remaining and
 * X-RateLimit-Reset" (family B). When it does, the three must tell one story over a series of
 * counted requests: Limit constant, Remaining one less per request and never negative, Reset an
 * integer Unix time that does not lie in the past. A window that renews between two requests
 * (Reset moves on) starts the count again. The limit is read, never assumed (plans differ).
 */
import { NotApplicable } from "../core/check-context.ts";
import type { Scenario } from "../core/scenario.ts";
import { sender } from "./support.ts";

const REQUESTS = 6;

interface Reading {
  limit: number;
  remaining: number;
  reset: number;
}

const integer = (value: string | undefined) => (value !== undefined && /^\d+$/.test(value.trim()) ? Number(value) : undefined);

export const rateLimitHeadersConsistent: Scenario = {
  id: "family-b/rate-limits/headers-consistent",
  family: "family-b",
  profile: "seed",
  title: "X-RateLimit-Limit, -Remaining and -Reset agree over a series of requests",
  statements: ["B-LIMITS-HEADER-rate-limit", "B-LIMITS-RULE-plan", "B-LIMITS-RULE-family-b"],
  covers: [{ operationId: "getHealth", status: "200" }],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const key = ctx.rateLimitKey();
    const readings: Reading[] = [];
    let announced = false;
    for (let i = 0; i < REQUESTS; i += 1) {
      const response = await send("getHealth", { key });
      check.response("getHealth", "200", response, `request ${i + 1}`);
      const h = response.headers;
      if (h["x-ratelimit-limit"] === undefined && h["x-ratelimit-remaining"] === undefined && h["x-ratelimit-reset"] === undefined) continue;
      announced = true;
      const reading = { limit: integer(h["x-ratelimit-limit"]), remaining: integer(h["x-ratelimit-remaining"]), reset: integer(h["x-ratelimit-reset"]) };
      const now = Math.floor(Date.now() / 1000);
      check.that(reading.limit !== undefined && reading.limit > 0, `request ${i + 1}: X-RateLimit-Limit ${h["x-ratelimit-limit"]} is not a positive integer`);
      check.that(reading.remaining !== undefined, `request ${i + 1}: X-RateLimit-Remaining ${h["x-ratelimit-remaining"]} is not a non-negative integer`);
      check.that(reading.reset !== undefined && reading.reset >= now - 2, `request ${i + 1}: X-RateLimit-Reset ${h["x-ratelimit-reset"]} is not a Unix time to come`);
      if (reading.limit === undefined || reading.remaining === undefined || reading.reset === undefined) continue;
      check.that(reading.remaining <= reading.limit, `request ${i + 1}: Remaining ${reading.remaining} above Limit ${reading.limit}`);
      readings.push(reading as Reading);
    }
    // Headers that are there but not integers are the problems recorded above, not an absence.
    if (!announced) throw new NotApplicable("no response carried X-RateLimit-* headers (the document: responses may carry them)");
    for (let i = 1; i < readings.length; i += 1) {
      const [before, after] = [readings[i - 1]!, readings[i]!];
      check.that(after.limit === before.limit, `X-RateLimit-Limit changed from ${before.limit} to ${after.limit} between two requests`);
      if (after.reset !== before.reset) continue; // a new window
      check.that(after.remaining === before.remaining - 1, `X-RateLimit-Remaining went from ${before.remaining} to ${after.remaining} for one counted request in one window`);
    }
  },
};
