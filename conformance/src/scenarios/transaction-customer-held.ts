/**
 * Decision D15 (full profile): a transaction's `customerId` names a customer of the calling
 * account that is not deleted. A transaction that names a customer the account does not hold
 * (an id no customer has), or one it deleted, is refused with 400 VALIDATION_ERROR, with or
 * without an X-Idempotency-Key, and creates nothing: the same key then creates the transaction
 * once the body names no customer.
 */
import { exampleBody } from "../checks/provisioning.ts";
import type { Scenario } from "../core/scenario.ts";
import { codeOf, deletedCustomer, describe, is2xx, sender } from "./support.ts";

export const transactionCustomerHeld: Scenario = {
  id: "family-b/transactions/customer-held",
  family: "family-b",
  profile: "full",
  decision: "D15",
  title: "a transaction naming a customer the account does not hold, or a deleted one, is refused (400 VALIDATION_ERROR)",
  account: "any",
  statements: ["B-TX-ENDPOINT-create"],
  covers: [{ operationId: "createTransaction", status: "400" }],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const { id: deleted } = await deletedCustomer(ctx, send);
    const body = exampleBody(ctx, "createTransaction");
    for (const [what, customerId, key] of [
      ["an id no customer has", ctx.uuid(), undefined],
      ["an id no customer has, with an X-Idempotency-Key", ctx.uuid(), ctx.idempotencyKey()],
      ["a deleted customer's id, with an X-Idempotency-Key", deleted, ctx.idempotencyKey()],
    ] as const) {
      const headers: Record<string, string> = key === undefined ? {} : { "X-Idempotency-Key": key };
      const refused = await send("createTransaction", { body: { ...body, customerId }, headers });
      check.that(refused.status === 400 && codeOf(refused) === "VALIDATION_ERROR", `D15: a transaction naming ${what} answered ${describe(refused)}, expected 400 VALIDATION_ERROR`);
      if (refused.status === 400) check.response("createTransaction", "400", refused, `transaction naming ${what}`);
      if (key === undefined) continue;
      // The refusal stored nothing under the key: the same key creates once the body is right.
      const { customerId: _named, ...free } = body;
      const createdAfter = await send("createTransaction", { body: free, headers });
      check.that(is2xx(createdAfter), `D15: after a refusal for ${what}, the same X-Idempotency-Key with no customer answered ${describe(createdAfter)}, expected the transaction created`);
    }
  },
};
