/**
 * Decision D04 (full profile): "No transition leaves `paid` or `expired`." A paid charge still
 * reads `paid` once its `expires_at` has passed (paid-stays-paid.ts): expiry is for charges still
 * `pending` (D02).
 */
import type { Scenario } from "../core/scenario.ts";
import { payCharge } from "./sandbox-controls.ts";
import { paidStaysPaid } from "./paid-stays-paid.ts";

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
    await paidStaysPaid(ctx, check, {
      scenarioId: this.id,
      decision: "D04",
      create: { operationId: "createCharge", lifetime: "expires_in", headers: (c) => ({ "Idempotency-Key": c.idempotencyKey() }), without: ["webhook_url"] },
      pay: (c, key, id) => payCharge(c, this.id, key, id, "a charge cannot be paid in a run"),
      read: { operationId: "getCharge", parameter: "id" },
      paths: { id: "id", createdAt: "created_at", expiresAt: "expires_at", status: "status" },
      paid: "paid",
    });
  },
};
