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
import { FAMILY_IDS, isObject, loadFamilyContract, type ContractOperation, type FamilyContract, type FamilyId } from "@payment-collection/contract/model/index.ts";
import type { FamilyContext } from "../core/check-context.ts";
import { NotApplicable } from "../core/check-context.ts";
import type { ObservedResponse } from "../core/validate.ts";
import type { Scenario } from "../core/scenario.ts";
import { codeOf, describe, json } from "./support.ts";

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

/** The body D39 gives the answer: problem details under `/v1`, envelope 1 elsewhere; undefined: either. */
export type Body = "problem-details" | "envelope-1" | undefined;
export const bodyOfPath = (path: string): Body => (/^\/v1(\/|$)/.test(path) ? "problem-details" : "envelope-1");

/** The members that tell an error body's shape: problem details (RFC 9457) and envelope 1. */
const SHAPES: Record<Exclude<Body, undefined>, string[]> = { "problem-details": ["type", "title", "status"], "envelope-1": ["success", "error"] };

const membersOf = (schema: unknown): string[] => {
  if (!isObject(schema)) return [];
  const parts = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf : [])].filter(isObject);
  return parts.flatMap((part) => Object.keys(isObject(part.properties) ? part.properties : {}));
};

/** The media type a contract documents for its error answers of a shape; undefined when it documents none. */
function documentedMediaType(contract: FamilyContract, body: Exclude<Body, undefined>): string | undefined {
  const errors = contract.operations.flatMap((op) => op.responses).filter((r) => /^[45]/.test(r.status));
  const found = errors.flatMap((r) => r.content).find((media) => SHAPES[body].every((name) => membersOf(media.schema).includes(name)));
  return found?.mediaType;
}

const mediaTypes = new WeakMap<FamilyContract, Map<Body, string | undefined>>();

/**
 * The media type of an error body of a shape, as the contract documents it: the family's own
 * error answers of that shape (family A's problem details `application/problem+json`, family
 * B's envelope 1 `application/json`), else another family's (family B documents no problem
 * details, which D39 gives a request line that is not HTTP).
 */
export function errorMediaType(ctx: FamilyContext, body: Body): string | undefined {
  if (body === undefined) return undefined;
  const known = mediaTypes.get(ctx.contract) ?? new Map<Body, string | undefined>();
  mediaTypes.set(ctx.contract, known);
  if (!known.has(body)) {
    const others = FAMILY_IDS.filter((family) => family !== ctx.family).map((family) => loadFamilyContract(family));
    known.set(body, [ctx.contract, ...others].map((contract) => documentedMediaType(contract, body)).find((type) => type !== undefined));
  }
  return known.get(body);
}

/** A Content-Type is a media type when it names it (without case, parameters allowed: RFC 9110 §8.3.1). */
const served = (contentType: string, mediaType: string) => contentType.split(";")[0]!.trim().toLowerCase() === mediaType.toLowerCase();

/** What is wrong with an answer of D39's: its status, its code, its media type, its body. */
export function answerProblems(ctx: FamilyContext, response: ObservedResponse, status: number, code: string, body: Body): string[] {
  if (response.status !== status || codeOf(response) !== code) return [`answered ${describe(response)}, expected ${status} ${code}`];
  const parsed = json(response);
  const type = response.headers["content-type"] ?? "";
  const mediaType = errorMediaType(ctx, body);
  const problems = mediaType === undefined || served(type, mediaType) ? [] : [`its ${status} is served as ${type || "no media type"}, not ${mediaType} (the media type the contract documents for ${body})`];
  if (body === "problem-details") {
    const complete = parsed?.status === status && typeof parsed.type === "string" && typeof parsed.title === "string";
    return complete ? problems : [...problems, `its ${status} is not problem details (type, title, status ${status}, code): ${response.body.slice(0, 200)}`];
  }
  if (body === "envelope-1") {
    const error = parsed?.error as Record<string, unknown> | undefined;
    const complete = parsed?.success === false && typeof error?.message === "string" && typeof error.details === "string";
    return complete ? problems : [...problems, `its ${status} is not envelope 1 ({success: false, error: {code, message, details}}): ${response.body.slice(0, 200)}`];
  }
  return problems;
}

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
