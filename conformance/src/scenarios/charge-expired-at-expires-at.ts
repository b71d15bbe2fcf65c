/**
 * Decisions D02 and D04 (full profile). D02: "The charge's `expires_at` is `created_at` plus
 * `expires_in`; a charge still `pending` at `expires_at` becomes `expired` (D04)." D04: a charge
 * "becomes ... `expired` when `expires_at` passes unpaid". A charge created with the shortest
 * `expires_in` the contract allows reads `pending` through `GET /v1/charges/{id}` in the last
 * second before its `expires_at`, and `expired` once it has passed, the rate-limit account's
 * clock moved there (expiry.ts). That `expires_at` is `created_at` plus `expires_in` is the
 * response checks' (`family-a/createCharge/201/lifetime-*`).
 */
import type { Scenario } from "../core/scenario.ts";
import { expiresAtItsExpiry } from "./expiry.ts";

export const chargeExpiredAtExpiresAt: Scenario = {
  id: "family-a/charges/expired-at-expires-at",
  family: "family-a",
  profile: "full",
  decision: "D02",
  title: "a charge is pending until its expires_at, and expired once it has passed",
  statements: ["A-CHARGE-FIELD-expires_at", "A-CHARGE-FIELD-request.expires_in"],
  covers: [
    { operationId: "createCharge", status: "201" },
    { operationId: "getCharge", status: "200" },
  ],
  async run(ctx, check) {
    await expiresAtItsExpiry(ctx, check, {
      scenarioId: this.id,
      decision: "D02, D04",
      create: { operationId: "createCharge", lifetime: "expires_in", headers: (c) => ({ "Idempotency-Key": c.idempotencyKey() }) },
      read: { operationId: "getCharge", parameter: "id" },
      paths: { id: "id", createdAt: "created_at", expiresAt: "expires_at", status: "status" },
      open: "pending",
      closed: "expired",
    });
  },
};
