/**
 * "List endpoints are paginated with page and limit": with more records than the limit, the
 * first and the second page differ, and so do a page of one record and a page of two. Where the
 * items sit in the list's body is the server's (the transaction shapes are not shown), so the
 * bodies are compared whole, the envelope's timestamp aside: a server that ignores page or limit
 * answers the same body.
 */
import { exampleBody } from "../checks/provisioning.ts";
import type { Scenario } from "../core/scenario.ts";
import type { ObservedResponse } from "../core/validate.ts";
import { NotApplicable } from "../core/check-context.ts";
import { at, describe, json, require2xx, sameJson, sender } from "./support.ts";

/** The body without the members that change with every response. */
function stable(response: ObservedResponse): unknown {
  const body = json(response);
  if (!body) return response.body;
  const { timestamp: _timestamp, requestId: _requestId, ...rest } = body;
  return rest;
}

export const transactionsPaginated: Scenario = {
  id: "family-b/transactions/paginated",
  family: "family-b",
  profile: "seed",
  title: "the transaction list is paginated with page and limit: pages and limits change what is listed",
  account: "any",
  statements: ["B-LIMITS-LIMIT-pagination", "B-TX-ENDPOINT-list"],
  covers: [{ operationId: "listTransactions", status: "200" }],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const created: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const body = exampleBody(ctx, "createTransaction");
      delete body.customerId; // the example names a customer that does not exist on the server
      const response = await send("createTransaction", { body });
      require2xx(response, "create a transaction to list");
      const id = ["data.id", "data.transactionId", "id"].map((path) => at(response, path)).find((v) => typeof v === "string" || typeof v === "number");
      if (id !== undefined) created.push(String(id));
    }
    const page = async (page: number, limit: number) => {
      const response = await send("listTransactions", { query: { page: String(page), limit: String(limit) } });
      require2xx(response, `list page ${page} with limit ${limit}`);
      check.response("listTransactions", "200", response, `page ${page}, limit ${limit}`);
      return response;
    };
    const first = await page(1, 1);
    const second = await page(2, 1);
    const wider = await page(1, 2);
    const same = sameJson(stable(first), stable(second)) || sameJson(stable(first), stable(wider));
    // The default filters are the server's (status, period): a list that shows none of the new
    // transactions may be filtering them out, not ignoring page and limit.
    if (same && !created.some((id) => [first, second, wider].some((r) => r.body.includes(id)))) {
      throw new NotApplicable("the list answered alike for every page and shows none of the transactions this scenario created: its default filters may hide them");
    }
    check.that(!sameJson(stable(first), stable(second)), `page 2 with limit 1 answered the same as page 1 (${describe(second)}): the page is ignored`);
    check.that(!sameJson(stable(first), stable(wider)), `limit 2 answered the same as limit 1 (${describe(wider)}): the limit is ignored`);
  },
};
