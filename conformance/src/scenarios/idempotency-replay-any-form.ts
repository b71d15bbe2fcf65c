/**
 * "When the key was already used, the original charge is returned", for every way of writing
 * the same payload: JSON objects are unordered (RFC 8259), so a replay whose members come in
 * another order, at every depth, with other whitespace, is the same request and returns the
 * original charge. The forms tried: members in ascending and in descending order, indented;
 * and, where the server takes a member it does not know (the contract's objects are open), a
 * nested one holding an object and an array (whose order is the payload's own, kept).
 */
import type { Scenario } from "../core/scenario.ts";
import type { RequestOptions } from "../core/check-context.ts";
import { at, chargeRequest, describe, is2xx, is4xx, require2xx, sender, type Json } from "./support.ts";

/** The same JSON value with every object's members sorted (or sorted backwards), at every depth. */
function ordered(value: unknown, backwards: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => ordered(item, backwards));
  if (typeof value !== "object" || value === null) return value;
  const names = Object.keys(value).sort();
  if (backwards) names.reverse();
  return Object.fromEntries(names.map((name) => [name, ordered((value as Json)[name], backwards)]));
}

/** A member no schema names, nesting an object (members out of order) and an array. */
const UNKNOWN_MEMBER = { "x-conformance-extra": { zeta: [3, 1, { b: true, a: null }], alpha: "text" } };

export const replayAnyForm: Scenario = {
  id: "family-a/idempotency/replay-any-form",
  family: "family-a",
  profile: "seed",
  title: "a used Idempotency-Key returns the original charge for the same payload in any member order or spacing",
  account: "any",
  statements: ["A-IDEM-RULE-replay"],
  covers: [{ operationId: "createCharge", status: "201" }],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const tryForms = async (request: RequestOptions, label: string) => {
      const first = await send("createCharge", request);
      const body = request.body as Json;
      for (const [form, text] of [
        ["ascending member order", JSON.stringify(ordered(body, false))],
        ["descending member order, indented", JSON.stringify(ordered(body, true), null, 2)],
        ["the first order, indented", JSON.stringify(body, null, 4)],
      ] as const) {
        const replay = await send("createCharge", { ...request, body: text });
        check.that(is2xx(replay) && at(replay, "id") === at(first, "id"), `${label}: a replay in ${form} answered ${describe(replay)}, expected the original charge ${String(at(first, "id"))}`);
      }
      return first;
    };
    const plain = chargeRequest(ctx, ctx.idempotencyKey());
    require2xx(await tryForms(plain, "the example body"), "create a charge");
    // A server may refuse members it does not know: then only the forms above are asked.
    const extended = chargeRequest(ctx, ctx.idempotencyKey());
    const withUnknown = { ...extended, body: { ...(extended.body as Json), ...UNKNOWN_MEMBER } };
    const probe = await send("createCharge", { ...withUnknown, headers: { ...withUnknown.headers, "Idempotency-Key": ctx.idempotencyKey() } });
    if (is4xx(probe)) return;
    await tryForms(withUnknown, "a body with a nested member the server does not know");
  },
};
