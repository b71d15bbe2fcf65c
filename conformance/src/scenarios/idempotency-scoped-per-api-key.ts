/**
 * "Keys are scoped per API key; each client has its own key space": the same Idempotency-Key
 * sent with the second account's key creates an independent charge, never the first one's,
 * and each key replays its own charge.
 */
import type { Scenario } from "../core/scenario.ts";
import { at, chargeRequest, is2xx, require2xx, sender } from "./support.ts";

export const keysScopedPerApiKey: Scenario = {
  id: "family-a/idempotency/scoped-per-api-key",
  family: "family-a",
  profile: "seed",
  title: "the same Idempotency-Key under another API key creates an independent charge",
  statements: ["A-IDEM-RULE-scoped-per-key", "A-IDEM-RULE-new-key"],
  covers: [{ operationId: "createCharge", status: "201" }],
  async run(ctx, check) {
    ctx.keyValue("secondAccount");
    const send = sender(ctx, this.id);
    const key = ctx.idempotencyKey();
    const mine = await send("createCharge", chargeRequest(ctx, key));
    require2xx(mine, "create a charge with the primary key");
    check.response("createCharge", "201", mine, "primary key");
    const theirs = await send("createCharge", chargeRequest(ctx, key, { key: "secondAccount" }));
    check.that(is2xx(theirs), `the same Idempotency-Key under secondAccount answered ${theirs.status}, expected a new charge`);
    if (!is2xx(theirs)) return;
    check.response("createCharge", "201", theirs, "secondAccount");
    check.that(at(theirs, "id") !== at(mine, "id"), `secondAccount received the first account's charge ${String(at(mine, "id"))}`);
    // A charge without a PIX block (its presence is decision D35) shows no txid to compare.
    if (at(mine, "pix.txid") !== undefined) check.that(at(theirs, "pix.txid") !== at(mine, "pix.txid"), "secondAccount received the first account's PIX txid");
    const mineAgain = await send("createCharge", chargeRequest(ctx, key));
    const theirsAgain = await send("createCharge", chargeRequest(ctx, key, { key: "secondAccount" }));
    check.that(at(mineAgain, "id") === at(mine, "id"), `the primary key's replay returned ${String(at(mineAgain, "id"))}, not its own charge ${String(at(mine, "id"))}`);
    check.that(at(theirsAgain, "id") === at(theirs, "id"), `secondAccount's replay returned ${String(at(theirsAgain, "id"))}, not its own charge ${String(at(theirs, "id"))}`);
  },
};
