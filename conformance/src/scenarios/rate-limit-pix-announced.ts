/**
 * "| PIX | 30 creations/min | POST /pix and POST /pix/payment |" (family B): a PIX charge
 * and a PIX payment each announce one of their limits (general or PIX, per minute: the
 * published figures or the target's plan's), and the PIX figure shows on one of them (the
 * charge is created again at the start of a window when the account's use made another limit the
 * closest to exhaustion, so the verdict does not depend on where in a window the scenario ran).
 * The request shapes are decision D14: a server that refuses them makes the scenario not
 * applicable.
 */
import { exampleBody, pick } from "../checks/provisioning.ts";
import type { Scenario } from "../core/scenario.ts";
import { inFreshWindow, judgeAnnounced } from "./rate-limit-announced.ts";
import { require2xx, sender } from "./support.ts";

export const pixLimitAnnounced: Scenario = {
  id: "family-b/rate-limits/pix-announced",
  family: "family-b",
  profile: "seed",
  title: "PIX creations and payments announce the PIX limit, 30 per minute (or the target's plan)",
  statements: ["B-LIMITS-LIMIT-pix", "B-LIMITS-HEADER-rate-limit"],
  covers: [
    { operationId: "createPixCharge", status: "201" },
    { operationId: "createPixPayment", status: "201" },
  ],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const create = () => send("createPixCharge", { body: exampleBody(ctx, "createPixCharge"), headers: { "X-Idempotency-Key": ctx.idempotencyKey() } });
    const created = await create();
    require2xx(created, "create a PIX charge (request shape: decision D14)");
    const charges = await inFreshWindow(ctx, "pix", { label: "PIX charge creation", operationId: "createPixCharge", status: "201", response: created }, create);
    const query = await send("queryPixKey", { body: exampleBody(ctx, "queryPixKey") });
    require2xx(query, "query a PIX key to pay (request shape: decision D14)");
    const endToEndId = pick(query, ["data.endToEndId", "endToEndId"]);
    const body = { ...exampleBody(ctx, "createPixPayment"), ...(endToEndId ? { endToEndId } : {}) };
    const paid = await send("createPixPayment", { body, headers: { "X-Idempotency-Key": ctx.idempotencyKey() } });
    require2xx(paid, "pay the queried PIX key (request shape: decision D14)");
    judgeAnnounced(ctx, check, "pix", [...charges, { label: "PIX payment", operationId: "createPixPayment", status: "201", response: paid }]);
  },
};
