/**
 * The composition of legal variants (legal-variant-groups.ts) the seed part of the legal
 * variant suite relies on: variants that act on the same element never share a server, and a
 * composed server reports the exchanges where two members changed the same thing.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { conflicts, startComposedVariants } from "./legal-variant-groups.ts";
import { LEGAL_VARIANT_GROUPS } from "./legal-variant-suite.ts";
import type { Handler, LegalVariant, Marking, Site } from "./legal-variants.ts";
import type { DerivedKeys } from "./derived-faults.ts";

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closing.length > 0) await closing.pop()!();
});

/** Where a marking sits, as one element: variants with a common one must not be composed. */
const element = (m: Marking) => [m.family, m.operationId, m.place, m.status ?? "", m.name ?? "", m.path.join(".")].join(" ");

describe("legal variants composed into one server", () => {
  it("no group holds two variants that change the same marked element", () => {
    for (const group of LEGAL_VARIANT_GROUPS) {
      for (const [i, a] of group.entries()) {
        const mine = new Set(a.markings.map(element));
        for (const b of group.slice(i + 1)) expect(b.markings.map(element).filter((e) => mine.has(e)), `${a.name} and ${b.name} share a server`).toEqual([]);
      }
    }
    // Both change the contract's bounds, one each way: never one server.
    const groupOf = (name: string) => LEGAL_VARIANT_GROUPS.findIndex((g) => g.some((v) => v.name.startsWith(`${name} [`)));
    expect(groupOf("narrower-bounds")).not.toBe(groupOf("wider-bounds"));
  });

  it("sites conflict on the same request, the same member or a whole response, not across them", () => {
    const at = (site: Partial<Site>): Site => ({ family: "family-a", operation: "createCharge", side: "response", status: "201", ...site });
    expect(conflicts(at({ side: "request" }), at({ side: "request" }))).toBe(true);
    expect(conflicts(at({ side: "request" }), at({ part: "body:amount" }))).toBe(false);
    expect(conflicts(at({ part: "body:pix" }), at({ part: "body:pix.br_code" }))).toBe(true);
    expect(conflicts(at({ part: "body:pix.expires_at" }), at({ part: "body:pix.br_code" }))).toBe(false);
    expect(conflicts(at({ part: "*" }), at({ part: "header:idempotent-replayed" }))).toBe(true);
    expect(conflicts(at({ status: "400", part: "*" }), at({ part: "body:amount" }))).toBe(false);
    expect(conflicts(at({ side: "operation" }), at({ operation: "getCharge", part: "*" }))).toBe(false);
    expect(conflicts(at({ operation: "*", status: "*", part: "body-member:description" }), at({ operation: "getCharge", part: "body:data.description" }))).toBe(true);
    expect(conflicts(at({ family: "family-b", side: "operation" }), at({}))).toBe(false);
  });

  it("a composed server applies every member and reports two members changing the same thing", async () => {
    const upstream = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ id: "ch_1", amount: 100, pix: { br_code: "000201", expires_at: "2026-01-01" } }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    closing.push(() => new Promise((resolve) => upstream.close(() => resolve())));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const editing = (name: string, edit: (body: Record<string, any>) => void): LegalVariant => {
      const handle: Handler = async (request, forward) => {
        const reply = await forward(request);
        const body = JSON.parse(reply.body) as Record<string, any>;
        edit(body);
        return { ...reply, body: JSON.stringify(body) };
      };
      return { name, kinds: [], markings: [], choice: "", families: ["family-a"], handle };
    };
    const brCode = editing("br-code", (b) => (b.pix.br_code = "other"));
    const amount = editing("amount", (b) => (b.amount = 200));
    const pix = editing("pix", (b) => delete b.pix);
    const keys = {} as DerivedKeys;

    const apart = await startComposedVariants(url, [brCode, amount], keys);
    closing.push(apart.close);
    const body = (await (await fetch(`${apart.url}/v1/charges/ch_1`)).json()) as Record<string, any>;
    expect(body).toEqual({ id: "ch_1", amount: 200, pix: { br_code: "other", expires_at: "2026-01-01" } });
    expect(apart.overlaps).toEqual([]);

    const together = await startComposedVariants(url, [pix, brCode], keys);
    closing.push(together.close);
    await fetch(`${together.url}/v1/charges/ch_1`);
    expect(together.overlaps).toEqual(["pix and br-code both change GET /v1/charges/ch_1 (body:pix/body:pix.br_code)"]);

    // A status changed by one member makes the reply another response: any edit of it overlaps.
    const created: LegalVariant = { ...amount, name: "created", handle: async (request, forward) => ({ ...(await forward(request)), status: 201 }) };
    const another = await startComposedVariants(url, [amount, created], keys);
    closing.push(another.close);
    expect((await fetch(`${another.url}/v1/charges`)).status).toBe(201);
    expect(another.overlaps).toEqual(["amount and created both change GET /v1/charges (body:amount/status)"]);

    // One that answers itself keeps the request from the members inside it, where they act.
    const refusing: LegalVariant = { ...amount, name: "refusing", handle: async () => ({ status: 400, headers: {}, body: "{}" }) };
    const inside: LegalVariant = { ...amount, name: "inside", sites: () => [{ family: "family-a", operation: "getCharge", side: "response", status: "200", part: "body:amount" }] };
    const kept = await startComposedVariants(url, [refusing, inside], keys);
    closing.push(kept.close);
    expect((await fetch(`${kept.url}/v1/charges/ch_1`)).status).toBe(400);
    expect(kept.overlaps).toEqual(["refusing answered GET /v1/charges/ch_1 itself, where inside acts"]);
  });
});
