/**
 * Decision D19 (full profile): a soft-deleted customer stays deleted. "Customer marked as
 * deleted (soft delete; record kept)": the record is kept to be read, not to be changed, so an
 * update of a deleted customer is refused with 400 VALIDATION_ERROR, whether it changes a field
 * or tries to set the status back to ACTIVE, and the customer reads as it was deleted.
 */
import type { Scenario } from "../core/scenario.ts";
import { at, codeOf, deletedCustomer, describe, require2xx, sender } from "./support.ts";

export const customerUpdateRefusedWhenDeleted: Scenario = {
  id: "family-b/customers/update-refused-when-deleted",
  family: "family-b",
  profile: "full",
  decision: "D19",
  title: "an update of a deleted customer is refused (400 VALIDATION_ERROR) and changes nothing",
  account: "any",
  statements: ["B-CUSTOMER-TRANSITION-soft-delete"],
  covers: [{ operationId: "updateCustomer", status: "400" }],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const { id } = await deletedCustomer(ctx, send);
    const before = await send("getCustomer", { params: { id } });
    require2xx(before, "read the deleted customer");
    for (const body of [{ name: "Nome Depois da Exclusao" }, { status: "ACTIVE" }]) {
      const update = await send("updateCustomer", { params: { id }, body });
      check.that(update.status === 400 && codeOf(update) === "VALIDATION_ERROR", `D19: an update ${JSON.stringify(body)} of the deleted customer answered ${describe(update)}, expected 400 VALIDATION_ERROR`);
      if (update.status === 400) check.response("updateCustomer", "400", update, "update of a deleted customer");
    }
    const after = await send("getCustomer", { params: { id } });
    require2xx(after, "read the deleted customer again");
    for (const path of ["data.name", "data.status", "data.updatedAt"]) {
      check.that(at(after, path) === at(before, path), `D19: after the refused updates the deleted customer's ${path} is ${JSON.stringify(at(after, path))}, it was ${JSON.stringify(at(before, path))}`);
    }
  },
};
