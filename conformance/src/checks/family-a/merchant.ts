/** Family A response checks of the merchant: GET /v1/merchant and its merchant:read scope. */
import type { ResponseCheck } from "../response-check.ts";
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
    status: "403",
    variant: "key-without-scope",
    title: "a key of the account without merchant:read",
    request: async () => ({ key: "noMerchantRead" }),
  },
  rateLimited("getMerchant", async () => ({})),
];
