/**
 * "| Transactions | 50 creations/min | POST /transactions |" (family B): a transaction
 * creation announces one of its limits (general or transactions, per minute: the published
 * figures or the target's plan's), and here the transactions figure (sent again at the start of
 * a window when the account's use made another limit the closest to exhaustion). The request
 * shape is decision D15: a server that refuses it makes the scenario not applicable.
 */
import { exampleBody } from "../checks/provisioning.ts";
import type { Scenario } from "../core/scenario.ts";
import { inFreshWindow, judgeAnnounced } from "./rate-limit-announced.ts";
import { require2xx, sender } from "./support.ts";

export const transactionLimitAnnounced: Scenario = {
  id: "family-b/rate-limits/transactions-announced",
  family: "family-b",
  profile: "seed",
  title: "transaction creations announce the transactions limit, 50 per minute (or the target's plan)",
  statements: ["B-LIMITS-LIMIT-transactions", "B-LIMITS-HEADER-rate-limit"],
  covers: [{ operationId: "createTransaction", status: "201" }],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const body = exampleBody(ctx, "createTransaction");
    delete body.customerId; // the example names a customer that does not exist on the server
    const create = () => send("createTransaction", { body, headers: { "X-Idempotency-Key": ctx.idempotencyKey() } });
    const created = await create();
    require2xx(created, "create a transaction (request shape: decision D15)");
    const announcements = await inFreshWindow(ctx, "transactions", { label: "transaction creation", operationId: "createTransaction", status: "201", response: created }, create);
    judgeAnnounced(ctx, check, "transactions", announcements);
  },
};
