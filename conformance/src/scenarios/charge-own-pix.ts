/**
 * "A client creates a charge, gives the payer the br_code (PIX copy-and-paste string)": each
 * charge carries its own PIX block. Two charges made under two Idempotency-Keys have a
 * non-empty br_code and txid each, and not the same ones (a payment made with one br_code must
 * be the payment of one charge), and each reads back with its own (under full: the reading's
 * body is decision D06).
 */
import type { Scenario } from "../core/scenario.ts";
import { at, bodyIsStated, chargeRequest, is2xx, require2xx, responseMemberSchema, sender } from "./support.ts";
import { quoted } from "../core/describe-response.ts";

export const chargeOwnPix: Scenario = {
  id: "family-a/charges/own-br-code",
  family: "family-a",
  profile: "seed",
  title: "every charge has a BR Code and txid of its own",
  account: "any",
  statements: ["A-CHARGE-PRINCIPLE-br-code", "A-CHARGE-FIELD-pix"],
  covers: [
    { operationId: "createCharge", status: "201" },
    { operationId: "getCharge", status: "200" },
  ],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const charges = [];
    for (let i = 0; i < 2; i++) {
      const created = await send("createCharge", chargeRequest(ctx, ctx.idempotencyKey()));
      require2xx(created, "create a charge");
      check.response("createCharge", "201", created);
      charges.push(created);
    }
    for (const path of ["pix.br_code", "pix.txid"]) {
      const [a, b] = charges.map((c) => at(c, path));
      // That the member is always present may be a decision (D35); when present, it is the charge's own.
      const alwaysThere = ctx.asserts({ kind: "keyword", schema: responseMemberSchema(ctx, "createCharge", "201", path), keyword: "required" });
      if (!alwaysThere && (a === undefined || b === undefined)) continue;
      check.that(typeof a === "string" && a.length > 0 && typeof b === "string" && b.length > 0, `a new charge has ${path} ${quoted(a, 60)} / ${quoted(b, 60)}`);
      check.that(a !== b, `two charges (${String(at(charges[0], "id"))}, ${String(at(charges[1], "id"))}) carry the same ${path} ${quoted(a, 80)}`);
    }
    // The reading's body is decision D06: seed compares it only where the profile holds it.
    if (!bodyIsStated(ctx, "getCharge", "200")) return;
    for (const created of charges) {
      const id = at(created, "id");
      if (typeof id !== "string") continue;
      const read = await send("getCharge", { params: { id } });
      if (!is2xx(read)) continue;
      check.that(at(read, "pix.br_code") === at(created, "pix.br_code"), `charge ${id} reads back with another br_code`);
    }
  },
};
