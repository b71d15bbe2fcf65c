/**
 * The replay rule under concurrency: N requests sent at once with one Idempotency-Key yield
 * exactly one charge. Under seed, what a request that finds the key still in flight gets is
 * the server's (a conflict is decision D07), but every success must be the same charge.
 */
import type { Scenario } from "../core/scenario.ts";
import { at, chargeRequest, describe, is2xx, is4xx, sender } from "./support.ts";

const PARALLEL = 6;

export const parallelRequestsOneCharge: Scenario = {
  id: "family-a/idempotency/parallel-one-charge",
  family: "family-a",
  profile: "seed",
  title: `${PARALLEL} simultaneous requests with one Idempotency-Key yield one charge`,
  account: "any",
  statements: ["A-IDEM-RULE-replay", "A-IDEM-RULE-new-key"],
  covers: [{ operationId: "createCharge", status: "201" }],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const key = ctx.idempotencyKey();
    const responses = await Promise.all(Array.from({ length: PARALLEL }, () => send("createCharge", chargeRequest(ctx, key))));
    const created = responses.filter(is2xx);
    check.that(created.length > 0, `no request created the charge: ${responses.map((r) => r.status).join(", ")}`);
    for (const r of responses) check.that(is2xx(r) || is4xx(r), `a request answered ${describe(r)}`);
    for (const r of created) check.response("createCharge", "201", r);
    const ids = new Set(created.map((r) => at(r, "id")));
    check.that(ids.size <= 1, `one Idempotency-Key yielded ${ids.size} charges: ${[...ids].join(", ")}`);
    const codes = new Set(created.map((r) => at(r, "pix.br_code")));
    check.that(codes.size <= 1, `one Idempotency-Key yielded ${codes.size} QR codes`);
    // Once the dust settles, the key replays that one charge.
    const after = await send("createCharge", chargeRequest(ctx, key));
    if (is2xx(after) && ids.size === 1) check.that(ids.has(at(after, "id")), `a later replay returned ${String(at(after, "id"))}, another charge`);
  },
};
