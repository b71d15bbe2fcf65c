/**
 * A new charge (family A): `pending`, `paid_at` null, `pix.end_to_end_id` null, currency BRL,
 * method pix, object charge; and `GET /v1/charges/{id}` returns what creation returned (full
 * profile: that reading's body is decision D06).
 */
import type { Scenario } from "../core/scenario.ts";
import { at, bodyIsStated, is2xx, chargeRequest, differences, json, require2xx, sender } from "./support.ts";

/** Members of a charge whose value the document states for a new charge. */
const STATED: Array<[path: string, value: unknown, statement: string]> = [
  ["object", "charge", "A-CHARGE-FIELD-object"],
  ["status", "pending", "A-CHARGE-FIELD-status"],
  ["currency", "BRL", "A-CHARGE-FIELD-currency"],
  ["method", "pix", "A-CHARGE-FIELD-method"],
  ["paid_at", null, "A-CHARGE-FIELD-paid_at"],
  ["pix.end_to_end_id", null, "A-CHARGE-FIELD-pix"],
];

export const chargeCreatedPending: Scenario = {
  id: "family-a/charges/created-pending",
  family: "family-a",
  profile: "seed",
  title: "a new charge is pending, unpaid, BRL, pix, and reads back as created",
  statements: ["A-CHARGE-TRANSITION-pending-on-creation", "A-CHARGES-RULE-returns-charge", ...new Set(STATED.map(([, , s]) => s))],
  covers: [
    { operationId: "createCharge", status: "201" },
    { operationId: "getCharge", status: "200" },
  ],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const created = await send("createCharge", chargeRequest(ctx, ctx.idempotencyKey()));
    require2xx(created, "create a charge");
    check.response("createCharge", "201", created);
    for (const [path, value, statement] of STATED) {
      check.that(at(created, path) === value, `a new charge has ${path} ${JSON.stringify(at(created, path))}, the document states ${JSON.stringify(value)} (${statement})`);
    }
    const id = at(created, "id");
    if (typeof id !== "string") return;
    const read = await send("getCharge", { params: { id } });
    check.that(is2xx(read), `GET /v1/charges/${id} answered ${read.status}`);
    if (!is2xx(read)) return;
    check.response("getCharge", "200", read);
    if (!bodyIsStated(ctx, "getCharge", "200")) return;
    const changed = differences(json(created) ?? {}, json(read) ?? {});
    check.that(changed.length === 0, `GET returns another charge than creation did: ${changed.join("; ")}`);
  },
};
