/**
 * Decisions D28 and D15 (full profile): the pages of the transaction list split it. With a
 * limit, page `p` lists the items at positions `(p - 1) * limit` to `p * limit` of the list read
 * whole (one page of the largest limit), in the same order; every page repeats `page` and
 * `limit` and gives the list's `total` and `totalPages` (`total` divided by `limit`, rounded up);
 * a page past the last answers 200 with no items. Three transactions are created first, so that
 * a limit of two makes at least two pages.
 */
import { exampleBody } from "../checks/provisioning.ts";
import type { Scenario } from "../core/scenario.ts";
import { NotApplicable } from "../core/check-context.ts";
import { at, describe, require2xx, sender } from "./support.ts";

/** The page size the scenario splits the list with. */
const LIMIT = 2;
/** The largest page size (D28): the list read whole while it is no longer. */
const WHOLE = 100;

const idsOf = (items: unknown): string[] => (Array.isArray(items) ? items.map((item) => String((item as { id?: unknown })?.id)) : []);

export const transactionPagesSplitTheList: Scenario = {
  id: "family-b/transactions/pages-split-the-list",
  family: "family-b",
  profile: "full",
  decision: "D28",
  title: "the pages of the transaction list split it in order, with its total and number of pages",
  account: "any",
  statements: ["B-LIMITS-LIMIT-pagination", "B-TX-ENDPOINT-list"],
  covers: [{ operationId: "listTransactions", status: "200" }],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    for (let i = 0; i < 3; i += 1) {
      const body = exampleBody(ctx, "createTransaction");
      delete body.customerId; // the example names a customer that does not exist on the server
      require2xx(await send("createTransaction", { body }), "create a transaction to list");
    }
    const page = async (number: number, limit: number) => {
      const response = await send("listTransactions", { query: { page: String(number), limit: String(limit) } });
      require2xx(response, `list page ${number} with limit ${limit}`);
      check.response("listTransactions", "200", response, `page ${number}, limit ${limit}`);
      return response;
    };
    const whole = await page(1, WHOLE);
    const total = Number(at(whole, "data.total"));
    const all = idsOf(at(whole, "data.items"));
    if (!Number.isInteger(total) || total > WHOLE || all.length !== total) {
      throw new NotApplicable(`the list holds ${String(at(whole, "data.total"))} transactions, more than one page of ${WHOLE} shows (or not an integer): it cannot be read whole`);
    }
    const pages = Math.ceil(total / LIMIT);
    for (let number = 1; number <= pages + 1; number += 1) {
      const response = await page(number, LIMIT);
      const label = `page ${number} with limit ${LIMIT} of a list of ${total}`;
      const expected = all.slice((number - 1) * LIMIT, number * LIMIT);
      const listed = idsOf(at(response, "data.items"));
      check.that(JSON.stringify(listed) === JSON.stringify(expected), `${label} listed ${JSON.stringify(listed)}, expected ${JSON.stringify(expected)} (positions ${(number - 1) * LIMIT} to ${number * LIMIT - 1} of the whole list)`);
      check.that(at(response, "data.page") === number && at(response, "data.limit") === LIMIT, `${label}: page ${String(at(response, "data.page"))} and limit ${String(at(response, "data.limit"))} do not repeat the query (${describe(response)})`);
      check.that(at(response, "data.total") === total && at(response, "data.totalPages") === pages, `${label}: total ${String(at(response, "data.total"))} and totalPages ${String(at(response, "data.totalPages"))}, expected ${total} and ${pages}`);
    }
  },
};
