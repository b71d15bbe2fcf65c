/**
 * "| Queries | 200 requests/min | GET of transactions, PIX, account, webhooks |" (family B): a
 * GET of PIX charges and of transactions announces one of its limits (general or queries, per
 * minute: the published figures or the target's plan's), and here the queries figure. Under
 * the published figures the general limit (100) binds first, so a server describing the limit
 * closest to exhaustion (decision D27) never shows 200: then the rule is not seen here.
 */
import { pixCharge } from "../checks/provisioning.ts";
import type { Scenario } from "../core/scenario.ts";
import { judgeAnnounced } from "./rate-limit-announced.ts";
import { require2xx, sender } from "./support.ts";

export const queryLimitAnnounced: Scenario = {
  id: "family-b/rate-limits/queries-announced",
  family: "family-b",
  profile: "seed",
  title: "GETs of PIX charges and transactions announce the queries limit, 200 per minute (or the target's plan)",
  statements: ["B-LIMITS-LIMIT-queries", "B-LIMITS-HEADER-rate-limit"],
  covers: [
    { operationId: "getPixCharge", status: "200" },
    { operationId: "listTransactions", status: "200" },
  ],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const pix = await send("getPixCharge", { params: { pixId: await pixCharge(ctx) } });
    require2xx(pix, "read a PIX charge (response shape: decision D14)");
    const list = await send("listTransactions", {});
    require2xx(list, "list transactions (response shape: decision D15)");
    judgeAnnounced(ctx, check, "queries", [
      { label: "PIX charge read", operationId: "getPixCharge", status: "200", response: pix },
      { label: "transaction list", operationId: "listTransactions", status: "200", response: list },
    ]);
  },
};
