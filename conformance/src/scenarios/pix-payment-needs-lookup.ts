/**
 * Decision D14 (full profile): "the `endToEndId` is reserved for paying that key", and unknown
 * ids give 404 NOT_FOUND. A payment whose endToEndId no key lookup of the account returned (a
 * lookup's own id with another tail) is refused with 404 NOT_FOUND, with or without an
 * X-Idempotency-Key, and stores nothing under the key: the same key then pays with the id the
 * lookup returned.
 */
import { exampleBody, pick } from "../checks/provisioning.ts";
import type { Scenario } from "../core/scenario.ts";
import { codeOf, describe, is2xx, require2xx, sender } from "./support.ts";

export const pixPaymentNeedsLookup: Scenario = {
  id: "family-b/pix/payment-needs-lookup",
  family: "family-b",
  profile: "full",
  decision: "D14",
  title: "a PIX payment with an endToEndId no key lookup returned is refused (404 NOT_FOUND)",
  account: "any",
  statements: ["B-PIX-ENDPOINT-payment"],
  covers: [{ operationId: "createPixPayment", status: "404" }],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const query = await send("queryPixKey", { body: exampleBody(ctx, "queryPixKey") });
    require2xx(query, "query a PIX key to pay");
    const reserved = String(pick(query, ["data.endToEndId", "endToEndId"]));
    const body = { ...exampleBody(ctx, "createPixPayment"), endToEndId: reserved };
    for (const key of [undefined, ctx.idempotencyKey()]) {
      const unknown = `${reserved.slice(0, -11)}${ctx.random.digits(11)}`;
      const headers: Record<string, string> = key === undefined ? {} : { "X-Idempotency-Key": key };
      const withKey = key === undefined ? "" : ", with an X-Idempotency-Key";
      const refused = await send("createPixPayment", { body: { ...body, endToEndId: unknown }, headers });
      check.that(refused.status === 404 && codeOf(refused) === "NOT_FOUND", `D14: a payment with the endToEndId ${unknown}, which no lookup returned${withKey}, answered ${describe(refused)}, expected 404 NOT_FOUND`);
      if (refused.status === 404) check.response("createPixPayment", "404", refused, "payment with an endToEndId no lookup returned");
      if (key === undefined) continue;
      const paid = await send("createPixPayment", { body, headers });
      check.that(is2xx(paid), `D14: after that refusal, the same X-Idempotency-Key with the looked-up endToEndId answered ${describe(paid)}, expected the payment made`);
    }
  },
};
