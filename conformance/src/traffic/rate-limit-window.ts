/**
 * Rate-limit headers within one window, as far as traffic shows them: within one window (same
 * API key, buckets, limit and reset) X-RateLimit-Remaining falls between exchanges that followed
 * one another (each request counts) and never exceeds X-RateLimit-Limit; X-RateLimit-Reset is not
 * in the past; a 429's Retry-After names the moment X-RateLimit-Reset names. Where the headers
 * exist by a decision (family A), seed does not hold them and full names the decision.
 */
import type { FamilyId, OperationMatch } from "@payment-collection/contract/model/index.ts";
import type { Profile } from "../core/profiles/index.ts";
import type { Naming } from "./attribution.ts";
import type { CrossFinding } from "./attribution.ts";
import type { TrafficExchange } from "./exchange.ts";
import { Memory } from "./memory.ts";

/** The statements the rule names: the headers' statement and Retry-After's. */
export interface WindowNaming {
  headers: Naming;
  retryAfter: Naming;
}

interface WindowState {
  remaining: number;
  endedAt: number;
}

/** What the rule reads of an operation, once (keyed by its responses, which every match of it shares). */
const ofOperation = new WeakMap<object, { decision?: string; buckets: string }>();

function operationFacts(op: OperationMatch): { decision?: string; buckets: string } {
  let facts = ofOperation.get(op.responses);
  if (!facts) {
    const documented = op.responses.flatMap((r) => r.headers).find((h) => h.name.toLowerCase() === "x-ratelimit-remaining");
    facts = { decision: documented?.decision, buckets: op.rateLimits.map((r) => r.bucket).sort().join("+") };
    ofOperation.set(op.responses, facts);
  }
  return facts;
}

export class RateLimitWindows {
  private readonly windows = new Memory<string, WindowState[]>();

  /** The findings of one exchange; undefined when it carries no rate-limit headers to judge. */
  observe(family: FamilyId, op: OperationMatch, exchange: TrafficExchange, key: string | undefined, profile: Profile, naming: () => WindowNaming): CrossFinding[] | undefined {
    const headers = exchange.responseHeaders;
    const limit = Number(headers["x-ratelimit-limit"]);
    const remaining = Number(headers["x-ratelimit-remaining"]);
    const reset = Number(headers["x-ratelimit-reset"]);
    if (key === undefined || !Number.isFinite(limit) || !Number.isFinite(remaining) || headers["x-ratelimit-remaining"] === undefined) return undefined;
    // Where the headers exist by a decision (family A), seed does not hold them; full names the decision.
    const facts = operationFacts(op);
    if (facts.decision && profile === "seed") return undefined;
    const findings: CrossFinding[] = [];
    // The namings are read only for a finding: most exchanges show none.
    const base = () => ({ rule: "rate-limit-window" as const, naming: facts.decision ? { id: facts.decision, kind: "decision" as const } : naming().headers, place: "header" as const });
    if (remaining > limit) findings.push({ ...base(), path: "X-RateLimit-Remaining", expected: `X-RateLimit-Remaining at most X-RateLimit-Limit (${limit})`, seen: String(remaining) });
    if (Number.isFinite(reset) && headers["x-ratelimit-reset"] !== undefined && reset * 1000 < exchange.startedAt - 1000) {
      findings.push({ ...base(), path: "X-RateLimit-Reset", expected: `a Unix time in the future (the response came at ${Math.floor(exchange.endedAt / 1000)})`, seen: String(reset) });
    }
    const retryAfter = Number(headers["retry-after"]);
    if (exchange.status === 429 && headers["retry-after"] !== undefined && Number.isFinite(retryAfter) && Number.isFinite(reset)) {
      // Retry-After and X-RateLimit-Reset name the same moment, to the second (one more of slack for the trip).
      const comeBack = exchange.endedAt / 1000 + retryAfter;
      const tooEarly = retryAfter < 1 && reset - exchange.endedAt / 1000 > 1;
      if (tooEarly || Math.abs(comeBack - reset) > 2) {
        findings.push({ ...base(), naming: naming().retryAfter, path: "Retry-After", expected: `Retry-After about ${Math.max(0, Math.round(reset - exchange.endedAt / 1000))} s (X-RateLimit-Reset ${reset})`, seen: String(retryAfter) });
      }
    }
    const window = `${family}\u0000${key}\u0000${facts.buckets}\u0000${limit}\u0000${reset}`;
    const seen = this.windows.get(window) ?? [];
    // Only exchanges that ended before this one started are ordered; concurrent ones may cross.
    let lowest = Infinity;
    for (const w of seen) if (w.endedAt < exchange.startedAt && w.remaining < lowest) lowest = w.remaining;
    // Each request of the operation counts against every bucket it shows: Remaining falls, unless nothing is left.
    if (lowest !== Infinity && lowest > 0 && exchange.status !== 429 && remaining >= lowest) {
      findings.push({ ...base(), path: "X-RateLimit-Remaining", expected: `X-RateLimit-Remaining below ${lowest} (an earlier response of the same window, ended before this request)`, seen: String(remaining) });
    }
    seen.push({ remaining, endedAt: exchange.endedAt });
    if (seen.length > 64) seen.splice(0, seen.length - 64);
    this.windows.remember(window, seen);
    return findings;
  }
}
