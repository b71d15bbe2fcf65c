/**
 * What the rate-limit headers announce, held to the Limits table (family B): a response may
 * carry `X-RateLimit-Limit` ("maximum requests in the current window") and `X-RateLimit-Reset`
 * (when the window renews). The limits an operation counts against are read from the contract
 * (`x-rate-limits`: bucket and per-minute figure); the target's plan (`familyB.plan`), when it
 * declares one, replaces the figures ("limits may vary by account plan"). An announced limit
 * must be the figure of one of the operation's limits, and its window must renew within a
 * minute (or the shorter window the plan declares). Which of its limits a response describes is the server's (decision D27: the one
 * closest to exhaustion), so the bucket's own figure need only show on one response; when none
 * shows it, the rule is not seen here (not applicable). The scenarios send on the primary key:
 * the account set aside for rate limits is left to the scenarios that count and use up limits.
 */
import { limitsOf } from "../derived/rate-limit-figures.ts";
import { NotApplicable, type FamilyContext } from "../core/check-context.ts";
import type { RateLimitPlanFigures } from "../core/target.ts";
import type { ScenarioAssertions } from "../core/scenario.ts";
import type { ObservedResponse } from "../core/validate.ts";

export type Bucket = keyof RateLimitPlanFigures;

/** A response to judge, with the operation and documented status it answers. */
export interface Announcement {
  label: string;
  operationId: string;
  status: string;
  response: ObservedResponse;
}

/** Seconds of clock difference tolerated on X-RateLimit-Reset. */
const SLACK_SECONDS = 2;

/** The per-minute figure of each limit an operation counts against, the target's plan first. */
export function figuresOf(ctx: FamilyContext, operationId: string): Map<Bucket, number> {
  return new Map(limitsOf(ctx.operation(operationId), ctx.profile, ctx.familyB?.plan).map((l) => [l.bucket, l.limit]));
}

const integer = (value: string | undefined) => (value !== undefined && /^\d+$/.test(value.trim()) ? Number(value) : undefined);

/**
 * Which of its limits a response describes depends on what the account used in the window
 * (D27: the one closest to exhaustion), not on the server's conformance. When a response
 * announced another of the operation's limits, the request is sent once more at the start of
 * the next window, where the bucket's own (lower) figure is the closest to exhaustion: the
 * pacing waits for that window rather than the check becoming not applicable. Returns the
 * responses to judge.
 */
export async function inFreshWindow(
  ctx: FamilyContext,
  bucket: Bucket,
  first: Announcement,
  resend: () => Promise<ObservedResponse>,
): Promise<Announcement[]> {
  const headers = first.response.headers;
  const limit = integer(headers["x-ratelimit-limit"]);
  const reset = integer(headers["x-ratelimit-reset"]);
  const figures = figuresOf(ctx, first.operationId);
  const figure = figures.get(bucket);
  // Only a response that described another of the operation's limits is worth a new window;
  // a figure none of them has is judged as it is.
  const another = limit !== undefined && limit !== figure && [...figures.values()].includes(limit);
  if (ctx.mock || !another || reset === undefined || figure === undefined) return [first];
  const resetMs = reset > 1e9 ? reset * 1000 : Date.now() + reset * 1000;
  await ctx.pacer.waitUntil(resetMs + 250, `the ${bucket} limit shows at the start of a window`);
  const again = await resend();
  // A refusal here says nothing about the announced limit: judge the first answer alone.
  if (again.status < 200 || again.status >= 300) return [first];
  return [first, { ...first, label: `${first.label} at the start of a window`, response: again }];
}

/** Judges what each response announces; throws NotApplicable when the bucket's figure never shows. */
export function judgeAnnounced(ctx: FamilyContext, check: ScenarioAssertions, bucket: Bucket, announcements: Announcement[]): void {
  const whose = ctx.familyB?.plan ? "the target's plan" : "the published figures; a target declares familyB.plan when its accounts' plan differs";
  // The published limits are per minute; a target's plan may declare a shorter window.
  const window = ctx.familyB?.plan?.windowSeconds ?? 60;
  let announced = 0;
  let seen = false;
  for (const { label, operationId, status, response } of announcements) {
    check.response(operationId, status, response, label);
    const figures = figuresOf(ctx, operationId);
    const limit = integer(response.headers["x-ratelimit-limit"]);
    if (limit === undefined) continue;
    announced += 1;
    const allowed = [...figures].map(([name, figure]) => `${name} ${figure}`).join(", ");
    check.that([...figures.values()].includes(limit), `${label}: X-RateLimit-Limit ${limit} is none of the limits the operation counts against (${allowed} per minute: ${whose})`);
    if (limit === figures.get(bucket)) seen = true;
    const reset = integer(response.headers["x-ratelimit-reset"]);
    if (reset !== undefined) {
      const away = reset > 1e9 ? reset - Math.floor(Date.now() / 1000) : reset;
      check.that(away <= window + SLACK_SECONDS, `${label}: X-RateLimit-Reset is ${away} s away, but the limits are per ${window === 60 ? "minute" : `${window} s (${whose})`}`);
    }
  }
  if (check.problems.length > 0) return;
  if (announced === 0) throw new NotApplicable("no response carried X-RateLimit-Limit (the document: responses may carry it); enforcement is checked in the exhaust stage");
  if (!seen) throw new NotApplicable(`no response announced the ${bucket} limit itself: each described another limit its operation counts against`);
}
