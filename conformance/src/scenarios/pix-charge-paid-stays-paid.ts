/**
 * Decision D11 (full profile): `CONCLUIDA` is final. A paid PIX charge still reads `CONCLUIDA`
 * once its `expiresAt` has passed (paid-stays-paid.ts): the removal at `expiresAt` is for charges
 * still `ATIVA` (`family-b/pix/removed-at-expires-at`).
 */
import type { Scenario } from "../core/scenario.ts";
import { payPixCharge } from "./sandbox-controls.ts";
import { paidStaysPaid } from "./paid-stays-paid.ts";

export const pixChargePaidStaysPaid: Scenario = {
  id: "family-b/pix/paid-stays-paid",
  family: "family-b",
  profile: "full",
  decision: "D11",
  title: "a paid PIX charge stays CONCLUIDA once its expiresAt has passed",
  statements: ["B-PIX-ENDPOINT-create", "B-PIX-ENDPOINT-get"],
  covers: [
    { operationId: "createPixCharge", status: "201" },
    { operationId: "getPixCharge", status: "200" },
  ],
  async run(ctx, check) {
    await paidStaysPaid(ctx, check, {
      scenarioId: this.id,
      decision: "D11",
      create: { operationId: "createPixCharge", lifetime: "expiresIn", headers: (c) => ({ "X-Idempotency-Key": c.idempotencyKey() }) },
      pay: (c, key, id) => payPixCharge(c, this.id, key, id, "a PIX charge cannot be paid in a run"),
      read: { operationId: "getPixCharge", parameter: "pixId" },
      paths: { id: "data.id", createdAt: "data.createdAt", expiresAt: "data.expiresAt", status: "data.status" },
      paid: "CONCLUIDA",
    });
  },
};
