/**
 * What D39 (and D50, which follows it) asks of a request refused before or instead of any
 * operation: its status and code, in the family's error body by its path (problem details under
 * `/v1`, envelope 1 elsewhere), served as the media type the contract documents for that body.
 * Shared by the scenarios of unknown paths and wrong methods, of requests refused before routing
 * and of undecodable paths.
 */
import { FAMILY_IDS, loadFamilyContract, type FamilyContract } from "@payment-collection/contract/model/index.ts";
import type { FamilyContext } from "../core/check-context.ts";
import type { ObservedResponse } from "../core/validate.ts";
import { objectView } from "../derived/request-schema.ts";
import { codeOf, describe, json } from "./support.ts";

/** The body D39 gives the answer: problem details under `/v1`, envelope 1 elsewhere; undefined: either. */
export type Body = "problem-details" | "envelope-1" | undefined;
export const bodyOfPath = (path: string): Body => (/^\/v1(\/|$)/.test(path) ? "problem-details" : "envelope-1");

/** The members that tell an error body's shape: problem details (RFC 9457) and envelope 1. */
const SHAPES: Record<Exclude<Body, undefined>, string[]> = { "problem-details": ["type", "title", "status"], "envelope-1": ["success", "error"] };

const membersOf = (schema: unknown): string[] => Object.keys(objectView(schema)?.properties ?? {});

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
