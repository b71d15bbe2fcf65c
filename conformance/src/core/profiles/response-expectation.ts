/**
 * What a documented response obliges a server to send under a profile: which status codes,
 * which media type, which headers and which body schema. Derived from the contract's markings
 * (`x-decided-responses` aspects, header and schema markings) as document-word.ts answers for
 * them, never written by hand.
 *
 * Under `seed`, for a response whose
 * - `status` is decided: a success answers with any 2xx, an error with any 4xx (the body
 *   must still have the documented shape, so the error comes in the right envelope);
 * - `content-type` is decided: any JSON media type (`application/json`, `application/*+json`);
 * - `body` is decided: the body is not checked (the whole shape is the project's).
 * Under `full` the contract's status, media type and schema apply as they are.
 */
import type { JsonSchema } from "@payment-collection/contract/model/json-schema.ts";
import { toJsonSchema } from "@payment-collection/contract/model/json-schema.ts";
import type { ContractOperation, ContractResponse } from "@payment-collection/contract/model/index.ts";
import type { DecidedAspect } from "@payment-collection/contract/model/markings.ts";
import { asserted, decisionBehind, type ContractElement, type Profile } from "./document-word.ts";
import { profileSchema } from "./schema-profile.ts";

const ASPECTS: readonly DecidedAspect[] = ["status", "content-type", "body"];

export type StatusRule =
  | { kind: "exact"; code: number }
  /** Any code of the class (2 = 2xx, 4 = 4xx); `documented` is the contract's code. */
  | { kind: "class"; leading: 2 | 4; documented: number };

export interface HeaderExpectation {
  name: string;
  required: boolean;
  /** draft-07 schema of the header value, read as a JSON number when numeric. */
  schema: JsonSchema;
}

export interface ResponseExpectation {
  operationId: string;
  /** The documented status this expectation is for. */
  status: string;
  profile: Profile;
  statusRule: StatusRule;
  /** Undefined when the response has no documented body. */
  mediaType?: { documented: string; anyJson: boolean };
  /** draft-07 schema of the body; undefined when the body is not checked. */
  bodySchema?: JsonSchema;
  headers: HeaderExpectation[];
  /** Decisions this expectation relaxed (seed) or enforced (full), for the report. */
  decisions: string[];
}

function statusRuleFor(response: ContractResponse, relaxed: boolean): StatusRule {
  const code = Number(response.status);
  if (!relaxed) return { kind: "exact", code };
  return { kind: "class", leading: code < 400 ? 2 : 4, documented: code };
}

/**
 * The expectation for one documented response of an operation under a profile. `code` is the
 * error code the check provokes, when it knows it: a marking restricted to some codes
 * (`x-decided-responses.<status>.codes`, e.g. cancelBoleto's 400, the document's for OBE001
 * and decision D18's for ODE003) relaxes only those; without a code the marking relaxes, so
 * that seed never holds a decision against a server.
 */
export function responseExpectation(op: ContractOperation, status: string, profile: Profile, options: { code?: string } = {}): ResponseExpectation {
  const key = `${status} ${profile} ${options.code ?? ""}`;
  let ofOperation = remembered.get(op);
  if (!ofOperation) remembered.set(op, (ofOperation = new Map()));
  let expectation = ofOperation.get(key);
  if (!expectation) ofOperation.set(key, (expectation = makeExpectation(op, status, profile, options)));
  return expectation;
}

/**
 * Expectations per operation of the (cached) contract model: each run would otherwise make its
 * schemas anew, and ajv compiles a validator per schema object. Callers only read them.
 */
const remembered = new WeakMap<ContractOperation, Map<string, ResponseExpectation>>();

function makeExpectation(op: ContractOperation, status: string, profile: Profile, options: { code?: string }): ResponseExpectation {
  const response = op.responses.find((r) => r.status === status);
  if (!response) throw new Error(`${op.operationId}: no documented ${status} response`);
  const aspect = (name: DecidedAspect): ContractElement => ({ kind: "response", response, aspect: name, code: options.code });
  const decisions = new Set<string>();
  for (const name of ASPECTS) {
    const decision = decisionBehind(aspect(name));
    if (decision) decisions.add(decision);
  }

  const statusRule = statusRuleFor(response, !asserted(profile, aspect("status")));
  const mediaType = response.mediaType
    ? { documented: response.mediaType, anyJson: !asserted(profile, aspect("content-type")) }
    : undefined;
  const bodySchema =
    response.schema && asserted(profile, aspect("body")) ? toJsonSchema(profileSchema(response.schema, profile), "3.0") : undefined;

  const headers: HeaderExpectation[] = response.headers
    .filter((header) => asserted(profile, { kind: "header", header }))
    .map((h) => ({ name: h.name, required: h.required, schema: toJsonSchema(profileSchema(h.schema, profile), "3.0") }));
  for (const header of response.headers) {
    const decision = decisionBehind({ kind: "header", header });
    if (decision) decisions.add(decision);
  }

  return { operationId: op.operationId, status, profile, statusRule, mediaType, bodySchema, headers, decisions: [...decisions].sort() };
}

/** Whether a status code satisfies a rule. */
export function statusAccepted(rule: StatusRule, code: number): boolean {
  if (rule.kind === "exact") return code === rule.code;
  return Math.floor(code / 100) === rule.leading;
}

export function describeStatusRule(rule: StatusRule): string {
  return rule.kind === "exact" ? String(rule.code) : `any ${rule.leading}xx (contract: ${rule.documented})`;
}

/** `type/subtype` of a Content-Type value, lower case, without parameters. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const essence = contentType.split(";")[0]!.trim().toLowerCase();
  return essence.length > 0 ? essence : undefined;
}

export function isJsonMediaType(mediaType: string | undefined): boolean {
  return mediaType !== undefined && (mediaType === "application/json" || /^application\/[^/]+\+json$/.test(mediaType));
}

/**
 * Whether a received Content-Type satisfies the expectation: the documented media type with any
 * parameters (`application/json; charset=utf-8` is `application/json`), or any JSON media type
 * when the content type is a decision and the profile is seed.
 */
export function mediaTypeAccepted(expected: NonNullable<ResponseExpectation["mediaType"]>, contentType: string | undefined): boolean {
  const received = mediaTypeOf(contentType);
  if (received === expected.documented.toLowerCase()) return true;
  return expected.anyJson && isJsonMediaType(received);
}
