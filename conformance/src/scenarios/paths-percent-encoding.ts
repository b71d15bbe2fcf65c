/**
 * Decision D50: a request whose path is not valid percent-encoding of UTF-8 text (a `%` not
 * followed by two hexadecimal digits, RFC 3986 §2.1; escaped octets that are not UTF-8) is no
 * request target a server can read, and is refused with 400 `BAD_REQUEST` before any operation
 * is found, in the body its path gives (problem details under `/v1`, envelope 1 elsewhere, as
 * D39's refusals). Sent in the place of every path parameter of the family's contract (where a
 * server that took the segment literally would look up an id), and as a segment more after a
 * path without parameters (no operation's path, where a server would answer 404).
 */
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import { NotApplicable } from "../core/check-context.ts";
import type { Scenario } from "../core/scenario.ts";
import { contractPaths } from "./paths-unknown-and-wrong-method.ts";
import { answerProblems, bodyOfPath } from "./refusal-answers.ts";

/** Segments that do not decode: a `%` without hexadecimal digits, and a well-escaped octet pair that is not UTF-8. */
const UNDECODABLE = [
  ["%zz", "a % without two hexadecimal digits"],
  ["%C3%28", "escaped octets that are not UTF-8"],
] as const;

function undecodablePath(family: FamilyId): Scenario {
  return {
    id: `${family}/paths/undecodable-path-refused`,
    family,
    profile: "full",
    decision: "D50",
    title: "a path that is not valid percent-encoding of UTF-8 text is refused with 400 BAD_REQUEST in the family's error body",
    statements: ["AB-SERVICE-PRINCIPLE-json-bodies"],
    async run(ctx, check) {
      const paths = contractPaths(ctx);
      if (paths.length === 0) throw new NotApplicable("the contract has no operation");
      const probes: Array<{ method: string; path: string; op: (typeof paths)[number]["op"]; where: string }> = [];
      for (const [segment] of UNDECODABLE) {
        for (const path of paths.filter((p) => p.template.includes("{"))) {
          probes.push({ method: path.methods[0]!, path: path.template.replace(/\{[^}]+\}/g, segment), op: path.op, where: `in the place of ${path.template}'s parameters` });
        }
        const plain = paths.find((p) => !p.template.includes("{"));
        if (plain) probes.push({ method: "GET", path: `${plain.concrete}/${segment}`, op: plain.op, where: "as a segment more" });
      }
      for (const { method, path, op, where } of probes) {
        const built = ctx.buildRequest(op.operationId);
        const response = await ctx.sendBuilt({ ...built, method, path, url: `${ctx.target.baseUrl}${path}`, body: undefined }, { checkId: this.id });
        const what = UNDECODABLE.find(([segment]) => path.includes(segment))![1];
        for (const problem of answerProblems(ctx, response, 400, "BAD_REQUEST", bodyOfPath(path))) check.that(false, `D50: ${method} ${path} (${what}, ${where}) ${problem}`);
      }
    },
  };
}

export const undecodablePathA = undecodablePath("family-a");
export const undecodablePathB = undecodablePath("family-b");
