/**
 * The account plan: a scenario that makes only its own records runs on the target's second
 * account, seen from there (its key is the "primary", the primary's key the "second account"),
 * with the requests counted against the right account; so do the negative-data refusals of the
 * operations whose records the check makes itself; everything else stays on the primary.
 */
import { describe, expect, it } from "vitest";
import { loadFamilyContract } from "@payment-collection/contract/model/index.ts";
import { contextFor } from "../src/core/account-plan.ts";
import { spreadable } from "../src/derived/negative-data.ts";
import { DEFAULT_DERIVED_SETTINGS, DerivedEnv } from "../src/derived/shared.ts";
import { FamilyContext } from "../src/core/check-context.ts";
import { Pacer } from "../src/core/pacing.ts";
import type { FamilyBTarget } from "../src/core/target.ts";

const target: FamilyBTarget = {
  baseUrl: "http://127.0.0.1:9",
  keys: { primary: "pk_test_first", secondAccount: "pk_test_other", primarySecondKey: "pk_test_first_2", rateLimits: "pk_test_limits" },
  pathPrefix: { pix: "", transactions: "" },
  fixtures: { registeredBoletoIds: ["b1"], unknownCustomerId: "c0" },
};

const context = (t: FamilyBTarget = target) => new FamilyContext("family-b", loadFamilyContract("family-b"), "seed", t, new Pacer(), false);

describe("the account plan", () => {
  it("runs a scenario of its own records on the second account, crossing accounts the other way", () => {
    const ctx = context();
    const view = contextFor({ account: "any" }, ctx);
    expect(view.account).toBe("secondAccount");
    expect(view.keyValue("primary")).toBe("pk_test_other");
    expect(view.keyValue("secondAccount")).toBe("pk_test_first");
    // Buckets are the accounts, whichever key a view calls its primary.
    expect(view.bucketOfKey("pk_test_other")).toBe(ctx.bucketOfKey("pk_test_other"));
    expect(view.bucketOfKey("pk_test_first")).toBe("family-b:first-account");
    // One view per run, and one series of idempotency keys across the accounts.
    expect(contextFor({ account: "any" }, ctx)).toBe(view);
    expect(new Set([ctx.idempotencyKey(), view.idempotencyKey(), ctx.idempotencyKey()]).size).toBe(3);
  });

  it("keeps every other scenario, and every scenario of a target without a second account, on the primary", () => {
    const ctx = context();
    expect(contextFor({}, ctx)).toBe(ctx);
    const alone = context({ ...target, keys: { primary: "pk_test_first" } });
    expect(contextFor({ account: "any" }, alone)).toBe(alone);
  });

  it("refuses, as a mistake in the check, what only the primary account has", () => {
    const view = contextFor({ account: "any" }, context());
    expect(() => view.fixture("unknownCustomerId")).toThrow(/primary account's fixture unknownCustomerId/);
    expect(() => view.familyB!.fixtures.registeredBoletoIds).toThrow(/must run on the primary account/);
    expect(() => view.takeRegisteredBoleto()).toThrow(/REGISTERED boletos/);
    expect(() => view.keyValue("primarySecondKey")).toThrow(/key "primarySecondKey"/);
  });

  it("runs negative-data refusals on the second account where the check makes the records and no creation limit counts them", async () => {
    const ctx = context();
    const recorded: string[] = [];
    const env = new DerivedEnv(ctx, "negative-data", DEFAULT_DERIVED_SETTINGS, undefined, undefined, { recorded: (o) => recorded.push(o.operationId) });
    const withBody = ctx.contract.operations.filter((op) => op.requestBody);
    const spread = withBody.filter((op) => spreadable(env, op)).map((op) => op.operationId);
    // Customers are made by the check; a boleto to cancel is a fixture; PIX and transaction creations count against their own, small limits.
    expect(spread).toEqual(expect.arrayContaining(["createCustomer", "updateCustomer"]));
    for (const id of ["cancelBoleto", "createPixCharge", "createTransaction"]) expect(spread, id).not.toContain(id);
    const there = env.spread();
    expect(there.ctx.account).toBe("secondAccount");
    expect(there.spread()).toBe(there);
    // Its requests go to the second account's bucket and count as the class's; its results are the class's.
    const sent: Array<string | undefined> = [];
    ctx.pacer.send = async (request) => (sent.push(request.bucket), { status: 400, headers: {}, body: "", durationMs: 0 }) as never;
    await there.send({ operationId: "createCustomer", method: "POST", url: `${target.baseUrl}/api/v1/sdk/customers`, headers: {} }, "primary");
    expect(sent).toEqual([ctx.bucketOfKey("pk_test_other")]);
    expect([env.requests, there.requests]).toEqual([1, 0]);
    there.notApplicable("createCustomer", "v", "t", "r");
    expect(env.outcomes.map((o) => o.operationId)).toEqual(["createCustomer"]);
    expect(recorded).toEqual(["createCustomer"]);
  });
});
