/**
 * Decision D07: a used Idempotency-Key with another payload is refused with 422
 * IDEMPOTENCY_KEY_MISMATCH, and the key still replays the original charge afterwards.
 */
import type { Scenario } from "../core/scenario.ts";
import { at, chargeRequest, expectCode, require2xx, sender, type Json } from "./support.ts";

export const mismatchKeepsOriginal: Scenario = {
  id: "family-a/idempotency/mismatch-keeps-original",
  family: "family-a",
  profile: "full",
  decision: "D07",
  title: "a used key with another payload gives 422 and leaves the original charge",
  account: "any",
  statements: ["A-IDEM-RULE-replay"],
  covers: [
    { operationId: "createCharge", status: "422" },
    { operationId: "createCharge", status: "201" },
  ],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const key = ctx.idempotencyKey();
    const original = chargeRequest(ctx, key);
    const first = await send("createCharge", original);
    require2xx(first, "create a charge");
    const changed = { ...(original.body as Json), amount: Number((original.body as Json).amount) + 1 };
    const mismatch = await send("createCharge", { ...original, body: changed });
    check.that(mismatch.status === 422, `another payload with a used key answered ${mismatch.status}, expected 422`);
    check.response("createCharge", "422", mismatch, "other payload");
    expectCode(check, mismatch, "IDEMPOTENCY_KEY_MISMATCH", "other payload");
    const replay = await send("createCharge", original);
    check.that(at(replay, "id") === at(first, "id") && at(replay, "amount") === at(first, "amount"), "after the refused payload the key no longer replays the original charge");
  },
};
