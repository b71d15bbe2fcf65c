/** Family A response checks of the merchant: GET /v1/merchant and its merchant:read scope. */
import type { ResponseCheck } from "../response-check.ts";
import { NotApplicable } from "../../core/check-context.ts";
import { family, rateLimited, unauthorized } from "./support.ts";

export const MERCHANT_CHECKS: ResponseCheck[] = [
  // GET /v1/merchant
  {
    family,
    operationId: "getMerchant",
    status: "200",
    variant: "key-with-scope",
    title: "the primary key (scope merchant:read)",
    request: async () => ({}),
  },
  ...unauthorized("getMerchant", async (_ctx, key) => ({ key })),
  {
    family,
    operationId: "getMerchant",
    status: "401",
    variant: "live-key-at-sandbox",
    title: "a live key at a sandbox target (D38: a sandbox takes only test keys)",
    profile: "full",
    decision: "D38",
    request: async (ctx) => {
      if (ctx.familyA?.environment !== "sandbox") throw new NotApplicable("the target is a live server: it is the sandbox that refuses live keys (D38)");
      return { key: "none", headers: { "x-api-key": `sk_live_${ctx.runId.replace(/[^A-Za-z0-9]/g, "")}conformance` } };
    },
  },
  {
    family,
    operationId: "getMerchant",
    status: "403",
    variant: "key-without-scope",
    title: "a key of the account without merchant:read",
    request: async () => ({ key: "noMerchantRead" }),
  },
  rateLimited("getMerchant", async () => ({})),
];
