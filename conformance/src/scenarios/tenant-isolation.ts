/**
 * Tenant isolation: an account cannot read another account's resources. The document gives
 * each account its keys and its data; `secondAccount` asking for the first account's charge
 * (family A) or customer (family B) gets what an unknown id gets, never the resource.
 */
import { charge, customer } from "../checks/provisioning.ts";
import { NotApplicable } from "../core/check-context.ts";
import type { Scenario } from "../core/scenario.ts";
import { at, describe, is2xx, sender } from "./support.ts";

export const chargeTenantIsolation: Scenario = {
  id: "family-a/auth/tenant-isolation-charge",
  family: "family-a",
  profile: "seed",
  title: "secondAccount cannot read the first account's charge",
  statements: ["A-AUTH-AUTH-header", "A-CHARGES-ENDPOINT-get"],
  covers: [{ operationId: "getCharge", status: "404" }],
  async run(ctx, check) {
    ctx.keyValue("secondAccount");
    const send = sender(ctx, this.id);
    const id = await charge(ctx);
    const theirs = await send("getCharge", { key: "secondAccount", params: { id } });
    check.that(!is2xx(theirs), `secondAccount read the first account's charge ${id}: ${describe(theirs)}`);
    check.that(theirs.status < 500, `secondAccount's valid key was answered ${theirs.status}`);
    if (theirs.status >= 400) check.response("getCharge", "404", theirs);
    check.that(at(theirs, "id") !== id, "the response carries the first account's charge");
  },
};

/** Each account reads its own merchant: another account's key never gets the first account's. */
export const merchantTenantIsolation: Scenario = {
  id: "family-a/auth/tenant-isolation-merchant",
  family: "family-a",
  profile: "seed",
  title: "each account's key reads that account's merchant, not another's",
  statements: ["A-MERCHANT-ENDPOINT-get", "A-AUTH-AUTH-header"],
  covers: [{ operationId: "getMerchant", status: "200" }],
  async run(ctx, check) {
    ctx.keyValue("secondAccount");
    const send = sender(ctx, this.id);
    const mine = await send("getMerchant", {});
    const theirs = await send("getMerchant", { key: "secondAccount" });
    if (!is2xx(mine) || !is2xx(theirs)) throw new NotApplicable(`the merchant reads answered ${describe(mine)} and ${describe(theirs)}`);
    check.response("getMerchant", "200", theirs);
    const [a, b] = [at(mine, "id"), at(theirs, "id")];
    check.that(a === undefined || a !== b, `the primary account and secondAccount both read merchant ${JSON.stringify(a)}`);
  },
};

export const customerTenantIsolation: Scenario = {
  id: "family-b/auth/tenant-isolation-customer",
  family: "family-b",
  profile: "seed",
  title: "secondAccount cannot read, change or delete the first account's customer",
  statements: ["B-AUTH-AUTH-header", "B-CUSTOMER-ENDPOINT-get"],
  covers: [{ operationId: "getCustomer", status: "404" }],
  async run(ctx, check) {
    ctx.keyValue("secondAccount");
    const send = sender(ctx, this.id);
    const id = await customer(ctx);
    const read = await send("getCustomer", { key: "secondAccount", params: { id } });
    check.that(read.status >= 400 && read.status < 500, `secondAccount reading the first account's customer ${id}: ${describe(read)}`);
    if (read.status >= 400) check.response("getCustomer", "404", read);
    const update = await send("updateCustomer", { key: "secondAccount", params: { id }, body: { notes: "changed by another account" } });
    check.that(!is2xx(update), `secondAccount changed the first account's customer: ${describe(update)}`);
    const mine = await send("getCustomer", { params: { id } });
    check.that(mine.status === 200 && at(mine, "data.notes") !== "changed by another account", "the first account's customer was changed by secondAccount");
  },
};
