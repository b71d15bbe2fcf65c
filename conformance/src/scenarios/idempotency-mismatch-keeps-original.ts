/**
 * Decision D07: a used Idempotency-Key with another payload is refused with 422
 * IDEMPOTENCY_KEY_MISMATCH, and the key still replays the original charge afterwards. A payload
 * is another one wherever it differs: where the server takes a member no schema names, a change
 * deep inside it (an array item, a nested value, arrays `[3, 1]` and `[31]`) is refused too.
 */
import type { Scenario } from "../core/scenario.ts";
import { at, chargeRequest, describe, expectCode, is4xx, require2xx, sender, UNKNOWN_MEMBER, type Json } from "./support.ts";

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

    // A server may refuse members it does not know: then the payloads above are all it is asked.
    const extended = chargeRequest(ctx, ctx.idempotencyKey());
    const withUnknown = { ...extended, body: { ...(extended.body as Json), ...UNKNOWN_MEMBER } };
    const nested = await send("createCharge", withUnknown);
    if (is4xx(nested)) return;
    require2xx(nested, "create a charge with a member no schema names");
    const extra = UNKNOWN_MEMBER["x-conformance-extra"];
    for (const [what, other] of [
      ["an array's items run together ([31, ...] for [3, 1, ...])", { ...extra, zeta: [31, ...extra.zeta.slice(2)] }],
      ["an array item's nested value", { ...extra, zeta: [3, 1, { b: true, a: 0 }] }],
      ["a nested member's value", { ...extra, alpha: "texts" }],
      ["an array given as an object of the same items by index", { ...extra, zeta: { ...extra.zeta } }],
    ] as const) {
      const changedDeep = await send("createCharge", { ...withUnknown, body: { ...(withUnknown.body as Json), "x-conformance-extra": other } });
      check.that(changedDeep.status === 422, `D07: a payload differing only in ${what} under a used key answered ${describe(changedDeep)}, expected 422 IDEMPOTENCY_KEY_MISMATCH`);
    }
  },
};
