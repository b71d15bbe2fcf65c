/**
 * Rate limits, on the target's `rateLimits` key (else the primary one), in the run's last
 * stage. For each limit the contract publishes, one operation that counts against it is sent
 * until the limit is used up:
 * - a server that announces `X-RateLimit-Limit` and, in the window of a response that said
 *   `X-RateLimit-Remaining: 0` (same `X-RateLimit-Reset`), still answers 2xx fails;
 * - a server that sends no such headers is held to the published per-minute figure (or the
 *   plan the target declares): one request more than it within the minute must get a 429;
 * - under full (D27), the 429 of a used-up limit describes it: nothing left, and its figure
 *   where the target declares its plan; and while a specific limit is used up, no admitted
 *   answer describes another limit with more left than the specific one can have;
 * - while one account has used up a limit (each of them), another account is not limited;
 * - once a limit is used up, every other operation that counts against it is refused too in
 *   that window (one request each: a PIX payment once PIX creations used up the PIX limit, every
 *   operation of the family once the general one is); an answer from a renewed window (the
 *   operation that used the limit up let through again) is not applicable, never a failure.
 * - under full (D27), the headers describe the limit closest to exhaustion when a request
 *   counts against two: on another account, with its general limit three requests from used
 *   up, requests that also count against a barely touched limit say what the general one has
 *   left, and the one it refuses gets a 429 that describes the used-up general limit, not the
 *   other one it would have passed.
 * A limit above the run's cap cannot be used up: not applicable, with the figure.
 */
import type { ContractOperation } from "@payment-collection/contract/model/index.ts";
import { limitsOf, type Bucket } from "./rate-limit-figures.ts";
import { decisionBehind } from "../core/profiles/document-word.ts";
import { knownIds, pathParameters, replayOfLatest } from "./rate-limit-support.ts";
import { describe, is2xx, type DerivedEnv, type PlannedRequest } from "./shared.ts";
import type { KeyName } from "../core/check-context.ts";
import type { ObservedResponse } from "../core/validate.ts";

export const BUCKET_STATEMENT: Record<Bucket, string> = { general: "B-LIMITS-LIMIT-general", transactions: "B-LIMITS-LIMIT-transactions", pix: "B-LIMITS-LIMIT-pix", queries: "B-LIMITS-LIMIT-queries" };
/** Each bucket's limit: only the results about that bucket enforce it. */
export const VARIANT_STATEMENTS = Object.values(BUCKET_STATEMENT);

export interface UseUp {
  limited: boolean;
  problems: string[];
  sent: number;
  request: PlannedRequest;
  /** The 429 that ended it, when the limit was met. */
  refusal?: ObservedResponse;
  /**
   * Under full, where the target declares its plan: admitted answers that described another
   * limit with more requests left than this one could have (D27: the closest is described).
   */
  notClosest: string[];
}

/** How often a window may renew while a limit is used up before the check gives up (not applicable). */
const MAX_RENEWALS = 2;

/**
 * Sends the request until a 429, judging enforcement as the module comment says. A window that
 * renews before the limit is used up (X-RateLimit-Remaining goes up) starts the count again:
 * the server's count did too, and a short window may end while the requests are sent. A third
 * renewal ends the check as not applicable: requests that slow cannot use the window up, and a
 * claim of "in one window" would be false.
 */
export async function useUp(env: DerivedEnv, make: () => PlannedRequest, key: KeyName, figure: number, windowSeconds: number): Promise<UseUp | string> {
  const request = make();
  const first = await env.send(request, key, { expect429: true });
  if (first.status === 429) return { limited: true, problems: [], sent: 1, request, refusal: first, notClosest: [] };
  if (!is2xx(first)) return `${request.method} ${new URL(request.url).pathname} answered ${describe(first)}`;
  const announced = Number(first.headers["x-ratelimit-limit"]);
  const headers = Number.isFinite(announced);
  // A plan the target declares is its word: the limit is that figure, whatever limit the headers
  // describe (another that applies too, such as the general one, when this one is not counted).
  const declared = env.ctx.familyB?.plan !== undefined;
  const limit = headers && !declared ? announced : figure;
  if (limit > env.settings.exhaustCap) return `the limit is ${limit} requests per window, above the ${env.settings.exhaustCap} this run may use up (--exhaust-cap)`;
  let started = Date.now();
  let exhaustedWindow: string | undefined;
  let sent = 1;
  let countFrom = 0;
  let renewals = 0;
  let lastRemaining = Number(first.headers["x-ratelimit-remaining"]);
  const problems: string[] = [];
  const notClosest: string[] = [];
  // This limit has at most `figure - counted` requests left after `counted` of its own in the
  // window: an answer describing another limit (its figure not this one's) with more left
  // describes one farther from exhaustion.
  const describesCloser = env.ctx.profile === "full" && declared && figure !== env.ctx.familyB?.plan?.general;
  const judgeDescribed = (response: ObservedResponse, counted: number) => {
    const remaining = Number(response.headers["x-ratelimit-remaining"]);
    if (!describesCloser || response.headers["x-ratelimit-limit"] === String(figure) || !(remaining > figure - counted)) return;
    notClosest.push(`request ${sent + 1} said X-RateLimit-Limit ${response.headers["x-ratelimit-limit"]}, Remaining ${remaining}: the limit of ${figure} it counts against has at most ${figure - counted} left after ${counted} of its requests in the window, and it is the closest to exhaustion (D27)`);
  };
  judgeDescribed(first, 1);
  for (; sent - countFrom <= limit + 5; sent += 1) {
    const response = await env.send(make(), key, { expect429: true });
    if (response.status === 429) return { limited: true, problems, sent, request, refusal: response, notClosest };
    const reset = response.headers["x-ratelimit-reset"];
    const remaining = Number(response.headers["x-ratelimit-remaining"]);
    // Remaining going up is a new window, unless the server said 0 in this same window.
    if (remaining > lastRemaining && (exhaustedWindow === undefined || reset !== exhaustedWindow)) {
      // A window that keeps renewing before its limit is used up cannot be judged: the
      // requests are too slow for it (a slow link, a loaded client). Never a failure.
      if (renewals === MAX_RENEWALS) return `the window renewed ${renewals + 1} times before its ${limit} requests were sent: too slow to use it up`;
      renewals += 1;
      countFrom = sent;
      started = Date.now();
      exhaustedWindow = undefined;
    }
    if (Number.isFinite(remaining)) lastRemaining = remaining;
    if (is2xx(response)) judgeDescribed(response, sent + 1 - countFrom);
    if (exhaustedWindow !== undefined && reset === exhaustedWindow && is2xx(response)) {
      problems.push(`X-RateLimit-Remaining reached 0 in the window ending ${reset}, and request ${sent + 1} was still answered ${response.status}`);
      return { limited: false, problems, sent, request, notClosest };
    }
    if (response.headers["x-ratelimit-remaining"] === "0") exhaustedWindow = reset;
    if (!headers && sent >= figure && Date.now() - started < windowSeconds * 1000) {
      problems.push(`no X-RateLimit-* headers, so the published ${figure} per ${windowSeconds === 60 ? "minute" : `${windowSeconds} s`} apply: request ${sent + 1} within ${Math.round((Date.now() - started) / 1000)} s was answered ${response.status}`);
      return { limited: false, problems, sent, request, notClosest };
    }
  }
  problems.push(`${declared ? `the declared plan says ${limit}` : `X-RateLimit-Limit says ${limit}`}, and ${sent - countFrom} requests in a row within one window got no 429`);
  return { limited: false, problems, sent, request, notClosest };
}

/** Cheapest to send many times first: a read before a creation, fewer record ids before more. */
export const byCostOfUsingUp = (a: ContractOperation, b: ContractOperation): number => Number(a.method !== "GET") - Number(b.method !== "GET") || pathParameters(a).length - pathParameters(b).length;

/** The cheapest operation counting against a bucket, with a request. */
function representative(env: DerivedEnv, bucket: Bucket): { op: ContractOperation; make: () => PlannedRequest } | undefined {
  const plan = env.ctx.familyB?.plan;
  const ops = env.ctx.contract.operations.filter((o) => limitsOf(o, env.ctx.profile, plan).some((l) => l.bucket === bucket));
  const ranked = [...ops].sort(byCostOfUsingUp);
  for (const op of ranked) {
    // Each request a fresh idempotency key: a replay need not count as a creation.
    if (replayOfLatest(env, op)) return { op, make: () => replayOfLatest(env, op)! };
  }
  return undefined;
}

/**
 * Under full (D27: "the rate-limit headers describe the limit closest to exhaustion"), the 429
 * of a used-up limit describes a limit with nothing left: `X-RateLimit-Remaining: 0`, and, where
 * the target declares its plan, an `X-RateLimit-Limit` that is the figure of this limit or of the
 * general one (the general limit may bind first: both count every such request). A server that
 * sends no such headers is not judged.
 */
function reportsUsedUpLimit(env: DerivedEnv, op: ContractOperation, bucket: Bucket, figure: number, outcome: UseUp): void {
  const refusal = outcome.refusal;
  if (env.ctx.profile !== "full" || !refusal || refusal.headers["x-ratelimit-remaining"] === undefined) return;
  const problems: string[] = [];
  if (refusal.headers["x-ratelimit-remaining"] !== "0") problems.push(`the 429 said X-RateLimit-Remaining ${refusal.headers["x-ratelimit-remaining"]}: the used-up ${bucket} limit has none left, and it is the closest to exhaustion`);
  const declared = env.ctx.familyB?.plan;
  const general = limitsOf(op, env.ctx.profile, declared).find((l) => l.bucket === "general")?.limit;
  const figures = [figure, ...(general === undefined ? [] : [general])].map(String);
  if (declared && !figures.includes(String(refusal.headers["x-ratelimit-limit"]))) problems.push(`the 429 said X-RateLimit-Limit ${refusal.headers["x-ratelimit-limit"]}, the figure of no limit it met in the declared plan (${bucket} ${figure}${general === undefined ? "" : `, general ${general}`})`);
  env.judge({ operationId: op.operationId, variant: `${bucket}-limit-reported`, title: `the 429 of the used-up ${bucket} limit describes that limit (D27)`, covers: env.covered(op.operationId, 429), statements: [BUCKET_STATEMENT[bucket]], reproduction: `for i in $(seq ${outcome.sent + 1}); do ${env.reproduce(outcome.request, env.ctx.rateLimitKey())}; done` }, problems);
}

/**
 * Once `bucket` is used up by `spent`, one request of every other operation that counts against
 * it must get a 429: a limit applies to every operation its row names, not to the one that used
 * it up. An answer from a renewed window proves nothing: when a member is let through, the
 * request that used the limit up is sent again, and only its 429 (the window still spent) makes
 * the member's answer a failure; when that one is let through too, the window renewed, and the
 * limit is used up again before the member is sent once more.
 */
async function membersRefused(env: DerivedEnv, bucket: Bucket, spent: ContractOperation, spend: () => PlannedRequest, key: KeyName, useUpAgain: () => Promise<boolean>): Promise<void> {
  const plan = env.ctx.familyB?.plan;
  const members = env.ctx.contract.operations.filter((o) => o !== spent && limitsOf(o, env.ctx.profile, plan).some((l) => l.bucket === bucket));
  for (const member of members) {
    const request = replayOfLatest(env, member);
    const variant = `counts-against-${bucket}-limit`;
    const title = `once the ${bucket} limit is used up, this operation is refused too`;
    if (!request) {
      env.notApplicable(member.operationId, variant, title, `the run has no request of ${member.operationId} to repeat`);
      continue;
    }
    let response = await env.send(request, key, { expect429: true });
    let renewed = false;
    for (let renewals = 0; response.status !== 429; renewals += 1) {
      // Only the spender's 429 (the window still spent) makes the member's answer a failure.
      if ((await env.send(spend(), key, { expect429: true })).status === 429) break;
      // The window renewed (a loaded machine, a short window): use the limit up again and send
      // the member once more, as often as useUp lets a window renew.
      if (renewals === MAX_RENEWALS || !(await useUpAgain())) {
        renewed = true;
        break;
      }
      response = await env.send(request, key, { expect429: true });
    }
    if (renewed) {
      env.notApplicable(member.operationId, variant, title, `the window kept renewing: ${spent.operationId} was no longer refused either, after the limit was used up again`);
      continue;
    }
    env.judge(
      { operationId: member.operationId, variant, title, covers: env.covered(member.operationId, response.status), statements: [BUCKET_STATEMENT[bucket]], reproduction: env.reproduce(request, key) },
      response.status === 429 ? [] : [`answered ${describe(response)} after ${spent.operationId} used up the ${bucket} limit`],
    );
  }
}

/** Requests of the general limit left when the probe of `closestLimitDescribed` starts. */
const LEFT_FOR_PROBE = 3;

interface Probe {
  request: PlannedRequest;
  problems: string[];
  /** The status of the first admitted request, if any was. */
  admitted?: number;
  refused?: ObservedResponse;
  /** The window renewed before the probe ended: it proves nothing. */
  renewed: boolean;
}

/**
 * One probe of `closestLimitDescribed`: `alone` until the general limit has LEFT_FOR_PROBE
 * requests left, then `both` until it is refused; or why it cannot start.
 */
async function probeClosest(env: DerivedEnv, key: KeyName, alone: ContractOperation, both: ContractOperation, general: number): Promise<Probe | string> {
  let last: ObservedResponse | undefined;
  // Windows that renew on the way start the count again (as in useUp): a few windows' worth.
  for (let sent = 0; sent <= (general + 5) * (MAX_RENEWALS + 1); sent += 1) {
    last = await env.send(replayOfLatest(env, alone)!, key, { expect429: true });
    const remaining = Number(last.headers["x-ratelimit-remaining"]);
    if (last.status === 429 || !Number.isFinite(remaining) || remaining <= LEFT_FOR_PROBE) break;
  }
  if (last?.headers["x-ratelimit-remaining"] !== String(LEFT_FOR_PROBE)) return `${alone.operationId} never said X-RateLimit-Remaining ${LEFT_FOR_PROBE} on the ${key} account (last: ${last ? describe(last) : "none"})`;
  const reset = last.headers["x-ratelimit-reset"];
  const request = replayOfLatest(env, both)!;
  const probe: Probe = { request, problems: [], renewed: false };
  for (let left = LEFT_FOR_PROBE - 1; left >= -1; left -= 1) {
    const response = await env.send(replayOfLatest(env, both)!, key, { expect429: true });
    if (response.headers["x-ratelimit-reset"] !== reset) return { ...probe, renewed: true };
    if (response.status === 429) return { ...probe, refused: response };
    probe.admitted ??= response.status;
    const remaining = response.headers["x-ratelimit-remaining"];
    if (left >= 0 && remaining !== String(left)) probe.problems.push(`with ${left + 1} requests of the general limit left, ${both.operationId} was answered ${response.status} with X-RateLimit-Remaining ${remaining}: the general limit, ${left} left after it, is the closest to exhaustion`);
  }
  return probe;
}

/**
 * Under full (D27: "the rate-limit headers describe the limit closest to exhaustion"), on the
 * account of `key`: the general limit is used up to its last three requests with an operation
 * that counts against it alone; then an operation that counts against it and another limit (the
 * cheapest query) is sent until it is refused. While admitted, each leaves the general limit
 * with fewer requests than the other limit, barely touched, has: its X-RateLimit-Remaining must
 * be what the general limit has left (two, then one, then none). The request refused by the
 * used-up general limit must describe a limit with nothing left, X-RateLimit-Remaining 0, not
 * the other limit, which still had requests left. A window that renews on the way, or an
 * account already limited, proves nothing: not applicable.
 */
async function closestLimitDescribed(env: DerivedEnv, key: KeyName): Promise<void> {
  const plan = env.ctx.familyB?.plan;
  const bucketsOf = (o: ContractOperation) => limitsOf(o, env.ctx.profile, plan).map((l) => l.bucket);
  const ranked = [...env.ctx.contract.operations].sort(byCostOfUsingUp);
  const alone = ranked.find((o) => bucketsOf(o).join() === "general" && replayOfLatest(env, o));
  const both = ranked.find((o) => bucketsOf(o).length > 1 && bucketsOf(o).includes("general") && replayOfLatest(env, o));
  if (!alone || !both) return;
  const admittedTitle = "a request that leaves the general limit closest to exhaustion describes it, though another of its limits has more left (D27)";
  const refusedTitle = "the 429 of a used-up general limit describes it, though another of the request's limits has requests left (D27)";
  await env.attempt(both.operationId, "closest-limit-described", admittedTitle, async () => {
    const general = limitsOf(alone, env.ctx.profile, plan)[0]!.limit;
    if (general > env.settings.exhaustCap) return env.notApplicable(both.operationId, "closest-limit-described", admittedTitle, `the general limit is ${general} requests per window, above the ${env.settings.exhaustCap} this run may use up (--exhaust-cap)`);
    // A window that renews on the way starts the probe again, as often as useUp lets a window renew.
    let probe = await probeClosest(env, key, alone, both, general);
    for (let renewals = 0; typeof probe !== "string" && probe.renewed && renewals < MAX_RENEWALS; renewals += 1) probe = await probeClosest(env, key, alone, both, general);
    if (typeof probe === "string") return env.notApplicable(both.operationId, "closest-limit-described", admittedTitle, probe);
    if (probe.renewed) return env.notApplicable(both.operationId, "closest-limit-described", admittedTitle, `the window renewed while ${both.operationId} was sent, ${MAX_RENEWALS + 1} times`);
    const { request, problems, refused, admitted } = probe;
    if (admitted === undefined) env.notApplicable(both.operationId, "closest-limit-described", admittedTitle, `${both.operationId} was refused at once, with ${LEFT_FOR_PROBE} requests of the general limit left: another of its limits was used up`);
    else env.judge({ operationId: both.operationId, variant: "closest-limit-described", title: admittedTitle, covers: env.covered(both.operationId, admitted), statements: [BUCKET_STATEMENT.general], reproduction: env.reproduce(request, key) }, problems);
    if (!refused) return env.notApplicable(both.operationId, "used-up-limit-described", refusedTitle, `${both.operationId} was never refused after the general limit's last ${LEFT_FOR_PROBE} requests`);
    env.judge(
      { operationId: both.operationId, variant: "used-up-limit-described", title: refusedTitle, covers: env.covered(both.operationId, 429), statements: [BUCKET_STATEMENT.general], reproduction: env.reproduce(request, key) },
      refused.headers["x-ratelimit-remaining"] === "0" || refused.headers["x-ratelimit-remaining"] === undefined ? [] : [`the 429 said X-RateLimit-Remaining ${refused.headers["x-ratelimit-remaining"]}: the general limit that refused it has none left`],
    );
  });
}

export async function run(env: DerivedEnv): Promise<void> {
  const plan = env.ctx.familyB?.plan;
  for (const op of env.ctx.contract.operations) {
    const decision = decisionBehind({ kind: "behaviour", node: op, about: "x-rate-limits" });
    if (decision && limitsOf(op, env.ctx.profile, plan).length === 0) {
      env.notApplicable(op.operationId, "limits-apply", "the operation counts against rate limits", `whether rate limits apply to ${op.operationId} is decision ${decision}, not the document's word (checked under --profile full)`);
    }
  }
  if (!env.ctx.contract.operations.some((o) => limitsOf(o, env.ctx.profile, plan).length > 0)) return;
  const key = env.ctx.rateLimitKey();
  const other: KeyName = key === "rateLimits" ? "primary" : "secondAccount";
  // Narrow limits first: once the general one is used up, every request is refused.
  for (const bucket of ["pix", "transactions", "queries", "general"] as Bucket[]) {
    if (env.stopped) break;
    // A bucket no operation of the family counts against (family A has no transactions) has nothing to check.
    if (!env.ctx.contract.operations.some((o) => limitsOf(o, env.ctx.profile, plan).some((l) => l.bucket === bucket))) continue;
    const found = representative(env, bucket);
    const title = `the ${bucket} limit is enforced`;
    if (!found) {
      env.notApplicable(bucket, "enforced", title, `the run has no successful request counting against the ${bucket} limit`);
      continue;
    }
    const { op, make } = found;
    const request = make();
    const { limit: figure, windowSeconds } = limitsOf(op, env.ctx.profile, plan).find((l) => l.bucket === bucket)!;
    await env.attempt(op.operationId, `${bucket}-limit-enforced`, title, async () => {
      const outcome = await useUp(env, make, key, figure, windowSeconds);
      if (typeof outcome === "string") return env.notApplicable(op.operationId, `${bucket}-limit-enforced`, title, outcome);
      env.judge({ operationId: op.operationId, variant: `${bucket}-limit-enforced`, title, covers: env.covered(op.operationId, 429), statements: [BUCKET_STATEMENT[bucket]], reproduction: `for i in $(seq ${outcome.sent + 1}); do ${env.reproduce(request, key)}; done` }, outcome.problems);
      if (env.ctx.profile === "full" && env.ctx.familyB?.plan && bucket !== "general") {
        env.judge({ operationId: op.operationId, variant: `${bucket}-limit-described-while-closest`, title: `while the ${bucket} limit is the closest to exhaustion, the headers describe it (D27)`, covers: env.covered(op.operationId, 200), statements: [BUCKET_STATEMENT[bucket]], reproduction: `for i in $(seq ${outcome.sent}); do ${env.reproduce(request, key)}; done` }, outcome.notClosest.slice(0, 3));
      }
      if (!outcome.limited) return;
      reportsUsedUpLimit(env, op, bucket, figure, outcome);
      await membersRefused(env, bucket, op, make, key, async () => {
        const again = await useUp(env, make, key, figure, windowSeconds);
        return typeof again !== "string" && again.limited;
      });
      if (env.ctx.key(other)) {
        const otherTitle = "another account is not limited by this one's use";
        const probe = make();
        // Other checks use the other account meanwhile: when their requests have used up its own
        // limit in this window, its 429 would be its own. Once: wait for the window to renew and
        // use this account's limit up again.
        const usedUpByItself = () => env.knownWindow(probe, other)?.remaining === 0;
        if (usedUpByItself()) {
          await env.ctx.pacer.waitUntil((env.knownWindow(probe, other)?.resetAt ?? Date.now() + windowSeconds * 1000) + 100, `the ${other} account's own ${bucket} window to renew`);
          const again = await useUp(env, make, key, figure, windowSeconds);
          if (typeof again === "string" || !again.limited || usedUpByItself()) {
            return env.notApplicable(op.operationId, "other-account-unaffected", otherTitle, `the ${other} account's own requests of this run used up its limit for ${op.operationId} in the window this account's was used up`);
          }
        }
        const response = await env.send(probe, other, { expect429: true });
        env.judge({ operationId: op.operationId, variant: "other-account-unaffected", title: otherTitle, covers: env.covered(op.operationId, response.status), statements: [BUCKET_STATEMENT[bucket]], reproduction: env.reproduce(request, other) }, response.status === 429 ? [`the ${other} account got 429 while only the ${key} account had used up its ${bucket} limit`] : []);
      }
    });
  }
  // Last, and only where the target names an account for the rate limits: it uses up the general
  // limit of the second account, which nothing after it needs then (the exhaust stage's
  // scenarios compare the rate-limit account with the primary one).
  if (!env.stopped && env.ctx.profile === "full" && key === "rateLimits" && env.ctx.key("secondAccount")) await closestLimitDescribed(env, "secondAccount");
}
