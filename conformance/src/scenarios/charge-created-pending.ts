/**
 * A new charge (family A): `pending`, `paid_at` null, `pix.end_to_end_id` null, currency BRL,
 * method pix, object charge; its `created_at` is the time of creation (within a day of the
 * response's own Date, so clocks need not agree) and it does not expire before it was created;
 * and `GET /v1/charges/{id}` with the id it was given returns what creation returned (full
 * profile: that reading's body is decision D06).
 */
import type { Scenario } from "../core/scenario.ts";
import { at, bodyIsStated, is2xx, chargeRequest, differences, json, require2xx, sender } from "./support.ts";

/** Members of a charge whose value the document states for a new charge. */
/** How far a creation time may be from the response's Date (or this machine's clock): clocks differ, a day does not. */
const CLOCK_SLACK_MS = 24 * 60 * 60 * 1000;

const time = (value: unknown) => (typeof value === "string" ? Date.parse(value) : Number.NaN);

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
  account: "any",
  statements: ["A-CHARGE-TRANSITION-pending-on-creation", "A-CHARGES-RULE-returns-charge", "A-CHARGES-ENDPOINT-get", "A-CHARGE-FIELD-id", "A-CHARGE-FIELD-created_at", "A-CHARGE-FIELD-expires_at", ...new Set(STATED.map(([, , s]) => s))],
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
    const createdAt = time(at(created, "created_at"));
    const now = Date.parse(created.headers["date"] ?? "") || Date.now();
    check.that(Number.isNaN(createdAt) || Math.abs(createdAt - now) <= CLOCK_SLACK_MS, `a new charge has created_at ${JSON.stringify(at(created, "created_at"))}, not the time of its creation (${new Date(now).toISOString()}) (A-CHARGE-FIELD-created_at)`);
    const expiresAt = time(at(created, "expires_at"));
    check.that(Number.isNaN(createdAt) || Number.isNaN(expiresAt) || expiresAt > createdAt, `a new charge expires at ${JSON.stringify(at(created, "expires_at"))}, not after its creation ${JSON.stringify(at(created, "created_at"))} (A-CHARGE-FIELD-expires_at)`);
    const id = at(created, "id");
    check.that(typeof id === "string" && id.length > 0, `a new charge has id ${JSON.stringify(id)} (A-CHARGE-FIELD-id)`);
    if (typeof id !== "string") return;
    const read = await send("getCharge", { params: { id } });
    check.that(is2xx(read), `GET /v1/charges/${id}, the id creation returned, answered ${read.status} (A-CHARGE-FIELD-id)`);
    if (!is2xx(read)) return;
    check.response("getCharge", "200", read);
    if (!bodyIsStated(ctx, "getCharge", "200")) return;
    const changed = differences(json(created) ?? {}, json(read) ?? {});
    check.that(changed.length === 0, `GET returns another charge than creation did: ${changed.join("; ")}`);
  },
};
