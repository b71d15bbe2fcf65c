/**
 * Decision D11 (full profile): a PIX charge "still `ATIVA` at its `expiresAt`, it can no longer
 * be paid and reads `REMOVIDA_PELO_PSP`". A PIX charge created with the shortest `expiresIn` the
 * contract allows reads `ATIVA` through `GET /pix/{pixId}` in the last second before its
 * `expiresAt`, and `REMOVIDA_PELO_PSP` once it has passed, the rate-limit account's clock moved
 * there (expiry.ts). That `expiresAt` is `createdAt` plus `expiresIn` is the response checks'
 * (`family-b/createPixCharge/201/lifetime-*`).
 */
import type { Scenario } from "../core/scenario.ts";
import { expiresAtItsExpiry } from "./expiry.ts";

export const pixChargeRemovedAtExpiresAt: Scenario = {
  id: "family-b/pix/removed-at-expires-at",
  family: "family-b",
  profile: "full",
  decision: "D11",
  title: "a PIX charge is ATIVA until its expiresAt, and REMOVIDA_PELO_PSP once it has passed",
  statements: ["B-PIX-ENDPOINT-create", "B-PIX-ENDPOINT-get"],
  covers: [
    { operationId: "createPixCharge", status: "201" },
    { operationId: "getPixCharge", status: "200" },
  ],
  async run(ctx, check) {
    await expiresAtItsExpiry(ctx, check, {
      scenarioId: this.id,
      decision: "D11",
      create: { operationId: "createPixCharge", lifetime: "expiresIn", headers: (c) => ({ "X-Idempotency-Key": c.idempotencyKey() }) },
      read: { operationId: "getPixCharge", parameter: "pixId" },
      paths: { id: "data.id", createdAt: "data.createdAt", expiresAt: "data.expiresAt", status: "data.status" },
      open: "ATIVA",
      closed: "REMOVIDA_PELO_PSP",
    });
  },
};
