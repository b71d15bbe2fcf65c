/**
 * "Family A (prefix /v1 under {base_url})" and "Family A is versioned by path segment /v1":
 * every family A operation answers under `{base_url}/v1/...`, and its answers are the
 * contract's. (Whether other paths also answer is not stated, so it is not judged.)
 */
import type { Scenario } from "../core/scenario.ts";
import { at, chargeRequest, describe, is2xx, sender } from "./support.ts";

export const familyAUnderV1: Scenario = {
  id: "family-a/versioning/v1-path-segment",
  family: "family-a",
  profile: "seed",
  title: "every family A operation answers under {base_url}/v1",
  account: "any",
  statements: ["A-SERVICE-RULE-v1-prefix", "A-VERSION-VERSIONING-path-segment", "A-CHARGES-ENDPOINT-create", "A-CHARGES-ENDPOINT-get", "A-MERCHANT-ENDPOINT-get"],
  covers: [
    { operationId: "getMerchant", status: "200" },
    { operationId: "createCharge", status: "201" },
    { operationId: "getCharge", status: "200" },
  ],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    for (const op of ctx.contract.operations) check.that(op.path.startsWith("/v1/"), `the contract's ${op.operationId} is not under /v1`);
    const merchant = await send("getMerchant");
    check.that(merchant.status === 200, `GET /v1/merchant answered ${describe(merchant)}`);
    if (merchant.status === 200) check.response("getMerchant", "200", merchant);
    const created = await send("createCharge", chargeRequest(ctx, ctx.idempotencyKey()));
    check.that(is2xx(created), `POST /v1/charges answered ${describe(created)}`);
    if (!is2xx(created)) return;
    check.response("createCharge", "201", created);
    const id = at(created, "id");
    if (typeof id !== "string") return;
    const read = await send("getCharge", { params: { id } });
    check.that(is2xx(read), `GET /v1/charges/{id} answered ${describe(read)}`);
    if (is2xx(read)) check.response("getCharge", "200", read);
  },
};
