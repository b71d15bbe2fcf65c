/**
 * The idempotency rules hold for requests sent at once as for requests sent one by one: a burst
 * of charge creations, most under never-seen keys, one key sent twice with the same payload and
 * one twice with another payload. Each new key creates its own charge; a repeated key yields at
 * most one (its other request gets that charge again, or is refused); afterwards every charge
 * created reads back and every key replays its own. Under full: an answer that created is not
 * marked `Idempotent-Replayed` and a replay is, the other payload is refused with 422
 * IDEMPOTENCY_KEY_MISMATCH, or 409 IDEMPOTENCY_KEY_IN_USE while its key is in flight (D07), and
 * each charge reads as its creation answered it (D06).
 */
import type { Scenario, ScenarioAssertions } from "../core/scenario.ts";
import type { FamilyContext, RequestOptions } from "../core/check-context.ts";
import type { ObservedResponse } from "../core/validate.ts";
import { at, chargeRequest, codeOf, describe, is2xx, is4xx, json, require2xx, sameJson, sender, type Json } from "./support.ts";

const NEW_KEYS = 4;

const replayed = (r: ObservedResponse) => r.headers["idempotent-replayed"] === "true";

/** What D07 asks of the answers to one key's requests (under full). */
function decidedAnswers(check: ScenarioAssertions, label: string, answers: ObservedResponse[], samePayload: boolean): void {
  // The answer that created is not a replay; any other answer with the charge is.
  const creators = answers.filter((r) => is2xx(r) && !replayed(r));
  if (answers.some(is2xx)) check.that(creators.length === 1, `D07: ${label}: ${creators.length} answers not marked Idempotent-Replayed, expected the one that created`);
  for (const r of answers.filter(is4xx)) {
    const allowed = samePayload ? ["IDEMPOTENCY_KEY_IN_USE"] : ["IDEMPOTENCY_KEY_MISMATCH", "IDEMPOTENCY_KEY_IN_USE"];
    check.that(allowed.includes(codeOf(r) ?? ""), `D07: ${label}: refused with ${describe(r)}, expected ${allowed.join(" or ")}`);
  }
  if (!samePayload) check.that(answers.some(is4xx), `D07: ${label}: both payloads were taken (${answers.map(describe).join(", ")})`);
}

/** Reads a created charge back: it must be the charge the creation answered. */
async function readBack(ctx: FamilyContext, send: ReturnType<typeof sender>, check: ScenarioAssertions, created: ObservedResponse): Promise<void> {
  const id = at(created, "id");
  if (typeof id !== "string") return;
  const read = await send("getCharge", { params: { id } });
  check.that(is2xx(read), `GET /v1/charges/${id} answered ${describe(read)}: a charge created in the burst is not readable`);
  if (!is2xx(read)) return;
  check.response("getCharge", "200", read, `GET ${id}`);
  // D06: the reading is the charge the creation returned, in its current state (still pending).
  if (ctx.profile === "full") check.that(sameJson(json(read), json(created)), `D06: GET /v1/charges/${id} is not the charge its creation in the burst answered`);
}

export const parallelEachAsAlone: Scenario = {
  id: "family-a/idempotency/parallel-each-as-alone",
  family: "family-a",
  profile: "seed",
  title: "creations sent at once are each answered as if sent alone",
  account: "any",
  statements: ["A-IDEM-RULE-new-key", "A-IDEM-RULE-replay"],
  covers: [
    { operationId: "createCharge", status: "201" },
    { operationId: "getCharge", status: "200" },
  ],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const fresh = Array.from({ length: NEW_KEYS }, () => ctx.idempotencyKey());
    const [same, other] = [ctx.idempotencyKey(), ctx.idempotencyKey()];
    const original = chargeRequest(ctx, other);
    const changed = { ...original, body: { ...(original.body as Json), amount: Number((original.body as Json).amount) + 1 } };
    // Each key with the requests sent under it, all sent at once.
    const plan: { key: string; label: string; requests: RequestOptions[] }[] = [
      ...fresh.map((key, i) => ({ key, label: `never-seen key ${i + 1} of ${NEW_KEYS}`, requests: [chargeRequest(ctx, key)] })),
      { key: same, label: "one key sent twice with one payload", requests: [chargeRequest(ctx, same), chargeRequest(ctx, same)] },
      { key: other, label: "one key sent twice with two payloads", requests: [original, changed] },
    ];
    const burst = plan.reduce((n, { requests }) => n + requests.length, 0);
    // A busy client sends its burst over connections it already holds open: a burst of readings
    // of one charge opens as many first, so that the creations then go out together.
    const opener = await send("createCharge", chargeRequest(ctx, ctx.idempotencyKey()));
    require2xx(opener, "create a charge");
    const readings = await Promise.all(Array.from({ length: burst }, () => send("getCharge", { params: { id: String(at(opener, "id")) } })));
    for (const r of readings) check.that(is2xx(r), `GET /v1/charges/${String(at(opener, "id"))} sent ${burst} times at once answered ${describe(r)}`);

    const sent = await Promise.all(plan.map(({ requests }) => Promise.all(requests.map((request) => send("createCharge", request)))));
    const byKey = plan.map((entry, i) => ({ ...entry, answers: sent[i] }));
    for (const r of sent.flat()) {
      check.that(is2xx(r) || is4xx(r), `a creation of the burst answered ${describe(r)}`);
      if (is2xx(r)) check.response("createCharge", "201", r, "a creation of the burst");
    }

    // Each key yields one charge of its own; a new key sent alone in the burst creates it.
    const charges: { key: string; request: RequestOptions; first: ObservedResponse }[] = [];
    for (const { key, label, requests, answers } of byKey) {
      const taken = new Set(answers.filter(is2xx).map((r) => at(r, "id")));
      check.that(taken.size <= 1, `${label}: ${taken.size} charges (${[...taken].join(", ")})`);
      if (requests.length === 1) check.that(is2xx(answers[0]), `${label}, sent in the burst, answered ${describe(answers[0])}, expected its charge`);
      if (ctx.profile === "full") decidedAnswers(check, label, answers, requests.length === 1 || key === same);
      const index = answers.findIndex(is2xx);
      if (index >= 0) charges.push({ key, request: requests[index], first: answers[index] });
    }
    const ids = charges.map(({ first }) => at(first, "id"));
    check.that(new Set(ids).size === ids.length, `keys sent at once share charges: ${ids.join(", ")}`);

    // Once the burst is answered, every charge it created reads back and every key replays its own.
    for (const { key, request, first } of charges) {
      await readBack(ctx, send, check, first);
      const again = await send("createCharge", request);
      check.that(is2xx(again) && at(again, "id") === at(first, "id"), `key ${key} sent again after the burst answered ${describe(again)}, not its charge ${String(at(first, "id"))}`);
      if (ctx.profile === "full" && is2xx(again)) check.that(replayed(again) && sameJson(json(again), json(first)), `D07: key ${key} sent again after the burst is not the stored response marked Idempotent-Replayed`);
    }
  },
};
