/**
 * A delete is a soft delete: "customer marked as deleted (soft delete; record kept)". The record
 * is kept, so the deleted customer's id still matches a customer: a second delete of it must not
 * answer 404 OCD001, the code the document gives when the "id matches no customer". What the
 * second delete answers otherwise (200 again, 409 already deleted...) and what a GET of a deleted
 * customer shows are the server's (D19), so they are not asked here.
 */
import type { Scenario } from "../core/scenario.ts";
import { deletedCustomer, describe, sender } from "./support.ts";

export const customerSoftDeleteKeepsRecord: Scenario = {
  id: "family-b/customers/soft-delete-keeps-record",
  family: "family-b",
  profile: "seed",
  title: "a deleted customer's record is kept: its id still matches a customer (no 404 OCD001 afterwards)",
  account: "any",
  statements: ["B-CUSTOMER-TRANSITION-soft-delete", "B-ERRORS-ERROR-OCD001-404"],
  covers: [{ operationId: "deleteCustomer", status: "200" }],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const { id } = await deletedCustomer(ctx, send);
    const again = await send("deleteCustomer", { params: { id } });
    check.that(
      again.status !== 404,
      `a second delete of the soft-deleted customer answered ${describe(again)}: 404 OCD001 says the id matches no customer, so the record was not kept`,
    );
  },
};
