/**
 * Decision D08 (full profile): an Idempotency-Key is kept for 24 hours from its first use, then
 * treated as never seen. Time is moved through the sandbox's clock control
 * (`POST /_sandbox/clock/advance`, the account's own clock): a replay just before the 24 hours
 * are over still returns the original charge, the same key just after them creates another.
 * The clock is the rate-limit account's, which only the 429 checks use afterwards (their windows
 * run on real time), so no other check sees an account a day ahead; without that key or the
 * control, not applicable.
 */
import { NotApplicable, type FamilyContext } from "../core/check-context.ts";
import type { Scenario } from "../core/scenario.ts";
import { at, chargeRequest, describe, is2xx, require2xx, sender } from "./support.ts";

const DAY_SECONDS = 24 * 60 * 60;
/** How far from the 24 hours each side is asked: minutes, so that the run's own time cannot cross the line. */
const MARGIN_SECONDS = 5 * 60;

async function advanceClock(ctx: FamilyContext, scenarioId: string, seconds: number): Promise<void> {
  const key = ctx.keyValue("rateLimits")!;
  const moved = await ctx.pacer.send({
    method: "POST",
    url: `${ctx.target.baseUrl}/_sandbox/clock/advance`,
    headers: { [ctx.contract.apiKeyHeader]: key, "content-type": "application/json" },
    body: JSON.stringify({ seconds }),
    bucket: ctx.bucketOfKey(key),
    checkId: scenarioId,
  });
  if (moved.status === 404 || moved.status === 405) throw new NotApplicable("the server has no clock control (POST /_sandbox/clock/advance): 24 hours cannot pass in a run");
  require2xx(moved, `advance the account's clock by ${seconds} s (${describe(moved)})`);
}

export const keyKept24Hours: Scenario = {
  id: "family-a/idempotency/key-kept-24-hours",
  family: "family-a",
  profile: "full",
  decision: "D08",
  title: "an Idempotency-Key replays for 24 hours from its first use, and creates anew after them",
  statements: ["A-IDEM-RULE-replay", "A-IDEM-RULE-new-key"],
  covers: [{ operationId: "createCharge", status: "201" }],
  async run(ctx, check) {
    if (ctx.keyValue("rateLimits") === undefined) throw new NotApplicable("the target names no rateLimits key: the clock is moved on that account only");
    const send = sender(ctx, this.id);
    const key = ctx.idempotencyKey();
    const request = chargeRequest(ctx, key, { key: "rateLimits" });
    const first = await send("createCharge", request);
    require2xx(first, "create a charge");
    await advanceClock(ctx, this.id, DAY_SECONDS - MARGIN_SECONDS);
    const replay = await send("createCharge", request);
    check.that(is2xx(replay) && at(replay, "id") === at(first, "id"), `D08: 24 hours less ${MARGIN_SECONDS / 60} minutes after its first use, the key answered ${describe(replay)}, expected the original charge ${String(at(first, "id"))}`);
    await advanceClock(ctx, this.id, 2 * MARGIN_SECONDS);
    const anew = await send("createCharge", request);
    check.that(is2xx(anew) && at(anew, "id") !== undefined && at(anew, "id") !== at(first, "id"), `D08: 24 hours and ${MARGIN_SECONDS / 60} minutes after its first use, the key answered ${describe(anew)}, expected a new charge`);
  },
};
