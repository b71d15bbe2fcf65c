/**
 * Decision D39: a path no operation has answers 404 `NOT_FOUND`, a documented path with another
 * method 405 `METHOD_NOT_ALLOWED` with an `Allow` header, both in the family's error body. The
 * requests start from the family's first parameterless GET of the contract.
 */
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import { NotApplicable } from "../core/check-context.ts";
import type { Scenario } from "../core/scenario.ts";
import { codeOf, describe } from "./support.ts";

function unknownAndWrongMethod(family: FamilyId): Scenario {
  return {
    id: `${family}/paths/unknown-path-wrong-method`,
    family,
    profile: "full",
    decision: "D39",
    title: "an unknown path answers 404 NOT_FOUND, a wrong method 405 METHOD_NOT_ALLOWED with Allow",
    statements: ["AB-SERVICE-PRINCIPLE-json-bodies"],
    async run(ctx, check) {
      const op = ctx.contract.operations.find((o) => o.method === "GET" && !o.path.includes("{"));
      if (!op) throw new NotApplicable("the contract has no GET without path parameters to start from");
      const built = ctx.buildRequest(op.operationId);
      const unknown = await ctx.sendBuilt({ ...built, url: `${built.url.replace(/\?.*$/, "")}/no-such-route-${ctx.runId}` }, { checkId: this.id });
      check.that(unknown.status === 404 && codeOf(unknown) === "NOT_FOUND", `D39: an unknown path answered ${describe(unknown)}, expected 404 NOT_FOUND`);
      const wrong = await ctx.sendBuilt({ ...built, method: "DELETE" }, { checkId: this.id });
      check.that(wrong.status === 405 && codeOf(wrong) === "METHOD_NOT_ALLOWED", `D39: DELETE ${op.path} answered ${describe(wrong)}, expected 405 METHOD_NOT_ALLOWED`);
      check.that(wrong.headers.allow !== undefined, `D39: the 405 of DELETE ${op.path} carries no Allow header`);
    },
  };
}

export const unknownPathWrongMethodA = unknownAndWrongMethod("family-a");
export const unknownPathWrongMethodB = unknownAndWrongMethod("family-b");
