/**
 * "When the key was already used, the original charge is returned", for every way of writing
 * the same payload: JSON objects are unordered (RFC 8259), so a replay whose members come in
 * another order, at every depth, with other whitespace, is the same request and returns the
 * original charge. The forms tried: members sorted, sorted but backwards at one depth (each
 * depth in turn), the first order indented; and, where the server takes a member it does not
 * know (the contract's objects are open), the same with a nested one holding an object and an
 * array (whose order is the payload's own, kept).
 */
import type { Scenario } from "../core/scenario.ts";
import type { RequestOptions } from "../core/check-context.ts";
import { at, chargeRequest, describe, is2xx, is4xx, require2xx, sender, UNKNOWN_MEMBER, type Json } from "./support.ts";

/**
 * The same JSON value with every object's members sorted, except the objects at depth `backwards`
 * (0: the body itself; an array's items are one level below it), whose members come backwards.
 */
function ordered(value: unknown, backwards: number, depth = 0): unknown {
  if (Array.isArray(value)) return value.map((item) => ordered(item, backwards, depth + 1));
  if (typeof value !== "object" || value === null) return value;
  const names = Object.keys(value).sort();
  if (depth === backwards) names.reverse();
  return Object.fromEntries(names.map((name) => [name, ordered((value as Json)[name], backwards, depth + 1)]));
}

/** How deep objects nest in a JSON value (0: no object below the body). */
function depthOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  const children = Object.values(value).filter((child) => typeof child === "object" && child !== null);
  return children.length === 0 ? 0 : 1 + Math.max(...children.map(depthOf));
}

/**
 * The forms a replay is sent in: members sorted everywhere; sorted everywhere but backwards at
 * one depth, for each depth (a server that puts members in order only at some depths answers
 * one of them with a mismatch); the first order, indented. Forms that write the same text once.
 */
function forms(body: Json): Array<[string, string]> {
  const all: Array<[string, string]> = [["ascending member order", JSON.stringify(ordered(body, -1))]];
  for (let depth = 0; depth <= depthOf(body); depth++) all.push([`ascending member order but backwards at depth ${depth}, indented`, JSON.stringify(ordered(body, depth), null, 2)]);
  all.push(["the first order, indented", JSON.stringify(body, null, 4)]);
  return all.filter(([, text], i) => all.findIndex(([, other]) => other === text) === i);
}


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
      for (const [form, text] of forms(body)) {
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
