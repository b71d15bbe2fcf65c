/**
 * "GET /v1/merchant requires the scope `merchant:read`": of two keys of one account, the one
 * with the scope reads the merchant, the one without is refused, whatever it asks before, and
 * the refusal shows none of what the scope protects (the merchant's identifying values). The key
 * without it holds every other scope the server requires (decision D20, the target's
 * `noMerchantRead`), so it reads a charge of its account: its 403 is the scope's, not a key
 * refused for everything.
 */
import type { Scenario } from "../core/scenario.ts";
import { at, chargeRequest, describe, is2xx, json, require2xx, sender } from "./support.ts";

/** Merchant members whose values identify the merchant: a refusal must not carry them. */
const PROTECTED = ["id", "name", "legal_name", "document", "email", "phone"];

export const merchantReadScope: Scenario = {
  id: "family-a/auth/merchant-read-scope",
  family: "family-a",
  profile: "seed",
  title: "GET /v1/merchant needs merchant:read; a key of the same account without it is refused",
  statements: ["A-AUTH-AUTH-merchant-scope"],
  covers: [
    { operationId: "getMerchant", status: "200" },
    { operationId: "getMerchant", status: "403" },
    { operationId: "getCharge", status: "200" },
  ],
  async run(ctx, check) {
    ctx.keyValue("noMerchantRead");
    const send = sender(ctx, this.id);
    const allowed = await send("getMerchant", { key: "primary" });
    check.that(allowed.status === 200, `with merchant:read: answered ${describe(allowed)}`);
    if (allowed.status === 200) check.response("getMerchant", "200", allowed);
    const refused = await send("getMerchant", { key: "noMerchantRead" });
    check.that(refused.status >= 400 && refused.status < 500, `without merchant:read: answered ${describe(refused)}, expected a refusal for the missing scope (403)`);
    if (!is2xx(refused)) check.response("getMerchant", "403", refused);
    const merchant = allowed.status === 200 ? json(allowed) : undefined;
    const leaked = PROTECTED.filter((member) => typeof merchant?.[member] === "string" && (merchant[member] as string).length >= 4 && refused.body.includes(merchant[member] as string));
    check.that(leaked.length === 0, `the refusal without merchant:read carries the merchant's ${leaked.join(", ")}`);
    const created = await send("createCharge", chargeRequest(ctx, ctx.idempotencyKey()));
    require2xx(created, "create a charge with the primary key");
    const read = await send("getCharge", { key: "noMerchantRead", params: { id: String(at(created, "id")) } });
    check.that(is2xx(read), `the key without merchant:read (holding every other scope, D20) read a charge of its account: answered ${describe(read)}, expected the charge`);
  },
};
