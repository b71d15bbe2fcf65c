/**
 * "Keys starting with `sk_test_` are planned for a future sandbox and are not usable now" and
 * "Family A runs only in production": a live family A server refuses the target's `sk_test_`
 * key with 401. A sandbox target (decision D38: it takes only test keys) is not a live server.
 */
import { NotApplicable } from "../core/check-context.ts";
import type { Scenario } from "../core/scenario.ts";
import { chargeRequest, describe, sender } from "./support.ts";

export const testKeysRefusedByLive: Scenario = {
  id: "family-a/auth/test-keys-refused-live",
  family: "family-a",
  profile: "seed",
  title: "a live family A server refuses sk_test_ keys",
  statements: ["A-AUTH-AUTH-test-keys", "A-SERVICE-PRINCIPLE-live-only"],
  covers: [
    { operationId: "getMerchant", status: "401" },
    { operationId: "createCharge", status: "401" },
  ],
  async run(ctx, check) {
    if (ctx.familyA?.environment !== "live") throw new NotApplicable("the target is a sandbox (environment: sandbox): only a live server must refuse sk_test_ keys");
    const key = ctx.keyValue("testKey")!;
    if (!key.startsWith("sk_test_")) throw new NotApplicable("the target's testKey does not start with sk_test_");
    const send = sender(ctx, this.id);
    const read = await send("getMerchant", { key: "testKey" });
    check.that(read.status >= 400 && read.status < 500, `GET /v1/merchant with an sk_test_ key answered ${describe(read)}, expected 401`);
    if (read.status >= 400) check.response("getMerchant", "401", read);
    const write = await send("createCharge", chargeRequest(ctx, ctx.idempotencyKey(), { key: "testKey" }));
    check.that(write.status >= 400 && write.status < 500, `POST /v1/charges with an sk_test_ key answered ${describe(write)}, expected 401`);
    if (write.status >= 400) check.response("createCharge", "401", write);
  },
};
