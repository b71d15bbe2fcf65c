/**
 * Decision D04 (full profile): "No transition leaves `paid` or `expired`." A charge created with
 * the shortest `expires_in` the contract allows and paid (through the sandbox's payment control)
 * still reads `paid` once its `expires_at` has passed, the rate-limit account's clock moved
 * beyond it (sandbox-controls.ts): expiry is for charges still `pending` (D02). Not applicable
 * without the payment or the clock control, or without the `rateLimits` key.
 */
import { NotApplicable } from "../core/check-context.ts";
import type { Scenario } from "../core/scenario.ts";
import { bodyWithLifetime, lifetimeKeyword } from "../checks/lifetime.ts";
import { advanceClock, clockKey, payCharge } from "./sandbox-controls.ts";
import { at, describe, is2xx, require2xx, sender } from "./support.ts";

const time = (value: unknown) => (typeof value === "string" ? Date.parse(value) : Number.NaN);

export const chargePaidStaysPaid: Scenario = {
  id: "family-a/charges/paid-stays-paid",
  family: "family-a",
  profile: "full",
  decision: "D04",
  title: "a paid charge stays paid once its expires_at has passed",
  statements: ["A-CHARGE-FIELD-expires_at"],
  covers: [
    { operationId: "createCharge", status: "201" },
    { operationId: "getCharge", status: "200" },
  ],
  async run(ctx, check) {
    const account = clockKey(ctx);
    const send = sender(ctx, this.id);
    const lifetime = lifetimeKeyword(ctx, "createCharge", "expires_in", "minimum");
    const body = bodyWithLifetime(ctx, "createCharge", "expires_in", lifetime);
    // No webhook_url: the payment would send an event to the example's address.
    delete body.webhook_url;
    const created = await send("createCharge", { key: account, body, headers: { "Idempotency-Key": ctx.idempotencyKey() } });
    require2xx(created, `create a charge with expires_in ${lifetime}`);
    const id = at(created, "id");
    const createdAt = time(at(created, "created_at"));
    const expiresAt = time(at(created, "expires_at"));
    if (!check.response("createCharge", "201", created) || typeof id !== "string" || Number.isNaN(createdAt) || Number.isNaN(expiresAt)) return;
    await payCharge(ctx, this.id, account, id, "a charge cannot be paid in a run");
    const now = await advanceClock(ctx, this.id, Math.max(1, Math.ceil((expiresAt - createdAt) / 1000) + 1), "a charge's lifetime cannot pass in a run");
    if (!(now >= expiresAt)) throw new NotApplicable(`the clock control's answer (now ${String(now)}) does not place the account past the charge's expires_at`);
    const read = await send("getCharge", { key: account, params: { id } });
    check.that(is2xx(read) && at(read, "status") === "paid", `D04: a paid charge read once its expires_at ${new Date(expiresAt).toISOString()} had passed answered ${is2xx(read) ? `status ${JSON.stringify(at(read, "status"))}` : describe(read)}, expected paid`);
    if (is2xx(read)) check.response("getCharge", "200", read);
  },
};
