/**
 * Decision D39: a path no operation has answers 404 `NOT_FOUND`, a documented path with another
 * method 405 `METHOD_NOT_ALLOWED` with an `Allow` header, both in the family's error body
 * (problem details under `/v1`, envelope 1 elsewhere). Derived from every path of the family's
 * contract (its parameters filled with the contract's examples, the target's prefix applied):
 * - every other method of the path answers 405, and its `Allow` names every method the contract
 *   gives the path and none of those that answered 405 (RFC 9110 §10.2.1: the methods the
 *   resource supports);
 * - paths no operation has answer 404: a segment more (`<path>/no-such-route-<run>`), every
 *   shorter path that is no operation's (`/v1`, `/api/v1/sdk`...), and the path written another
 *   way: a trailing slash, a doubled slash, in capitals (RFC 3986 §6.2.2.1: a path is compared
 *   case by case, and these are other paths). A path written in capitals is judged on its status
 *   and code only: whether `/V1` is "under /v1" is not D39's to say.
 * A candidate path that a template of the family matches (a value, or an empty segment, taken for
 * a parameter: `/v1/charges/` may be a read of the charge ``), or that ends with such a path
 * (`//pix`, `/api/v1/sdk/boleto/{id}`: the operation under a prefix, which a server may put
 * before paths, D13, and which the validating proxy reads so), is left out.
 */
import type { ContractOperation, FamilyId } from "@payment-collection/contract/model/index.ts";
import type { FamilyContext } from "../core/check-context.ts";
import { NotApplicable } from "../core/check-context.ts";
import type { ObservedResponse } from "../core/validate.ts";
import type { Scenario } from "../core/scenario.ts";
import { answerProblems, bodyOfPath, type Body } from "./refusal-answers.ts";

/** The methods a path is probed with. */
const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH"] as const;

export interface ContractPath {
  /** The template with the target's prefix (`/api/v1/sdk/customers/{id}`). */
  template: string;
  /** The template filled with the contract's examples. */
  concrete: string;
  methods: string[];
  /** An operation of the path, for its request. */
  op: ContractOperation;
}

/** The family's paths: each template once, with its methods. */
export function contractPaths(ctx: FamilyContext): ContractPath[] {
  const paths = new Map<string, ContractPath>();
  for (const op of ctx.contract.operations) {
    const template = `${ctx.prefixFor(op.path)}${op.path}`;
    const known = paths.get(template);
    if (known) known.methods.push(op.method);
    else paths.set(template, { template, concrete: ctx.pathOf(op.operationId), methods: [op.method], op });
  }
  return [...paths.values()];
}

/** The concrete paths a template may match: a parameter is any one segment, an empty one included (`/v1/charges/`). */
const matcherOf = (template: string) =>
  new RegExp(`^${template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")).join("[^/]*")}$`);

const allowOf = (response: ObservedResponse): string[] =>
  (response.headers.allow ?? "")
    .split(",")
    .map((m) => m.trim().toUpperCase())
    .filter((m) => m !== "");

function unknownAndWrongMethod(family: FamilyId): Scenario {
  return {
    id: `${family}/paths/unknown-path-wrong-method`,
    family,
    profile: "full",
    decision: "D39",
    title: "a path no operation has answers 404 NOT_FOUND, another method of a path 405 METHOD_NOT_ALLOWED with Allow, in the family's error body",
    statements: ["AB-SERVICE-PRINCIPLE-json-bodies"],
    async run(ctx, check) {
      const paths = contractPaths(ctx);
      if (paths.length === 0) throw new NotApplicable("the contract has no operation");
      const matchers = paths.map((p) => matcherOf(p.template));
      // The path and every path it ends with, its leading segments dropped one by one.
      const tails = (path: string) => path.split("/").slice(1).map((_, i, segments) => `/${segments.slice(i).join("/")}`);
      const nobodys = (path: string) => !tails(path).some((tail) => matchers.some((m) => m.test(tail)));
      const send = (op: ContractOperation, method: string, path: string) => {
        const built = ctx.buildRequest(op.operationId);
        return ctx.sendBuilt({ ...built, method, path, url: `${ctx.target.baseUrl}${path}` }, { checkId: this.id });
      };
      const expect404 = async (op: ContractOperation, method: string, path: string, body: Body, what: string) => {
        for (const problem of answerProblems(ctx, await send(op, method, path), 404, "NOT_FOUND", body)) check.that(false, `D39: ${method} ${path} (${what}) ${problem}`);
      };

      for (const path of paths) {
        const all = new Set(paths.filter((p, i) => matchers[i]!.test(path.concrete)).flatMap((p) => p.methods));
        const refused: string[] = [];
        const answers: ObservedResponse[] = [];
        for (const method of METHODS.filter((m) => !all.has(m))) {
          const response = await send(path.op, method, path.concrete);
          for (const problem of answerProblems(ctx, response, 405, "METHOD_NOT_ALLOWED", bodyOfPath(path.concrete))) check.that(false, `D39: ${method} ${path.concrete} (a method ${path.template} does not have) ${problem}`);
          if (response.status === 405) {
            refused.push(method);
            answers.push(response);
          }
        }
        for (const [i, response] of answers.entries()) {
          const allow = allowOf(response);
          const missing = path.methods.filter((m) => !allow.includes(m));
          const wrong = refused.filter((m) => allow.includes(m));
          check.that(
            missing.length === 0 && wrong.length === 0,
            `D39: the 405 of ${refused[i]} ${path.concrete} carries Allow: ${response.headers.allow ?? "(none)"}; it must name ${path.methods.join(", ")}${wrong.length > 0 ? ` and not ${wrong.join(", ")}, which answered 405` : ""} (RFC 9110 §10.2.1)`,
          );
        }

        const method = path.methods[0]!;
        const longer = `${path.concrete}/no-such-route-${ctx.runId}`;
        if (nobodys(longer)) await expect404(path.op, "GET", longer, bodyOfPath(longer), "a segment more");
        const variants: Array<[string, string, Body]> = [
          [`${path.concrete}/`, "with a trailing slash", bodyOfPath(path.concrete)],
          [path.concrete.replace(/\/([^/]*)$/, "//$1"), "with a doubled slash", bodyOfPath(path.concrete)],
          [path.concrete.toUpperCase(), "in capitals", undefined],
        ];
        for (const [variant, what, body] of variants) {
          if (variant !== path.concrete && nobodys(variant)) await expect404(path.op, method, variant, body, what);
        }
      }

      const shorter = new Set<string>();
      for (const path of paths) {
        const segments = path.concrete.split("/");
        for (let n = 2; n < segments.length; n += 1) shorter.add(segments.slice(0, n).join("/"));
      }
      const anOp = paths[0]!.op;
      for (const path of [...shorter].filter(nobodys)) await expect404(anOp, "GET", path, bodyOfPath(path), "a path shorter than an operation's");
    },
  };
}

export const unknownPathWrongMethodA = unknownAndWrongMethod("family-a");
export const unknownPathWrongMethodB = unknownAndWrongMethod("family-b");
