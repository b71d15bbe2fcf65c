/** Family A `GET /v1/merchant`: the merchant of the key's account (scope checked by the pipeline). */
import type { HandlerTable } from "../app.ts";

export const merchantHandlers: HandlerTable = {
  getMerchant: {
    handle(ctx) {
      return { status: 200, body: ctx.account.merchant };
    },
  },
};
