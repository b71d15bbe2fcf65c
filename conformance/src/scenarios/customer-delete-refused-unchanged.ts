/**
 * A delete that is refused changes nothing: a customer tied to an open charge gets 409 OCD001
 * and is still there, as it was, afterwards: a second delete is refused the same way.
 */
import { customerWithOpenCharge } from "../checks/provisioning.ts";
import type { Scenario } from "../core/scenario.ts";
import { at, describe, expectCode, sender } from "./support.ts";

export const customerDeleteRefusedUnchanged: Scenario = {
  id: "family-b/customers/delete-refused-unchanged",
  family: "family-b",
  profile: "seed",
  title: "a customer tied to an open charge is not deleted (409 OCD001) and stays as it was",
  statements: ["B-ERRORS-ERROR-OCD001-409", "B-CUSTOMER-TRANSITION-soft-delete"],
  covers: [
    { operationId: "deleteCustomer", status: "409" },
    { operationId: "getCustomer", status: "200" },
  ],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const id = await customerWithOpenCharge(ctx);
    const before = await send("getCustomer", { params: { id } });
    const refused = await send("deleteCustomer", { params: { id } });
    check.that(refused.status === 409, `deleting a customer tied to an open charge answered ${describe(refused)}, expected 409`);
    check.response("deleteCustomer", "409", refused);
    expectCode(check, refused, "OCD001", "delete refused");
    const second = await send("deleteCustomer", { params: { id } });
    check.that(second.status === 409, `a second delete answered ${describe(second)}: after the refusal the customer is no longer there as it was`);
    check.response("deleteCustomer", "409", second, "second delete");
    expectCode(check, second, "OCD001", "second delete");
    const after = await send("getCustomer", { params: { id } });
    check.that(after.status === before.status, `GET answered ${before.status} before the refused delete, ${after.status} after`);
    if (after.status === 200) {
      check.response("getCustomer", "200", after);
      check.that(at(after, "data.status") === at(before, "data.status"), `the refused delete changed the status from ${String(at(before, "data.status"))} to ${String(at(after, "data.status"))}`);
    }
  },
};
