/** Family B response checks of the health check: GET /sdk/status/health. */
import type { ResponseCheck } from "../response-check.ts";
import { family, rateLimited, unauthorized, userAgentTooLong } from "./support.ts";

export const HEALTH_CHECKS: ResponseCheck[] = [
  // GET /sdk/status/health
  { family, operationId: "getHealth", status: "200", variant: "primary-key", title: "the primary key", request: async () => ({}) },
  ...unauthorized("getHealth", async (_ctx, key) => ({ key })),
  userAgentTooLong("getHealth", async () => ({})),
  rateLimited("getHealth", async () => ({})),
];
