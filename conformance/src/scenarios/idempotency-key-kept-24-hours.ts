/**
 * Decision D08 (full profile): an Idempotency-Key is kept for 24 hours from its first use, then
 * treated as never seen. Time is moved through the sandbox's clock control
 * (`POST /_sandbox/clock/advance`, the account's own clock): a replay just before the 24 hours
 * are over still returns the original charge, the same key just after them creates another.
 * The clock is the rate-limit account's (sandbox-controls.ts); without that key or the
 * control, not applicable.
 */
import type { Scenario } from "../core/scenario.ts";
import { advanceClock, clockKey } from "./sandbox-controls.ts";
import { at, chargeRequest, describe, is2xx, require2xx, sender } from "./support.ts";

const DAY_SECONDS = 24 * 60 * 60;
/** How far from the 24 hours each side is asked: minutes, so that the run's own time cannot cross the line. */
const MARGIN_SECONDS = 5 * 60;
/** What cannot be shown without the clock control. */
const RULE = "24 hours cannot pass in a run";

export const keyKept24Hours: Scenario = {
  id: "family-a/idempotency/key-kept-24-hours",
  family: "family-a",
  profile: "full",
  decision: "D08",
  title: "an Idempotency-Key replays for 24 hours from its first use, and creates anew after them",
  statements: ["A-IDEM-RULE-replay", "A-IDEM-RULE-new-key"],
  covers: [{ operationId: "createCharge", status: "201" }],
  async run(ctx, check) {
    const account = clockKey(ctx);
    const send = sender(ctx, this.id);
    const key = ctx.idempotencyKey();
    const request = chargeRequest(ctx, key, { key: account });
    const first = await send("createCharge", request);
    require2xx(first, "create a charge");
    await advanceClock(ctx, this.id, DAY_SECONDS - MARGIN_SECONDS, RULE);
    const replay = await send("createCharge", request);
    check.that(is2xx(replay) && at(replay, "id") === at(first, "id"), `D08: 24 hours less ${MARGIN_SECONDS / 60} minutes after its first use, the key answered ${describe(replay)}, expected the original charge ${String(at(first, "id"))}`);
    await advanceClock(ctx, this.id, 2 * MARGIN_SECONDS, RULE);
    const anew = await send("createCharge", request);
    check.that(is2xx(anew) && at(anew, "id") !== undefined && at(anew, "id") !== at(first, "id"), `D08: 24 hours and ${MARGIN_SECONDS / 60} minutes after its first use, the key answered ${describe(anew)}, expected a new charge`);
  },
};
