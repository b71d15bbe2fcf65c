/**
 * Uses up the general rate limit of the account the 429 checks use (the target's dedicated
 * `rateLimits` key, else the primary one), so that the next request of any
 * operation is answered 429. The 429 checks run in the last stage of a run for this reason:
 * once a limit is used up, nothing else can be checked on that account until it renews.
 *
 * The limit is read from `X-RateLimit-Limit` (plans differ) rather than assumed to be the
 * document's 100 requests per minute; a limit above `cap` is not exhausted (not applicable).
 */
import type { FamilyContext } from "./check-context.ts";

/** How often a window may renew while the limit is used up (short windows) before giving up. */
const MAX_RENEWALS = 2;

/** The cheapest counted request of each family: it changes nothing on the server. */
export const CHEAP_OPERATION = { "family-a": "getMerchant", "family-b": "getHealth" } as const;

/**
 * The server announced a limit (X-RateLimit-Limit or -Remaining) and answered past it without
 * a 429: a failure of the server, never a reason to call the check not applicable.
 */
export class LimitNotEnforced extends Error {}

export interface ExhaustOptions {
  /** Highest limit the suite agrees to use up (requests per window). */
  cap: number;
  /** Requests sent at once while exhausting. */
  parallel?: number;
}

/**
 * Sends cheap requests until one is answered 429. Resolves to undefined when the limit is used
 * up, or to the reason it could not be (not applicable).
 */
export async function exhaustLimit(ctx: FamilyContext, options: ExhaustOptions): Promise<string | undefined> {
  const operationId = CHEAP_OPERATION[ctx.family];
  const parallel = options.parallel ?? 10;
  const send = () => ctx.send(operationId, { key: ctx.rateLimitKey(), expect429: true, checkId: "exhaust" });
  const first = await send();
  if (first.status === 429) return undefined;
  const limit = Number(first.headers["x-ratelimit-limit"]);
  const remaining = Number(first.headers["x-ratelimit-remaining"]);
  if (Number.isFinite(limit) && limit > options.cap) {
    return `the rate limit is ${limit} requests per window, above the ${options.cap} this run may use up (--exhaust-cap)`;
  }
  // Without headers, try the document's general limit (100 per minute) with a margin.
  const budget = Number.isFinite(remaining) ? remaining + 5 : Number.isFinite(limit) ? limit + 5 : Math.min(options.cap, 150);
  let sent = 1;
  let allowed = budget;
  let renewals = 0;
  let lastRemaining = remaining;
  while (sent < allowed) {
    const batch = Math.min(parallel, allowed - sent);
    const responses = await Promise.all(Array.from({ length: batch }, send));
    sent += batch;
    if (responses.some((r) => r.status === 429)) return undefined;
    const at = responses.findIndex((r) => r.status >= 400);
    const other = responses[at];
    // Past what the server announced as left, the refusal is the limit's: it must be a 429.
    const position = sent - batch + at + 1;
    if (other && Number.isFinite(remaining) && position > remaining + 1) {
      throw new LimitNotEnforced(`request ${position} went past the ${remaining} the server announced as left (X-RateLimit-Remaining) and was answered ${other.status}, not 429`);
    }
    if (other) return `using up the limit stopped: ${ctx.operation(operationId).path} answered ${other.status}`;
    // A window that renewed meanwhile starts the server's count again. Within one window every
    // answer's Remaining is below all those before it; an answer at or above the lowest seen
    // so far is the next window's. The batch's requests, sent at once, may straddle the
    // renewal: its lowest Remaining can still be the old window's, and the new window's next
    // answers below it (seen in a run of .ci/run: 98..92 of the old window, then 99, 98, 97
    // of the new).
    const lefts = responses.map((r) => Number(r.headers["x-ratelimit-remaining"])).filter(Number.isFinite);
    if (lefts.length === 0) continue;
    const newer = Number.isFinite(lastRemaining) ? lefts.filter((left) => left >= lastRemaining) : [];
    if (newer.length > 0 && renewals < MAX_RENEWALS) {
      renewals += 1;
      allowed = sent + Math.max(...newer) + 5;
      lastRemaining = Math.min(...newer);
    } else lastRemaining = Math.min(...lefts);
  }
  if (Number.isFinite(limit) || Number.isFinite(remaining)) {
    throw new LimitNotEnforced(`no 429 after ${sent} requests in a row although the server announced X-RateLimit-Limit ${Number.isFinite(limit) ? limit : "(absent)"}, Remaining ${Number.isFinite(remaining) ? remaining : "(absent)"}: the limit is announced and not enforced`);
  }
  return `no 429 after ${sent} requests in a row (no X-RateLimit-Limit header): the account's limit could not be used up`;
}
