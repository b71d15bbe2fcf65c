/**
 * "| General | 100 requests/min | all requests per account |" (family B): a request that
 * counts against the general limit only (the health check) announces that limit, the
 * published figure or the target's plan's, over a window of a minute.
 */
import type { Scenario } from "../core/scenario.ts";
import { judgeAnnounced } from "./rate-limit-announced.ts";
import { sender } from "./support.ts";

export const generalLimitAnnounced: Scenario = {
  id: "family-b/rate-limits/general-announced",
  family: "family-b",
  profile: "seed",
  title: "the general limit announced is 100 per minute (or the target's plan)",
  statements: ["B-LIMITS-LIMIT-general", "B-LIMITS-HEADER-rate-limit"],
  covers: [{ operationId: "getHealth", status: "200" }],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const response = await send("getHealth");
    judgeAnnounced(ctx, check, "general", [{ label: "health check", operationId: "getHealth", status: "200", response }]);
  },
};
