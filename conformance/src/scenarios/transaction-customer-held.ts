/**
 * Decision D15 (full profile): a transaction's `customerId` names a customer of the calling
 * account that is not deleted. A transaction that names a customer the account does not hold
 * (an id no customer has), or one it deleted, is refused with 400 VALIDATION_ERROR, with or
 * without an X-Idempotency-Key, and creates nothing: the same key then creates the transaction
 * once the body names no customer. A transaction that names a customer the account holds, in
 * each status it can have but deleted (ACTIVE, and INACTIVE set by an update: D19), is created
 * with that `customerId`, and reads back with it.
 */
import { exampleBody } from "../checks/provisioning.ts";
import type { Scenario } from "../core/scenario.ts";
import { at, codeOf, customerRequest, deletedCustomer, describe, is2xx, require2xx, sender } from "./support.ts";

export const transactionCustomerHeld: Scenario = {
  id: "family-b/transactions/customer-held",
  family: "family-b",
  profile: "full",
  decision: "D15",
  title: "a transaction naming a customer the account holds, active or inactive, is created; one it does not hold, or a deleted one, is refused (400 VALIDATION_ERROR)",
  account: "any",
  statements: ["B-TX-ENDPOINT-create"],
  covers: [
    { operationId: "createTransaction", status: "400" },
    { operationId: "createTransaction", status: "201" },
  ],
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
    for (const status of ["ACTIVE", "INACTIVE"] as const) {
      const customer = await send("createCustomer", customerRequest(ctx));
      require2xx(customer, "create a customer");
      const customerId = String(at(customer, "data.id"));
      if (status !== "ACTIVE") require2xx(await send("updateCustomer", { params: { id: customerId }, body: { status } }), `set a customer ${status}`);
      const created = await send("createTransaction", { body: { ...body, customerId }, headers: { "X-Idempotency-Key": ctx.idempotencyKey() } });
      check.that(created.status === 201, `D15: a transaction naming an ${status} customer of the account answered ${describe(created)}, expected 201`);
      if (created.status !== 201) continue;
      check.response("createTransaction", "201", created, `transaction naming an ${status} customer`);
      const read = await send("getTransaction", { params: { transactionId: String(at(created, "data.id")) } });
      check.that(at(created, "data.customerId") === customerId && at(read, "data.customerId") === customerId, `D15: a transaction naming an ${status} customer carries customerId ${JSON.stringify(at(created, "data.customerId"))} and reads back with ${JSON.stringify(at(read, "data.customerId"))}, expected ${customerId}`);
    }
  },
};
