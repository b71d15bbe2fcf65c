/**
 * "When the key has never been seen, the charge is created": two new keys with the same
 * payload create two charges, each readable afterwards.
 */
import type { Scenario } from "../core/scenario.ts";
import { at, chargeRequest, is2xx, require2xx, sender } from "./support.ts";

export const newKeyCreatesCharge: Scenario = {
  id: "family-a/idempotency/new-key-creates",
  family: "family-a",
  profile: "seed",
  title: "each never-seen Idempotency-Key creates its own charge",
  account: "any",
  statements: ["A-IDEM-RULE-new-key", "A-CHARGES-RULE-returns-charge"],
  covers: [
    { operationId: "createCharge", status: "201" },
    { operationId: "getCharge", status: "200" },
  ],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const first = await send("createCharge", chargeRequest(ctx, ctx.idempotencyKey()));
    const second = await send("createCharge", chargeRequest(ctx, ctx.idempotencyKey()));
    check.that(is2xx(first) && is2xx(second), `two new keys: answered ${first.status} and ${second.status}, expected two charges`);
    require2xx(first, "create a charge");
    require2xx(second, "create a second charge");
    check.response("createCharge", "201", first, "first key");
    check.response("createCharge", "201", second, "second key");
    const ids = [at(first, "id"), at(second, "id")];
    check.that(typeof ids[0] === "string" && ids[0] !== ids[1], `two new keys returned the same charge ${String(ids[0])}`);
    for (const id of ids) {
      if (typeof id !== "string") continue;
      const read = await send("getCharge", { params: { id } });
      check.that(is2xx(read), `GET /v1/charges/${id} answered ${read.status}: the created charge is not readable`);
      if (is2xx(read)) check.response("getCharge", "200", read, `GET ${id}`);
    }
  },
};
