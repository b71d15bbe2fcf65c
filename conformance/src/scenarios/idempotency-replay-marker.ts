/**
 * Decision D07: a replayed response carries `Idempotent-Replayed: true` (the first one does
 * not) and is the stored response: the same status and the same body.
 */
import type { Scenario } from "../core/scenario.ts";
import { chargeRequest, json, require2xx, sameJson, sender } from "./support.ts";

export const replayMarker: Scenario = {
  id: "family-a/idempotency/replay-marker",
  family: "family-a",
  profile: "full",
  decision: "D07",
  title: "a replay is the stored response, marked Idempotent-Replayed: true",
  account: "any",
  statements: ["A-IDEM-RULE-replay"],
  covers: [{ operationId: "createCharge", status: "201" }],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const key = ctx.idempotencyKey();
    const first = await send("createCharge", chargeRequest(ctx, key));
    require2xx(first, "create a charge");
    check.response("createCharge", "201", first, "first request");
    check.that(first.headers["idempotent-replayed"] === undefined || first.headers["idempotent-replayed"] === "false", "the first response is marked Idempotent-Replayed");
    const replay = await send("createCharge", chargeRequest(ctx, key));
    check.response("createCharge", "201", replay, "replay");
    check.that(replay.headers["idempotent-replayed"] === "true", `the replay carries Idempotent-Replayed: ${replay.headers["idempotent-replayed"] ?? "(absent)"}, expected true`);
    check.that(replay.status === first.status, `the replay answered ${replay.status}, the stored response ${first.status}`);
    check.that(sameJson(json(replay), json(first)), "the replay's body is not the stored response's body");
  },
};
