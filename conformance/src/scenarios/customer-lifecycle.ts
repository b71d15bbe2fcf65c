/**
 * Customer lifecycle (family B): create gives ACTIVE; get and update answer their documented
 * shapes (no phoneNumber, address without postalCode: checked by every response validation
 * through the catalogue's absent members); an update with no field is refused; delete is a
 * soft delete. What a deleted customer looks like is decision D19 (GET shows DELETED), so under
 * seed the scenario asks only what the document says: the customer is "marked as deleted", so
 * it is no longer shown as an ACTIVE customer.
 */
import type { Scenario } from "../core/scenario.ts";
import { decisionBehind } from "../core/profiles/document-word.ts";
import { at, customerRequest, describe, expectCode, is2xx, is4xx, require2xx, responseMemberSchema, sender } from "./support.ts";

export const customerLifecycle: Scenario = {
  id: "family-b/customers/lifecycle",
  family: "family-b",
  profile: "seed",
  title: "a customer is created ACTIVE, read, updated, refused an empty update, and soft-deleted",
  account: "any",
  statements: [
    "B-CUSTOMER-TRANSITION-create-active",
    "B-CUSTOMER-RULE-create-response-fields",
    "B-CUSTOMER-RULE-read-response-fields",
    "B-CUSTOMER-RULE-no-phoneNumber",
    "B-CUSTOMER-RULE-address-without-postalCode",
    "B-CUSTOMER-RULE-update-body",
    "B-CUSTOMER-TRANSITION-soft-delete",
    "B-CUSTOMER-ENDPOINT-delete",
  ],
  covers: [
    { operationId: "createCustomer", status: "201" },
    { operationId: "getCustomer", status: "200" },
    { operationId: "updateCustomer", status: "200" },
    { operationId: "updateCustomer", status: "400" },
    { operationId: "deleteCustomer", status: "200" },
  ],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const created = await send("createCustomer", customerRequest(ctx));
    require2xx(created, "create a customer");
    check.response("createCustomer", "201", created);
    check.that(at(created, "data.status") === "ACTIVE", `a new customer has status ${JSON.stringify(at(created, "data.status"))}, expected ACTIVE`);
    const id = String(at(created, "data.id"));

    const read = await send("getCustomer", { params: { id } });
    check.that(read.status === 200, `GET of the new customer answered ${describe(read)}`);
    if (read.status === 200) {
      check.response("getCustomer", "200", read);
      check.that(at(read, "data.status") === "ACTIVE", `GET shows status ${JSON.stringify(at(read, "data.status"))}, expected ACTIVE`);
      check.that(at(read, "data.email") === at(created, "data.email"), "GET shows another e-mail than creation");
    }

    const updated = await send("updateCustomer", { params: { id }, body: { name: "Cliente Renomeado" } });
    check.that(updated.status === 200, `an update of the name answered ${describe(updated)}`);
    if (updated.status === 200) check.response("updateCustomer", "200", updated);
    const reread = await send("getCustomer", { params: { id } });
    check.that(at(reread, "data.name") === "Cliente Renomeado", `after the update GET shows name ${JSON.stringify(at(reread, "data.name"))}`);
    if (reread.status === 200) check.response("getCustomer", "200", reread, "GET after update");

    const empty = await send("updateCustomer", { params: { id }, body: {} });
    check.that(is4xx(empty), `an update with no field answered ${describe(empty)}, expected a refusal`);
    if (is4xx(empty)) check.response("updateCustomer", "400", empty, "empty update");
    // The refusal's body and code are the project's (D32): the document names no validation codes.
    const refusalBody = ctx.responseAspect("updateCustomer", "400", "body", "VALIDATION_ERROR");
    if (ctx.asserts(refusalBody)) expectCode(check, empty, "VALIDATION_ERROR", `empty update (${decisionBehind(refusalBody)})`);

    const deleted = await send("deleteCustomer", { params: { id } });
    check.that(is2xx(deleted), `deleting the customer answered ${describe(deleted)}`);
    if (!is2xx(deleted)) return;
    check.response("deleteCustomer", "200", deleted);
    const after = await send("getCustomer", { params: { id } });
    check.that(after.status < 500 && after.status !== 401, `GET after delete answered ${describe(after)}`);
    if (is2xx(after)) {
      check.response("getCustomer", "200", after, "GET after delete");
      check.that(at(after, "data.status") !== "ACTIVE", "after the delete the customer is still shown ACTIVE: it is not marked as deleted");
    }
    // What the delete answers (D31) and which status marks a deleted customer (D19) are the project's.
    if (ctx.asserts(ctx.responseAspect("deleteCustomer", "200", "body"))) {
      check.that(at(deleted, "data.status") === "DELETED", `D31: the delete returns status ${JSON.stringify(at(deleted, "data.status"))}, expected DELETED`);
    }
    if (ctx.asserts({ kind: "keyword", schema: responseMemberSchema(ctx, "getCustomer", "200", "data.status"), keyword: "enum" })) {
      check.that(after.status === 200 && at(after, "data.status") === "DELETED", `D19: GET after delete shows ${describe(after)}, expected the record with status DELETED`);
    }
  },
};
