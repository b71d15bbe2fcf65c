/**
 * "Customer: an update may set `status`." An update whose only field is status is accepted and
 * the customer then has that status. The status sent is ACTIVE, the one value the document gives
 * (other values are not shown), so a faithful server cannot refuse it as unknown.
 */
import type { Scenario } from "../core/scenario.ts";
import { at, customerRequest, describe, require2xx, sender } from "./support.ts";

export const customerUpdateSetsStatus: Scenario = {
  id: "family-b/customers/update-sets-status",
  family: "family-b",
  profile: "seed",
  title: "an update may set status: PUT {status: ACTIVE} is accepted and shown",
  account: "any",
  statements: ["B-CUSTOMER-TRANSITION-update-status", "B-CUSTOMER-RULE-update-body"],
  covers: [{ operationId: "updateCustomer", status: "200" }],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const created = await send("createCustomer", customerRequest(ctx));
    require2xx(created, "create a customer");
    const id = String(at(created, "data.id"));
    const updated = await send("updateCustomer", { params: { id }, body: { status: "ACTIVE" } });
    check.that(updated.status === 200, `an update setting status ACTIVE answered ${describe(updated)}, expected 200`);
    if (updated.status !== 200) return;
    check.response("updateCustomer", "200", updated, "update of status");
    check.that(at(updated, "data.status") === "ACTIVE", `the update of status answered status ${JSON.stringify(at(updated, "data.status"))}, expected ACTIVE`);
  },
};
