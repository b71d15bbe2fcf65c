/**
 * "Write operations require the `Idempotency-Key` header" (family A), with its stated length:
 * no key and a 7-character key give 400 IDEMPOTENCY_KEY_REQUIRED, an 8-character key creates
 * the charge.
 */
import type { Scenario } from "../core/scenario.ts";
import { chargeRequest, expectCode, is2xx, sender } from "./support.ts";

export const writesNeedIdempotencyKey: Scenario = {
  id: "family-a/idempotency/writes-need-key",
  family: "family-a",
  profile: "seed",
  title: "a charge creation needs an Idempotency-Key of at least 8 characters",
  account: "any",
  statements: ["A-IDEM-PRINCIPLE-writes-need-key", "A-IDEM-RULE-mandatory", "A-IDEM-ERROR-key-required", "A-LIMITS-LIMIT-idempotency-key"],
  covers: [
    { operationId: "createCharge", status: "400" },
    { operationId: "createCharge", status: "201" },
  ],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const missing = await send("createCharge", chargeRequest(ctx, undefined));
    check.that(missing.status === 400, `without Idempotency-Key: answered ${missing.status}, expected 400`);
    check.response("createCharge", "400", missing, "without Idempotency-Key");
    expectCode(check, missing, "IDEMPOTENCY_KEY_REQUIRED", "without Idempotency-Key");

    const seven = await send("createCharge", chargeRequest(ctx, ctx.idempotencyKey().slice(-7)));
    check.that(seven.status === 400, `with a 7-character key: answered ${seven.status}, expected 400`);
    check.response("createCharge", "400", seven, "with a 7-character key");
    expectCode(check, seven, "IDEMPOTENCY_KEY_REQUIRED", "with a 7-character key");

    const eight = await send("createCharge", chargeRequest(ctx, `k${ctx.runId}`.slice(0, 8)));
    check.that(is2xx(eight), `with an 8-character key: answered ${eight.status}, expected the charge`);
    if (is2xx(eight)) check.response("createCharge", "201", eight, "with an 8-character key");
  },
};
