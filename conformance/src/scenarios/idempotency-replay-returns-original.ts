/**
 * "When the key was already used, the original charge is returned, with no new QR code and no
 * new ledger entry": the replay carries the same id, BR Code and txid, and the charge read
 * afterwards is still the original (a replay that books the charge again, its amount counted
 * twice, shows there).
 */
import type { Scenario } from "../core/scenario.ts";
import { at, bodyIsStated, chargeRequest, differences, is2xx, json, require2xx, sender } from "./support.ts";
import { quoted } from "../core/describe-response.ts";

/** Members a charge may change on its own between two reads (it gets paid). */
const MOVING = /^(status|paid_at|pix\.end_to_end_id):/;

export const replayReturnsOriginal: Scenario = {
  id: "family-a/idempotency/replay-returns-original",
  family: "family-a",
  profile: "seed",
  title: "a used Idempotency-Key returns the original charge (same id, BR Code and txid)",
  account: "any",
  statements: ["A-IDEM-RULE-replay"],
  covers: [
    { operationId: "createCharge", status: "201" },
    { operationId: "getCharge", status: "200" },
  ],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const key = ctx.idempotencyKey();
    const first = await send("createCharge", chargeRequest(ctx, key));
    require2xx(first, "create a charge");
    check.response("createCharge", "201", first, "first request");
    const replay = await send("createCharge", chargeRequest(ctx, key));
    check.that(is2xx(replay), `the replay answered ${replay.status}, expected the original charge`);
    if (!is2xx(replay)) return;
    check.response("createCharge", "201", replay, "replay");
    for (const path of ["id", "pix.br_code", "pix.txid", "amount", "created_at"]) {
      // That a charge always carries these members is decision D35: the seed profile compares those the original carries.
      if (ctx.profile === "seed" && path !== "id" && at(first, path) === undefined) continue;
      check.that(at(first, path) !== undefined && at(first, path) === at(replay, path), `the replay's ${path} is ${quoted(at(replay, path), 80)}, the original's ${quoted(at(first, path), 80)}`);
    }
    const id = at(first, "id");
    if (typeof id !== "string") return;
    const read = await send("getCharge", { params: { id } });
    check.that(is2xx(read), `GET of the charge answered ${read.status}`);
    if (!is2xx(read)) return;
    check.response("getCharge", "200", read);
    if (!bodyIsStated(ctx, "getCharge", "200")) return;
    check.that(at(read, "pix.br_code") === at(first, "pix.br_code") && at(read, "pix.txid") === at(first, "pix.txid"), "after the replay the charge carries another QR code");
    const changed = differences(json(first) ?? {}, json(read) ?? {}).filter((d) => !MOVING.test(d) && !d.startsWith("pix.br_code") && !d.startsWith("pix.txid"));
    check.that(changed.length === 0, `after the replay the charge reads otherwise than it was created: ${changed.join("; ")}`);
  },
};
