/**
 * "| Content-Type | for POST and PUT | application/json |" (family B): POST and PUT requests
 * whose body is sent as `application/json` are read as JSON: a customer created and updated
 * that way holds what was sent. Under full (decision D39) a body that is not JSON is refused
 * with 400.
 */
import type { Scenario } from "../core/scenario.ts";
import { at, customerRequest, describe, is2xx, require2xx, sender, type Json } from "./support.ts";

export const postAndPutTakeJson: Scenario = {
  id: "family-b/headers/content-type-json",
  family: "family-b",
  profile: "seed",
  title: "POST and PUT bodies are application/json",
  account: "any",
  statements: ["B-AUTH-HEADER-content-type", "AB-SERVICE-PRINCIPLE-json-bodies"],
  covers: [
    { operationId: "createCustomer", status: "201" },
    { operationId: "updateCustomer", status: "200" },
  ],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const request = customerRequest(ctx, { headers: { "content-type": "application/json" } });
    const created = await send("createCustomer", request);
    check.that(is2xx(created), `POST with Content-Type application/json answered ${describe(created)}`);
    require2xx(created, "create a customer");
    check.response("createCustomer", "201", created);
    check.that(at(created, "data.name") === (request.body as Json).name, "the created customer does not hold the name sent as JSON");
    const id = at(created, "data.id");
    if (typeof id !== "string" && typeof id !== "number") return;
    const updated = await send("updateCustomer", { params: { id: String(id) }, body: { name: "Nome Atualizado JSON" }, headers: { "content-type": "application/json" } });
    check.that(updated.status === 200, `PUT with Content-Type application/json answered ${describe(updated)}`);
    if (updated.status !== 200) return;
    check.response("updateCustomer", "200", updated);
    check.that(at(updated, "data.name") === "Nome Atualizado JSON", "the update sent as JSON was not applied");
    if (ctx.asserts({ kind: "behaviour", node: ctx.contract.document, about: "unreadable bodies" })) {
      const notJson = await send("createCustomer", { body: "name=Cliente", headers: { "content-type": "application/x-www-form-urlencoded" } });
      check.that(notJson.status === 400, `D39: a body that is not JSON answered ${notJson.status}, expected 400`);
      check.response("createCustomer", "400", notJson, "body not JSON");
    }
  },
};
