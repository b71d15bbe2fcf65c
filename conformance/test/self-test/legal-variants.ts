/**
 * Faithful servers that decided differently, made from the contract's decision markings: the
 * dual of the broken servers. For every kind of marking (a decided bound, a decided `required`,
 * a decided status...) a proxy in front of the correct sandbox takes ANOTHER legal choice at
 * every element so marked. The suites must pass each of them under `seed` (the document says
 * nothing there) and fail them under `full` (the project's decision differs).
 *
 * Nothing here names an operation or a member: the markings are read from the generated
 * documents through the contract model, so a new decision gets its variant without new code.
 * A variant must stay faithful to the document: where the document itself gives a value (an
 * error code, a state) the variant keeps it (`isDocumentWord`).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import {
  compileOpenApiSchema,
  isObject,
  loadFamilyContract,
  OperationIndex,
  operationsOf,
  pathDecodes,
  type ContractOperation,
  type FamilyId,
  type Json,
} from "@payment-collection/contract/model/index.ts";
import { SOURCE_DOCUMENT_PATH } from "@payment-collection/contract/statements.ts";
import type { Target } from "../../src/core/target.ts";
import { ID_MEMBERS } from "../../src/derived/id-links.ts";
import { keywordOf, objectView } from "../../src/derived/request-schema.ts";
import { STRUCTURE_BOUNDS, structureOf } from "../../src/derived/unreadable-bodies.ts";
import { profileSchema } from "../../src/core/profiles/index.ts";
import { startProxy, type Exchange, type Forward, type Reply } from "./mutants.ts";
import { withoutQueryCredentials, type DerivedKeys } from "./derived-faults.ts";
import { endpointThroughRelay, throughRelay, webhookRelay } from "./behaviour-mutants.ts";

export const FAMILIES: FamilyId[] = ["family-a", "family-b"];

// 1. The markings, read from the documents.

/** Where a marking sits: a request or response body member, a parameter, a response header, a response, an operation. */
export type Place = "request" | "response" | "parameter" | "header" | "responses" | "operation" | "webhook";

export interface Marking {
  family: FamilyId;
  /** The operation (or webhook) carrying it. */
  operationId: string;
  /** `<keyword>@<place>`, `element@<place>`, `<aspect>@responses`, `behaviour:<Dnn>`. */
  kind: string;
  decision: string;
  place: Place;
  /** Member path in the body (`*` for array items); empty for the whole body. */
  path: string[];
  /** Documented status of a response marking. */
  status?: string;
  /** Parameter or header name. */
  name?: string;
  parameterIn?: string;
  /** The marked schema node (for body and parameter markings). */
  schema?: Json;
  /** The whole schema of the marked member (the marked node may be one of its `allOf` members). */
  member?: Json;
  /** `codes` of an `x-decided-responses` entry. */
  codes?: string[];
}

/** A schema node and its combinator members, each with the member path it describes. */
function* schemaNodes(schema: unknown, path: string[] = []): Generator<{ node: Json; path: string[] }> {
  if (!isObject(schema)) return;
  yield { node: schema, path };
  for (const combinator of ["allOf", "anyOf", "oneOf"]) {
    for (const member of Array.isArray(schema[combinator]) ? schema[combinator] : []) yield* schemaNodes(member, path);
  }
  for (const [name, sub] of Object.entries(isObject(schema.properties) ? schema.properties : {})) yield* schemaNodes(sub, [...path, name]);
  if (isObject(schema.items)) yield* schemaNodes(schema.items, [...path, "*"]);
}

function schemaMarkings(base: Omit<Marking, "kind" | "decision" | "path" | "schema">, schema: unknown): Marking[] {
  const out: Marking[] = [];
  const members = new Map<string, Json>();
  for (const { node, path } of schemaNodes(schema)) {
    if (!members.has(path.join("."))) members.set(path.join("."), node);
    const member = members.get(path.join("."));
    if (node["x-basis"] === "decision") out.push({ ...base, kind: `element@${base.place}`, decision: String(node["x-decision"]), path, schema: node, member });
    for (const entry of Array.isArray(node["x-decided"]) ? node["x-decided"] : []) {
      if (!isObject(entry) || !Array.isArray(entry.keywords)) continue;
      for (const keyword of entry.keywords) out.push({ ...base, kind: `${String(keyword)}@${base.place}`, decision: String(entry.decision), path, schema: node, member });
    }
  }
  return out;
}

function operationMarkingsOf(family: FamilyId, op: ContractOperation, place: "operation" | "webhook" = "operation"): Marking[] {
  const at = { family, operationId: op.operationId };
  const out: Marking[] = [];
  if (op.markings.decision) out.push({ ...at, kind: `element@${place}`, decision: op.markings.decision, place, path: [] });
  for (const b of op.markings.behaviour) out.push({ ...at, kind: `behaviour:${b.decision}`, decision: b.decision, place, path: [] });
  for (const [status, decided] of Object.entries(op.markings.responses)) {
    for (const aspect of decided.aspects) out.push({ ...at, kind: `${aspect}@responses`, decision: decided.decision, place: "responses", path: [], status, codes: decided.codes });
  }
  for (const p of op.parameters) {
    const base = { ...at, place: "parameter" as const, path: [], name: p.name, parameterIn: p.in, schema: p.schema };
    if (p.decision) out.push({ ...base, kind: "element@parameter", decision: p.decision });
    for (const d of p.decided) for (const keyword of d.keywords) out.push({ ...base, kind: `${keyword}@parameter`, decision: d.decision });
  }
  if (op.requestBody) out.push(...schemaMarkings({ ...at, place: place === "webhook" ? "webhook" : "request" }, op.requestBody.schema));
  for (const r of op.responses) {
    out.push(...schemaMarkings({ ...at, place: "response", status: r.status }, r.schema));
    for (const h of r.headers) if (h.decision) out.push({ ...at, kind: "element@header", decision: h.decision, place: "header", path: [], status: r.status, name: h.name });
  }
  return out;
}

/** Every marking of a family's document: its operations, its webhooks, the document itself. */
export function markingsOf(family: FamilyId): Marking[] {
  const contract = loadFamilyContract(family);
  const out = contract.operations.flatMap((op) => operationMarkingsOf(family, op));
  const webhooks = isObject(contract.document["x-webhooks"]) ? contract.document["x-webhooks"] : {};
  for (const op of operationsOf({ ...contract.document, paths: webhooks })) out.push(...operationMarkingsOf(family, op, "webhook"));
  for (const b of Array.isArray(contract.document["x-decided-behaviour"]) ? contract.document["x-decided-behaviour"] : []) {
    if (isObject(b)) out.push({ family, operationId: "(document)", kind: `behaviour:${String(b.decision)}`, decision: String(b.decision), place: "operation", path: [] });
  }
  return out;
}

export const ALL_MARKINGS: Marking[] = FAMILIES.flatMap(markingsOf);

// 2. What the variants share: the document's words, the operations, bodies, paths.

const DOCUMENT_TEXT = readFileSync(SOURCE_DOCUMENT_PATH, "utf8");

/** A value the interface description itself names (an error code, a state): a variant keeps it. */
export function isDocumentWord(value: unknown): boolean {
  if (typeof value !== "string" || value.length === 0) return false;
  return new RegExp(`(^|[^A-Za-z0-9_])${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}([^A-Za-z0-9_]|$)`).test(DOCUMENT_TEXT);
}

const indexes = new Map(FAMILIES.map((f) => [f, new OperationIndex(loadFamilyContract(f).operations)]));
const familyOfPath = (path: string): FamilyId => (path.startsWith("/v1") ? "family-a" : "family-b");

/** The operation a request is for, and its family. */
function operationOf(request: Exchange): { family: FamilyId; op: ContractOperation; pathParams: Record<string, string> } | undefined {
  const family = familyOfPath(request.path);
  const match = indexes.get(family)!.match(request.method, request.path);
  if (!match) return undefined;
  const op = loadFamilyContract(family).operations.find((o) => o.operationId === match.operationId)!;
  return { family, op, pathParams: match.pathParams };
}

/** The family and operation of a request (`(other paths)` for a path no operation has). */
export function operationAt(request: Exchange): { family: FamilyId; operation: string } {
  const found = operationOf(request);
  return found ? { family: found.family, operation: found.op.operationId } : { family: familyOfPath(request.path), operation: "(other paths)" };
}

export const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** Every (parent, key) a member path reaches in a value (`*` walks array items). */
function reach(value: unknown, path: string[]): Array<{ parent: Json | unknown[]; key: string | number }> {
  if (path.length === 0) return [];
  const [head, ...rest] = path;
  if (head === "*") {
    if (!Array.isArray(value)) return [];
    return rest.length === 0 ? value.map((_, i) => ({ parent: value, key: i })) : value.flatMap((item) => reach(item, rest));
  }
  if (!isObject(value)) return [];
  if (rest.length === 0) return [{ parent: value, key: head! }];
  return head! in value ? reach(value[head!], rest) : [];
}

const getAt = (parent: Json | unknown[], key: string | number) => (parent as Record<string | number, unknown>)[key];
const setAt = (parent: Json | unknown[], key: string | number, value: unknown) => void ((parent as Record<string | number, unknown>)[key] = value);

/** Applies `edit` to a JSON reply body; other replies pass unchanged. */
function editReply(reply: Reply, edit: (body: unknown) => unknown): Reply {
  const body = parseJson(reply.body);
  if (body === undefined) return reply;
  return { ...reply, body: JSON.stringify(edit(body)) };
}

const validators = new Map<unknown, (value: unknown) => boolean>();
/** Whether a value satisfies a schema node as the contract states it (full). */
function satisfies(schema: Json, value: unknown): boolean {
  let validate = validators.get(schema);
  if (!validate) {
    const compiled = compileOpenApiSchema(schema, "3.0");
    validate = (v) => compiled(v) as boolean;
    validators.set(schema, validate);
  }
  return validate(value);
}

/** The example value the contract gives for a member of an operation's request. */
function exampleAt(op: ContractOperation, path: string[], schema?: Json): unknown {
  if (schema && "example" in schema) return schema.example;
  const found = reach(op.requestBody?.example, path)[0];
  if (found) return getAt(found.parent, found.key);
  if (schema && "default" in schema) return schema.default;
  return undefined;
}

/**
 * The documented 400 of an operation as the server sends it: the refusal of a narrower server.
 * Without an example of its own, the example of another operation's 400 of the same shape.
 */
function refusal(op: ContractOperation, family: FamilyId): Reply {
  const response = op.responses.find((r) => r.status === "400") ?? op.responses.find((r) => r.status.startsWith("4"))!;
  const shape = JSON.stringify(response.schema);
  const example =
    response.example ??
    loadFamilyContract(family)
      .operations.flatMap((o) => o.responses)
      .find((r) => r.status === response.status && r.example !== undefined && JSON.stringify(r.schema) === shape)?.example;
  return { status: Number(response.status), headers: { "content-type": response.mediaType ?? "application/json" }, body: JSON.stringify(example ?? instanceOf(response.schema, Number(response.status))) };
}

/** A value of a schema, for an error without an example: an enum's generic value (one the document does not name), the status for an integer. */
function instanceOf(schema: unknown, status: number): unknown {
  if (!isObject(schema)) return {};
  const enumeration = keywordOf(schema, "enum");
  if (Array.isArray(enumeration)) return enumeration.find((v) => !isDocumentWord(v)) ?? enumeration[0];
  const type = keywordOf(schema, "type");
  if (type === "integer" || type === "number") return status;
  if (type === "boolean") return false;
  if (type === "string") return "refused";
  const out: Json = {};
  for (const part of [schema, ...(Array.isArray(schema.allOf) ? schema.allOf : [])]) {
    if (!isObject(part) || !isObject(part.properties)) continue;
    for (const name of Array.isArray(part.required) ? part.required : []) out[String(name)] = instanceOf(part.properties[String(name)], status);
  }
  return out;
}

/** `companion`: the URL of the variant's companion server (a webhook relay), when it has one. */
export type Handler = (request: Exchange, forward: Forward, keys: DerivedKeys, companion?: string) => Promise<Reply>;

/** One faithful server that decided differently. */
export interface LegalVariant {
  name: string;
  /** The kinds of marking whose choice it changes. */
  kinds: string[];
  /** The markings it applies its choice to. */
  markings: Marking[];
  /** What it does instead of the decision. */
  choice: string;
  families: FamilyId[];
  handle: Handler;
  /** A server the variant needs besides the proxy (a webhook relay); its URL goes to `handle`. */
  companion?: () => Promise<{ url: string; close(): Promise<void> }>;
  adjustTarget?: (target: Target) => void;
  /**
   * Why `full` cannot see this choice in a run against the sandbox (nothing there provokes
   * it); undefined when full must fail the variant.
   */
  unobservable?: string;
  /** It answers some requests of its operations itself (a refusal): it owns those operations whole. */
  answersItself?: boolean;
  /**
   * Where it acts, when its handler reaches beyond its markings (legal-variant-groups.ts): given
   * the sites of its markings, its own.
   */
  sites?: (ofMarkings: Site[], markings: Marking[]) => Site[];
}

/**
 * Where a variant acts, for composing variants (legal-variant-groups.ts): an operation (`*`: any
 * of the family; `(other paths)`: paths no operation has) and its request, one of its responses
 * (`status`, `*` any) at a `part` (`body:<member path>`, `header:<name>`, `body-member:<name>`
 * wherever a record carries it, `*` the whole response), or the whole operation.
 */
export interface Site {
  family: FamilyId;
  operation: string;
  side: "request" | "response" | "operation";
  status?: string;
  part?: string;
}

export interface VariantGenerator {
  /** The kinds of marking this generator makes a variant for. */
  kinds: string[];
  make(markings: Marking[]): LegalVariant[];
}

const decisionsOf = (markings: Marking[]) => [...new Set(markings.map((m) => m.decision))].sort();
const familiesOf = (markings: Marking[]) => FAMILIES.filter((f) => markings.some((m) => m.family === f));
const named = (base: string, markings: Marking[]) => `${base} [${decisionsOf(markings).join(",")}]`;
const byOperation = (markings: Marking[], family: FamilyId, operationId: string) => markings.filter((m) => m.family === family && m.operationId === operationId);

/** A variant of the markings of some kinds, when the contract has any. */
function variant(markings: Marking[], kinds: string[], name: string, choice: string, handle: (mine: Marking[]) => Handler, extra: Partial<LegalVariant> = {}): LegalVariant[] {
  const mine = markings.filter((m) => kinds.includes(m.kind));
  if (mine.length === 0) return [];
  return [{ name: named(name, mine), kinds, markings: mine, choice, families: familiesOf(mine), handle: handle(mine), ...extra }];
}

// 3. Requests: narrower and wider bounds, other forms accepted, other defaults, members ignored.

const BOUND_KINDS = ["minimum", "maximum", "minLength", "maxLength"];
const kindsAt = (keywords: string[], places: Place[]) => places.flatMap((p) => keywords.map((k) => `${k}@${p}`));

/** The value of a parameter in a request. */
function parameterValue(request: Exchange, m: Marking): string | undefined {
  if (m.parameterIn === "header") return request.headers[m.name!.toLowerCase()];
  if (m.parameterIn === "query") return new URLSearchParams(request.search).get(m.name!) ?? undefined;
  return undefined;
}

/** A bound value, read as the keyword compares it (a length for strings). */
const measured = (value: unknown, keyword: string): number | undefined =>
  keyword.endsWith("Length") ? (typeof value === "string" ? value.length : undefined) : typeof value === "number" ? value : typeof value === "string" && value !== "" && !Number.isNaN(Number(value)) ? Number(value) : undefined;

/**
 * The narrower bound a variant holds instead of the contract's: a minimum one step up; a
 * maximum a thousandth into the range (half of a length), yet never below the contract's own
 * example or default, which a narrower server still accepts.
 */
function narrower(m: Marking, op: ContractOperation, keyword: string): number | undefined {
  const schema = m.schema!;
  const bound = keywordOf(schema, keyword);
  // A server keeps its own default legal.
  if (typeof bound !== "number" || bound === schema.default) return undefined;
  if (keyword === "minimum") return bound + (Number.isInteger(bound) ? 1 : 0.01);
  if (keyword === "minLength") return bound + 1;
  const example = m.place === "parameter" ? op.parameters.find((p) => p.name === m.name)?.example : exampleAt(op, m.path, schema);
  const floor = Math.max(measured(example, keyword) ?? 0, measured(schema.default, keyword) ?? 0);
  const low = (keywordOf(schema, keyword === "maximum" ? "minimum" : "minLength") as number | undefined) ?? 0;
  const inside = keyword === "maxLength" ? Math.floor(bound / 2) : low + Math.floor((bound - low) / 1000);
  return Math.min(bound, Math.max(inside, floor));
}

/** Request values (body members and parameters) each marking of the list reaches. */
function requestValues(request: Exchange, ms: Marking[]): Array<{ m: Marking; value: unknown }> {
  const body = parseJson(request.body);
  return ms.flatMap((m) =>
    m.place === "parameter" ? (parameterValue(request, m) === undefined ? [] : [{ m, value: parameterValue(request, m) }]) : reach(body, m.path).filter((r) => r.key in (r.parent as object)).map((r) => ({ m, value: getAt(r.parent, r.key) })),
  );
}

/** Refuses values inside the contract's bounds but outside narrower ones, and decided enum values the document does not name. */
function refusesNarrower(ms: Marking[]): Handler {
  return async (request, forward) => {
    const found = operationOf(request);
    if (!found) return forward(request);
    const mine = byOperation(ms, found.family, found.op.operationId);
    for (const { m, value } of requestValues(request, mine)) {
      const keyword = m.kind.split("@")[0]!;
      if (keyword === "enum") {
        if (typeof value === "string" && !isDocumentWord(value)) return refusal(found.op, found.family);
        continue;
      }
      const limit = narrower(m, found.op, keyword);
      const size = measured(value, keyword);
      if (limit === undefined || size === undefined) continue;
      if (keyword.startsWith("min") ? size < limit : size > limit) return refusal(found.op, found.family);
    }
    return forward(request);
  };
}

/** Whether a value breaks the one decided keyword of a marking (other keywords are the document's, and stay). */
function violates(keyword: string, schema: Json, value: unknown): boolean {
  const bound = keywordOf(schema, keyword);
  switch (keyword) {
    case "minimum":
      return typeof value === "number" && value < (bound as number);
    case "maximum":
      return typeof value === "number" && value > (bound as number);
    case "minLength":
      return typeof value === "string" && value.length < (bound as number);
    case "maxLength":
      return typeof value === "string" && value.length > (bound as number);
    case "pattern":
      return typeof value === "string" && !new RegExp(bound as string).test(value);
    case "format":
    case "x-domain-format":
      return typeof value === "string" && !satisfies({ type: "string", [keyword]: bound }, value);
    case "enum":
      return typeof value === typeof (bound as unknown[])[0] && !(bound as unknown[]).includes(value);
    case "type":
      return value !== undefined && value !== null && !satisfies({ type: bound }, value);
    default:
      return false;
  }
}

/** A value the decided keyword allows instead of one it refuses: clamped, truncated, padded, or the contract's example. */
function legalized(keyword: string, schema: Json, value: unknown, example: unknown): unknown {
  const bound = keywordOf(schema, keyword);
  if (keyword === "minimum" || keyword === "maximum") return bound;
  if (keyword === "maxLength" && typeof value === "string") return value.slice(0, bound as number);
  if (keyword === "minLength" && typeof value === "string") return value.padEnd(bound as number, "0");
  return example;
}

/**
 * Accepts what the contract refuses at the marked elements: the proxy maps the value to one the
 * decided keyword allows before forwarding (clamped, truncated, hashed, or the example), and
 * gives the client's value back in the reply and in later reads of the same record.
 */
function acceptsBeyond(ms: Marking[]): Handler {
  const restored = new Map<string, Array<{ name: string; value: unknown }>>();
  const restore = (body: unknown): unknown => {
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (!isObject(node)) return;
      const id = ID_MEMBERS.map((k) => node[k]).find((v) => typeof v === "string");
      for (const { name, value } of (typeof id === "string" ? restored.get(id) : undefined) ?? []) if (name in node) node[name] = value;
      Object.values(node).forEach(visit);
    };
    visit(body);
    return body;
  };
  return async (request, forward) => {
    const found = operationOf(request);
    if (!found) return forward(request);
    let forwarded = request;
    const body = parseJson(request.body);
    const changed: Array<{ name: string; value: unknown }> = [];
    const search = new URLSearchParams(request.search);
    for (const m of byOperation(ms, found.family, found.op.operationId)) {
      const keyword = m.kind.split("@")[0]!;
      if (m.place === "parameter") {
        const raw = parameterValue(request, m);
        const value = raw !== undefined && m.parameterIn === "query" && !Number.isNaN(Number(raw)) ? Number(raw) : raw;
        if (!violates(keyword, m.schema!, value)) continue;
        if (m.parameterIn === "header" && typeof value === "string") {
          // A key beyond the contract's lengths: the server keeps its hash (the same key, the same hash).
          const hashed = createHash("sha256").update(value).digest("hex");
          const legal = keyword === "maxLength" ? hashed.slice(0, Math.min(64, keywordOf(m.schema!, keyword) as number)) : `${value}${hashed}`.slice(0, 64);
          forwarded = { ...forwarded, headers: { ...forwarded.headers, [m.name!.toLowerCase()]: legal } };
        } else if (m.parameterIn === "query") {
          search.set(m.name!, String(legalized(keyword, m.schema!, value, m.schema!.default)));
          forwarded = { ...forwarded, search: `?${search.toString()}` };
        }
        continue;
      }
      if (!isObject(body)) continue;
      if (m.path.length === 0) {
        // A body shape the project decided as a whole: the members it requires default to the example.
        const example = isObject(found.op.requestBody?.example) ? found.op.requestBody!.example : {};
        for (const name of Array.isArray(m.schema!.required) ? m.schema!.required : []) if (!(name in body) && name in example) body[name] = example[name];
        continue;
      }
      for (const r of reach(body, m.path)) {
        const present = r.key in (r.parent as object);
        if (keyword === "required") {
          if (!present) setAt(r.parent, r.key, exampleAt(found.op, m.path, m.schema));
          continue;
        }
        const value = getAt(r.parent, r.key);
        if (!present || !violates(keyword, m.schema!, value)) continue;
        setAt(r.parent, r.key, legalized(keyword, m.schema!, value, exampleAt(found.op, m.path, m.schema)));
        if (r.parent === body) changed.push({ name: String(r.key), value });
      }
    }
    if (isObject(body)) forwarded = { ...forwarded, body: JSON.stringify(body) };
    const reply = await forward(forwarded);
    if (changed.length > 0 && reply.status < 300) {
      return editReply(reply, (answer) => {
        const record = isObject(answer) && isObject(answer.data) ? answer.data : answer;
        if (isObject(record)) {
          for (const { name, value } of changed) if (name in record) record[name] = value;
          const id = ID_MEMBERS.map((k) => record[k]).find((v) => typeof v === "string");
          if (typeof id === "string") restored.set(id, changed);
        }
        return answer;
      });
    }
    return restored.size > 0 ? editReply(reply, restore) : reply;
  };
}

/**
 * Where an `acceptsBeyond` server acts besides the requests of its operations: it gives the
 * client's value back in every record that carries the member, whatever the operation.
 */
const givesValuesBack: Partial<LegalVariant> = {
  sites: (ofMarkings, ms) => [
    ...ofMarkings,
    ...ms.filter((m) => m.place === "request" && m.path.length === 1).map((m) => ({ family: m.family, operation: "*", side: "response" as const, status: "*", part: `body-member:${m.path[0]}` })),
  ],
};

/** When the client leaves a member with a decided default out, the server uses another value. */
function otherDefaults(ms: Marking[]): Handler {
  const other = (schema: Json): unknown => {
    const d = schema.default;
    if (typeof d !== "number") return d;
    const candidate = Math.round(((schema.minimum as number | undefined) ?? 0) + (d - ((schema.minimum as number | undefined) ?? 0)) / 2);
    return candidate === d ? d + 1 : candidate;
  };
  return async (request, forward) => {
    const found = operationOf(request);
    if (!found) return forward(request);
    let forwarded = request;
    const body = parseJson(request.body);
    for (const m of byOperation(ms, found.family, found.op.operationId)) {
      if (m.place === "parameter" && m.parameterIn === "query" && parameterValue(request, m) === undefined) {
        const search = new URLSearchParams(forwarded.search);
        search.set(m.name!, String(other(m.schema!)));
        forwarded = { ...forwarded, search: `?${search.toString()}` };
      } else if (m.place === "request" && isObject(body)) {
        for (const r of reach(body, m.path)) if (!(r.key in (r.parent as object))) setAt(r.parent, r.key, other(m.schema!));
        forwarded = { ...forwarded, body: JSON.stringify(body) };
      }
    }
    return forward(forwarded);
  };
}

/**
 * What a list filter keeps, read the other way at its bound: an inclusive end of a period
 * exclusive and an exclusive one inclusive (the instant sent moved by the millisecond the
 * sandbox compares at before forwarding). An `equals` filter has no other reading here.
 */
function otherFilterEnds(ms: Marking[]): Handler {
  const shift: Record<string, number> = { "at-or-after": 1, before: 1, after: -1, "at-or-before": -1 };
  return async (request, forward) => {
    const found = operationOf(request);
    if (!found) return forward(request);
    const search = new URLSearchParams(request.search);
    for (const m of byOperation(ms, found.family, found.op.operationId)) {
      const step = shift[found.op.parameters.find((p) => p.name === m.name && p.in === "query")?.listFilter?.comparison ?? ""];
      const value = parameterValue(request, m);
      const instant = value === undefined ? NaN : Date.parse(value);
      if (step !== undefined && !Number.isNaN(instant)) search.set(m.name!, new Date(instant + step).toISOString());
    }
    return forward({ ...request, search: search.size > 0 ? `?${search}` : "" });
  };
}

/** The server does not know the decided request members and parameters: it drops them. */
function ignoresDecidedInput(ms: Marking[]): Handler {
  return async (request, forward) => {
    const found = operationOf(request);
    if (!found) return forward(request);
    let forwarded = request;
    const body = parseJson(request.body);
    for (const m of byOperation(ms, found.family, found.op.operationId)) {
      if (m.place === "parameter" && m.parameterIn === "header") {
        const headers = { ...forwarded.headers };
        delete headers[m.name!.toLowerCase()];
        forwarded = { ...forwarded, headers };
      } else if (m.place === "parameter" && m.parameterIn === "query") {
        const search = new URLSearchParams(forwarded.search);
        search.delete(m.name!);
        forwarded = { ...forwarded, search: search.size > 0 ? `?${search.toString()}` : "" };
      } else if (m.place === "request" && m.path.length > 0 && isObject(body)) {
        for (const r of reach(body, m.path)) if (!Array.isArray(r.parent)) delete r.parent[r.key as string];
        forwarded = { ...forwarded, body: JSON.stringify(body) };
      }
    }
    return forward(forwarded);
  };
}

/**
 * D28's other choice of notation: an integer of the query is read in any notation a number can
 * be written in (`2e0`, `2.0`, `0x2`, ` 2`), not only decimal digits (given to the sandbox in
 * decimal digits); and D32's other choice for a query parameter given twice: its last value.
 */
function queryIntegersInAnyNotation(ms: Marking[]): Handler {
  return (request, forward) => {
    const found = operationOf(request);
    if (!found) return forward(request);
    const search = new URLSearchParams(request.search);
    let changed = false;
    // D32's other choice: a query parameter given twice is read as its last value.
    for (const parameter of found.op.parameters.filter((p) => p.in === "query")) {
      const values = search.getAll(parameter.name);
      if (values.length < 2) continue;
      search.set(parameter.name, values.at(-1)!);
      changed = true;
    }
    for (const m of byOperation(ms, found.family, found.op.operationId)) {
      const value = search.get(m.name!);
      const number = value === null || value.trim() === "" ? Number.NaN : Number(value);
      if (value === null || /^[+-]?\d+$/.test(value) || !Number.isInteger(number)) continue;
      search.set(m.name!, String(number));
      changed = true;
    }
    return forward(changed ? { ...request, search: `?${search.toString()}` } : request);
  };
}

/**
 * D45's other choice of counting: a header's length in bytes, not in characters. A value of
 * fewer characters than the minimum but as many bytes is taken (given to the sandbox as an
 * ASCII value of as many bytes, the same for the same value, so that a repeated key is the same key).
 */
function headerLengthsInBytes(ms: Marking[]): Handler {
  return (request, forward) => {
    const found = operationOf(request);
    if (!found) return forward(request);
    let forwarded = request;
    for (const m of byOperation(ms, found.family, found.op.operationId)) {
      const value = request.headers[m.name!.toLowerCase()];
      const minimum = keywordOf(m.schema!, "minLength");
      if (value === undefined || typeof minimum !== "number" || value.length < minimum || [...Buffer.from(value, "latin1").toString("utf8")].length >= minimum) continue;
      const ascii = createHash("sha256").update(value).digest("hex").padEnd(value.length, "0").slice(0, Math.max(value.length, minimum));
      forwarded = { ...forwarded, headers: { ...forwarded.headers, [m.name!.toLowerCase()]: ascii } };
    }
    return forward(forwarded);
  };
}

/** Refuses null where the contract decided null is accepted (the member must be absent or a value). */
function refusesNull(ms: Marking[]): Handler {
  return async (request, forward) => {
    const found = operationOf(request);
    if (!found) return forward(request);
    for (const { value } of requestValues(request, byOperation(ms, found.family, found.op.operationId))) if (value === null) return refusal(found.op, found.family);
    return forward(request);
  };
}

// 4. Responses: members omitted, absence instead of null, values of another form, other statuses and bodies.

/** Applies `edit` at every marked member of the matching replies. */
function editResponses(ms: Marking[], edit: (m: Marking, parent: Json | unknown[], key: string | number) => void): Handler {
  return async (request, forward) => {
    const reply = await forward(request);
    const found = operationOf(request);
    if (!found) return reply;
    const mine = byOperation(ms, found.family, found.op.operationId).filter((m) => m.status === String(reply.status));
    if (mine.length === 0) return reply;
    // Deepest first, so that an omitted object does not hide its own members' edits.
    const ordered = [...mine].sort((a, b) => b.path.length - a.path.length);
    return editReply(reply, (body) => {
      // One edit per member, however many markings it carries.
      const done = new Map<unknown, Set<string | number>>();
      for (const m of ordered) {
        for (const r of reach(body, m.path)) {
          const keys = done.get(r.parent) ?? new Set();
          if (!(r.key in (r.parent as object)) || keys.has(r.key)) continue;
          keys.add(r.key);
          done.set(r.parent, keys);
          edit(m, r.parent, r.key);
        }
      }
      return body;
    });
  };
}

/**
 * A member the omission variant keeps: a record's id (the documented reads and changes take it),
 * a value the document names (a state), a null the document states (its nullability is not
 * decided), a list.
 */
function keepsItsPlace(m: Marking, value: unknown, key: string | number): boolean {
  if (ID_MEMBERS.includes(String(key)) || Array.isArray(value) || isDocumentWord(value)) return true;
  if (value === null) return !decidedNullable(m, m.path);
  // An object holding a null the document states (a PIX block before payment) stays, with it.
  if (isObject(value)) return Object.entries(value).some(([name, v]) => v === null && !decidedNullable(m, [...m.path, name]));
  return false;
}

const decidedNullable = (m: Marking, path: string[]) =>
  ALL_MARKINGS.some((x) => x.kind === "nullable@response" && x.family === m.family && x.operationId === m.operationId && x.status === m.status && x.path.join(".") === path.join("."));

const omit = (parent: Json | unknown[], key: string | number) => {
  if (!Array.isArray(parent)) delete parent[key as string];
};

/**
 * A value of another form than the decided pattern, format or domain format, which the
 * document's own constraints still allow (seed): a date with its time, separators, another
 * case, another check digit.
 */
function otherForm(m: Marking, value: unknown): unknown {
  if (typeof value !== "string") return value;
  const lastDigit = /\d$/.test(value) ? `${value.slice(0, -1)}${(Number(value.at(-1)) + 1) % 10}` : value;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? [`${value}T00:00:00Z`] : [];
  const candidates = [...date, value.replace(/(\d{5})(?=\d)/g, "$1 "), value.toLowerCase() === value ? value.toUpperCase() : value.toLowerCase(), `${value} `, lastDigit];
  const seed = profileSchema(m.member!, "seed");
  return candidates.find((c) => c !== value && satisfies(seed, c) && !satisfies(m.member!, c)) ?? value;
}

const ALTERNATIVE_STATUS: Record<number, number> = { 200: 203, 201: 200, 400: 422, 401: 403, 403: 401, 404: 410, 409: 423, 422: 400 };

/** Whether a marking of a response applies to this reply (`codes` restricts it to some error codes). */
function responseMarkingApplies(m: Marking, reply: Reply): boolean {
  if (m.status !== String(reply.status)) return false;
  if (!m.codes) return true;
  const text = reply.body;
  return m.codes.some((code) => text.includes(`"${code}"`));
}

/** The error code of a reply body, in any of the families' envelopes. */
function errorCodeOf(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const error = isObject(body.error) ? body.error : body;
  const code = error.code ?? error.errorCode;
  return typeof code === "string" ? code : undefined;
}

/** Rewrites the replies of marked responses. */
function rewriteResponses(ms: Marking[], rewrite: (m: Marking, request: Exchange, reply: Reply) => Reply): Handler {
  return async (request, forward) => {
    const reply = await forward(request);
    const found = operationOf(request);
    if (!found) return reply;
    const m = byOperation(ms, found.family, found.op.operationId).find((x) => responseMarkingApplies(x, reply));
    return m ? rewrite(m, request, reply) : reply;
  };
}

/** Another JSON body: an error keeps the document's code (when it names one) in a flat `{code, message}`; a success moves its record one level. */
function otherBody(_m: Marking, _request: Exchange, reply: Reply): Reply {
  const body = parseJson(reply.body);
  if (body === undefined) return reply;
  let next: unknown;
  if (reply.status >= 400) {
    const code = errorCodeOf(body);
    next = { code: code && isDocumentWord(code) ? code : `E${reply.status}`, message: "refused" };
  } else {
    next = isObject(body) && "data" in body ? { result: body.data } : { result: body };
  }
  return { ...reply, headers: { ...reply.headers, "content-type": "application/json" }, body: JSON.stringify(next) };
}

/** Another JSON media type: problem details as plain JSON, plain JSON as a vendor type. */
function otherMediaType(_m: Marking, _request: Exchange, reply: Reply): Reply {
  const current = reply.headers["content-type"] ?? "";
  return { ...reply, headers: { ...reply.headers, "content-type": /problem\+json/.test(current) ? "application/json" : "application/vnd.payments+json" } };
}

/** Another status of the same class (204 without body where the body is decided too). */
function otherStatus(ms: Marking[]) {
  return (m: Marking, request: Exchange, reply: Reply): Reply => {
    const bodyDecided = ms.some((x) => x.kind === "body@responses" && x.family === m.family && x.operationId === m.operationId && x.status === m.status) || m.codes !== undefined;
    if (request.method === "DELETE" && reply.status === 200 && bodyDecided) return { status: 204, headers: Object.fromEntries(Object.entries(reply.headers).filter(([n]) => n !== "content-type")), body: "" };
    return { ...reply, status: ALTERNATIVE_STATUS[reply.status] ?? reply.status };
  };
}

// 5. Behaviour: limits, path prefix, unknown paths, scopes, keys.

const RATE_LIMIT_HEADERS = ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "retry-after"];

/**
 * A family without rate limits: never a 429 (the proxy waits out the sandbox's window and asks
 * again) and no limit headers.
 */
const noLimitsOn = (family: FamilyId): Handler => async (request, forward) => {
  if (familyOfPath(request.path) !== family) return forward(request);
  let reply = await forward(request);
  for (let attempt = 0; reply.status === 429 && attempt < 5; attempt += 1) {
    await new Promise((done) => setTimeout(done, (Number(reply.headers["retry-after"] ?? 1) || 1) * 1000 + 50));
    reply = await forward(request);
  }
  return { ...reply, headers: Object.fromEntries(Object.entries(reply.headers).filter(([n]) => !RATE_LIMIT_HEADERS.includes(n))) };
};

const OTHER_PREFIX = "/v2";

/** The operations whose path prefix is decided live under another prefix (the target says which). */
function otherPrefix(ms: Marking[]): Handler {
  const ops = ms.map((m) => loadFamilyContract(m.family).operations.find((o) => o.operationId === m.operationId)!);
  const roots = [...new Set(ops.map((o) => `/${o.path.split("/")[1]}`))];
  return async (request, forward) => {
    if (request.path.startsWith(`${OTHER_PREFIX}/`) && roots.some((r) => request.path.slice(OTHER_PREFIX.length).startsWith(r))) return forward({ ...request, path: request.path.slice(OTHER_PREFIX.length) });
    if (roots.some((r) => request.path === r || request.path.startsWith(`${r}/`))) return { status: 404, headers: { "content-type": "application/json" }, body: JSON.stringify({ success: false, error: { code: "NOT_FOUND", message: "no such path", details: "" } }) };
    return forward(request);
  };
}

/** Unknown paths and wrong methods: 404 for both, in a plain JSON body of its own (with a code: every family A error carries one). */
const otherUnknownAnswers: Handler = async (request, forward) => {
  const reply = await forward(request);
  if (operationOf(request) || (reply.status !== 404 && reply.status !== 405)) return reply;
  const headers = Object.fromEntries(Object.entries(reply.headers).filter(([n]) => n !== "allow"));
  return { status: 404, headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ code: "NO_SUCH_ROUTE", message: "not found" }) };
};

/** A value with its texts in upper case, however deep (a server that normalises a name it keeps). */
const upperCased = (value: unknown): unknown =>
  typeof value === "string" ? value.toUpperCase() : Array.isArray(value) ? value.map(upperCased) : isObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, upperCased(v)])) : value;

/** Its own bound of a body's nesting: half D39's. */
const OWN_DEPTH = STRUCTURE_BOUNDS.depth / 2;

/**
 * Bodies read another way than D39's: a body that cannot be read (not JSON, or empty where
 * one is required) or nested deeper than its own bound answered 422 in a plain JSON body, a
 * body read as JSON whatever its Content-Type, no size limit (the body's whitespace dropped on
 * the way in) and no bound on arrays or values (a body past D39's read whole, and the members
 * the operation does not declare ignored: dropped on the way in).
 */
const otherBodyReading: Handler = async (request, forward) => {
  const found = operationOf(request);
  if (!found?.op.requestBody) return forward(request);
  const parsed = request.body === "" ? undefined : parseJson(request.body);
  if (parsed === undefined) {
    return { status: 422, headers: { "content-type": "application/json" }, body: JSON.stringify({ code: "UNREADABLE_BODY", message: "the body is not JSON" }) };
  }
  const structure = structureOf(parsed);
  if (structure.depth > OWN_DEPTH) {
    return { status: 422, headers: { "content-type": "application/json" }, body: JSON.stringify({ code: "UNREADABLE_BODY", message: `the body is nested deeper than ${OWN_DEPTH} levels` }) };
  }
  const unbounded = isObject(parsed) && (structure.longestArray > STRUCTURE_BOUNDS.arrayItems || structure.values > STRUCTURE_BOUNDS.values);
  const declared = Object.keys(objectView(found.op.requestBody.schema)?.properties ?? {});
  const read = unbounded ? Object.fromEntries(Object.entries(parsed).filter(([name]) => declared.includes(name))) : parsed;
  const compact = JSON.stringify(read);
  const oversize = compact.length !== request.body.length && Buffer.byteLength(request.body) > 1024 * 1024;
  const asJson = /^application\/([a-z0-9.-]+\+)?json\s*(;|$)/i.test(request.headers["content-type"] ?? "");
  if (asJson && !oversize && !unbounded) return forward(request);
  return forward({ ...request, headers: { ...request.headers, "content-type": "application/json" }, body: compact });
};

/**
 * D39's other choice for a leap second in a date-time of the query: read as the second before
 * it (the sandbox gets `:59`), not refused.
 */
const leapSecondsShifted: Handler = (request, forward) => {
  const found = operationOf(request);
  const search = new URLSearchParams(request.search);
  const dates = (found?.op.parameters ?? []).filter((p) => p.in === "query" && keywordOf(p.schema, "format") === "date-time" && /T\d{2}:\d{2}:60/i.test(search.get(p.name) ?? ""));
  if (dates.length === 0) return forward(request);
  for (const p of dates) search.set(p.name, search.get(p.name)!.replace(/(T\d{2}:\d{2}):60/i, "$1:59"));
  return forward({ ...request, search: `?${search.toString()}` });
};

/** The operations with a date-time query parameter, where leapSecondsShifted acts. */
const leapSecondSites = (): Site[] =>
  FAMILIES.flatMap((family) =>
    loadFamilyContract(family)
      .operations.filter((o) => o.parameters.some((p) => p.in === "query" && keywordOf(p.schema, "format") === "date-time"))
      .map((o): Site => ({ family, operation: o.operationId, side: "request" })),
  );

/** A family B key without a scope: 401 instead of 403. */
const scopeRefusedWith401: Handler = async (request, forward) => {
  const reply = await forward(request);
  return familyOfPath(request.path) === "family-b" && reply.status === 403 && reply.body.includes("INSUFFICIENT_SCOPE") ? { ...reply, status: 401 } : reply;
};

/**
 * D46's other choice: a request with a key header and a credential also in its URL query is
 * served as if the query carried none (the credential dropped before the sandbox reads it). A
 * key sent only in the query stays unread, as the document says.
 */
const queryCredentialsIgnored: Handler = (request, forward) => forward(withoutQueryCredentials(request));

/**
 * Family A live keys refused with 403 (a key of another environment) instead of 401. Family B
 * keeps its 401: a live key is an invalid key at the sandbox, and the document gives an invalid
 * key 401 UNAUTHORIZED.
 */
const liveKeysRefusedWith403: Handler = async (request, forward) => {
  const reply = await forward(request);
  return familyOfPath(request.path) === "family-a" && /^sk_live_/.test(request.headers["x-api-key"] ?? "") && reply.status === 401 ? { ...reply, status: 403 } : reply;
};

/**
 * Idempotency keys scoped per account rather than per API key, where that scoping is a
 * decision (D36): a request of such an operation under the primary account's second key is
 * served as the primary key's, so both keys of the account share one key space.
 */
function keysScopedPerAccount(ms: Marking[]): Handler {
  return async (request, forward, keys) => {
    const found = operationOf(request);
    const marked = found && byOperation(ms, found.family, found.op.operationId).length > 0;
    const family = found?.family === "family-a" ? keys.familyA : keys.familyB;
    const second = family.primarySecondKey;
    if (!marked || !second || request.headers["x-api-key"] !== second) return forward(request);
    return forward({ ...request, headers: { ...request.headers, "x-api-key": family.primary } });
  };
}

/** Another account's records: 403 instead of 404, where the 404's status is decided. */
function crossTenant403(ms: Marking[]): Handler {
  return async (request, forward, keys) => {
    const reply = await forward(request);
    const found = operationOf(request);
    if (!found || reply.status !== 404) return reply;
    const tenant = [keys.familyA.secondAccount, keys.familyB.secondAccount].includes(request.headers["x-api-key"] ?? "");
    return tenant && byOperation(ms, found.family, found.op.operationId).some((m) => m.status === "404") ? { ...reply, status: 403 } : reply;
  };
}

/**
 * The path segments of the resources whose id form is decided: the segment before the id
 * parameter, or, for a record's id member, the one before the operation's first parameter (its
 * last segment when it has none: the creation).
 */
function idResources(ms: Marking[]): Set<string> {
  return new Set(ms.map((m) => {
    const op = loadFamilyContract(m.family).operations.find((o) => o.operationId === m.operationId)!;
    const segments = op.path.split("/");
    const parameter = m.place === "parameter" ? segments.indexOf(`{${m.name}}`) : segments.findIndex((segment) => segment.startsWith("{"));
    return segments.at(parameter === -1 ? -1 : parameter - 1)!;
  }));
}

/** A marking on a record's own `id` in a response (the body's, or its `data`'s), which the id-form variant owns. */
const onIdMember = (m: Marking) => m.place === "response" && ["id", "data.id"].includes(m.path.join("."));
const onAnyResource = (resources: Set<string>, path: string) => path.split("/").some((segment) => resources.has(segment));

/** The operations on the resources whose id form is decided: those the re-encoding reaches. */
function idFormOperations(ms: Marking[]): Array<{ family: FamilyId; operationId: string }> {
  const resources = idResources(ms);
  return familiesOf(ms).flatMap((family) => loadFamilyContract(family).operations.filter((o) => onAnyResource(resources, o.path)).map((o) => ({ family, operationId: o.operationId })));
}

/**
 * Ids of the records whose id form is decided, re-encoded by the proxy in both directions: in
 * every reply of an operation on that resource, and in every request path that names one.
 */
function otherIdForm(ms: Marking[]): Handler {
  const encode = (id: string) => `x${Buffer.from(id, "utf8").toString("hex")}`;
  const decode = (id: string) => (/^x(?:[0-9a-f]{2})+$/.test(id) ? Buffer.from(id.slice(1), "hex").toString("utf8") : id);
  const resources = idResources(ms);
  const onResource = (path: string) => onAnyResource(resources, path);
  return async (request, forward) => {
    // Every path that names such a record, the sandbox's own controls too (a charge paid).
    const concrete = request.path.split("/");
    const path = concrete.map((segment, i) => (i > 0 && resources.has(concrete[i - 1]!) ? encodeURIComponent(decode(decodeURIComponent(segment))) : segment)).join("/");
    const found = operationOf(request);
    if (!found || !onResource(found.op.path)) return forward({ ...request, path });
    const reply = await forward({ ...request, path });
    return editReply(reply, (body) => {
      const record = isObject(body) && isObject(body.data) ? body.data : body;
      if (isObject(record) && typeof record.id === "string") record.id = encode(record.id);
      return body;
    });
  };
}

/**
 * Webhooks through a relay, a charge's and the account's (family B's events): the event in
 * another JSON shape (`{event: <the contract's payload>}`), delivered once: the relay tells the
 * server every delivery succeeded, so it never retries.
 */
const otherWebhooks: Handler = async (request, forward, keys, relay) => {
  // A charge's webhook_url and the account's endpoint (family B's events) both lead to the relay.
  const sent = endpointThroughRelay.request!(throughRelay.request!(request, keys as never, relay), keys as never, relay);
  const reply = await forward(sent);
  if (!relay || !reply.body.includes(relay)) return reply;
  // Every reply gives the client its own webhook_url back, not the relay's.
  const back = (node: unknown): unknown =>
    typeof node === "string" && node.startsWith(`${relay}?to=`) ? new URL(node).searchParams.get("to") : Array.isArray(node) ? node.map(back) : isObject(node) ? Object.fromEntries(Object.entries(node).map(([k, v]) => [k, back(v)])) : node;
  return editReply(reply, back);
};
const otherWebhookRelay = webhookRelay(
  ({ headers, body }) => ({ headers, body: JSON.stringify({ event: parseJson(body) ?? body }) }),
  () => 200,
);

// 6. The generators: one per kind (and direction); every kind of marking the contract has must have one.

const WEBHOOK_KINDS = [...kindsAt(["element", "enum", "format", "items", "nullable", "pattern", "required", "x-domain-format", "x-echoes"], ["webhook"]), "behaviour:D26"];
const REQUEST_FORM_KINDS = kindsAt(["pattern", "format", "enum", "type", "x-domain-format"], ["request"]);

export const GENERATORS: VariantGenerator[] = [
  {
    kinds: kindsAt([...BOUND_KINDS, "enum"], ["request", "parameter"]),
    make: (all) => variant(all.filter((m) => m.kind !== "enum@parameter"), kindsAt([...BOUND_KINDS, "enum"], ["request", "parameter"]), "narrower-bounds", "refuses values inside the contract's bounds but outside narrower ones, and decided enum values the document does not name, with the operation's documented 400", refusesNarrower, { answersItself: true }),
  },
  {
    // A bound of a response or webhook member is decided where the member echoes an input (D45):
    // the wider-bounds server gives the client's longer value back there too.
    kinds: [...kindsAt(BOUND_KINDS, ["request", "parameter", "response", "webhook"]), ...REQUEST_FORM_KINDS, "required@request", "element@request"],
    make: (all) => [
      ...variant(all, kindsAt(BOUND_KINDS, ["request", "parameter"]), "wider-bounds", "accepts values beyond the contract's bounds (mapped into range before forwarding, the client's value given back)", acceptsBeyond, givesValuesBack),
      ...variant(all, REQUEST_FORM_KINDS, "request-other-forms-accepted", "accepts request values of another form, type or enum value (mapped to a legal one before forwarding, the client's value given back)", acceptsBeyond, givesValuesBack),
      ...variant(all.filter((m) => m.kind === "required@request" || (m.kind === "element@request" && m.path.length === 0)), ["required@request", "element@request"], "request-absence-accepted", "accepts a request without the members the contract requires by decision (the proxy fills them before forwarding)", acceptsBeyond, givesValuesBack),
    ],
  },
  { kinds: ["default@request", "default@parameter"], make: (all) => variant(all, ["default@request", "default@parameter"], "other-defaults", "uses another default when the member or parameter is left out", otherDefaults) },
  {
    kinds: ["element@request", "element@parameter"],
    // A header the document's header table names applies to every request of the family: kept.
    make: (all) => variant(all.filter((m) => (m.kind === "element@parameter" && !(m.parameterIn === "header" && isDocumentWord(m.name))) || (m.kind === "element@request" && m.path.length > 0)), ["element@request", "element@parameter"], "decided-input-ignored", "does not know the request members and parameters the project added: drops them", ignoresDecidedInput),
  },
  { kinds: ["x-list-filter@parameter"], make: (all) => variant(all, ["x-list-filter@parameter"], "other-filter-ends", "reads the ends of a list's period the other way: the start exclusive, the end inclusive", otherFilterEnds) },
  { kinds: ["nullable@request"], make: (all) => variant(all, ["nullable@request"], "request-null-refused", "refuses null where the contract accepts it (absence or a value only)", refusesNull, { answersItself: true }) },
  {
    kinds: ["required@response"],
    make: (all) =>
      variant(
        // A member whose value the document fixes (a constant, a state it names) stays.
        all.filter((m) => !(Array.isArray(m.schema?.enum) && m.schema!.enum.length === 1)),
        ["required@response"],
        "response-members-omitted",
        "omits the members the contract requires by decision",
        (mine) => editResponses(mine, (m, parent, key) => void (keepsItsPlace(m, getAt(parent, key), key) ? undefined : omit(parent, key))),
      ),
  },
  { kinds: ["nullable@response"], make: (all) => variant(all, ["nullable@response"], "response-null-omitted", "omits a member instead of sending null", (mine) => editResponses(mine, (_m, parent, key) => void (getAt(parent, key) === null ? omit(parent, key) : undefined))) },
  {
    kinds: kindsAt(["pattern", "format", "x-domain-format"], ["response"]),
    make: (all) =>
      variant(
        // A member whose domain format is the document's keeps its form (any other form would break
        // it); a record's id takes another form in other-id-form, which gives it back in requests.
        all.filter((m) => !onIdMember(m) && (typeof m.schema?.["x-domain-format"] !== "string" || all.some((x) => x.kind === "x-domain-format@response" && x.schema === m.schema))),
        kindsAt(["pattern", "format", "x-domain-format"], ["response"]),
        "response-other-forms",
        "sends values of another form than the decided pattern, format or domain format",
        (mine) => editResponses(mine, (m, parent, key) => setAt(parent, key, otherForm(m, getAt(parent, key)))),
      ),
  },
  {
    kinds: ["enum@response"],
    make: (all) =>
      variant(all, ["enum@response"], "response-other-enum-values", "sends values outside the decided enum where the document names no value", (mine) =>
        editResponses(mine, (_m, parent, key) => {
          const value = getAt(parent, key);
          if (typeof value === "string" && !isDocumentWord(value)) setAt(parent, key, `${value}_2`);
        }),
      ),
  },
  {
    kinds: ["items@response"],
    make: (all) =>
      variant(all, ["items@response"], "response-other-items", "sends array items of another type (objects instead of strings; an empty list gets one)", (mine) =>
        editResponses(mine, (_m, parent, key) => {
          const items = getAt(parent, key);
          if (Array.isArray(items)) setAt(parent, key, items.length > 0 ? items.map((text) => ({ text })) : [{ text: "Do not accept after the due date" }]);
        }),
      ),
  },
  {
    kinds: ["x-echoes@response"],
    make: (all) =>
      variant(all, ["x-echoes@response"], "echoes-as-held", "gives back a member that echoes the request in the form it holds it (its texts in upper case), not as sent", (mine) =>
        editResponses(mine, (_m, parent, key) => setAt(parent, key, upperCased(getAt(parent, key))))),
  },
  {
    kinds: ["element@response", "element@header"],
    make: (all) => [
      ...variant(all.filter((m) => m.path.length > 0), ["element@response"], "decided-response-members-omitted", "omits the response members the project added", (mine) => editResponses(mine, (_m, parent, key) => omit(parent, key))),
      ...variant(all.filter((m) => m.kind === "element@response" && m.path.length === 0), ["element@response"], "decided-response-bodies-other", "answers another JSON body where the whole body is the project's", (mine) => rewriteResponses(mine, otherBody)),
      ...variant(all, ["element@header"], "decided-headers-omitted", "sends none of the response headers the project added", (mine) => async (request, forward) => {
        const reply = await forward(request);
        const found = operationOf(request);
        const names = found ? byOperation(mine, found.family, found.op.operationId).filter((m) => m.status === String(reply.status)).map((m) => m.name!.toLowerCase()) : [];
        return names.length === 0 ? reply : { ...reply, headers: Object.fromEntries(Object.entries(reply.headers).filter(([n]) => !names.includes(n))) };
      }),
    ],
  },
  {
    kinds: ["status@responses"],
    make: (all) => [
      ...variant(all, ["status@responses", "body@responses"], "other-statuses", "answers another status of the same class (201→200, 200→203 or 204 for a DELETE, 400→422, 401→403, 403→401, 404→410, 409→423, 422→400)", (mine) => rewriteResponses(mine.filter((m) => m.kind === "status@responses"), otherStatus(mine))),
      ...variant(all.filter((m) => m.status === "404"), ["status@responses"], "cross-tenant-403", "answers 403 instead of 404 for another account's records", crossTenant403),
    ],
  },
  { kinds: ["content-type@responses"], make: (all) => variant(all, ["content-type@responses"], "other-media-types", "answers another JSON media type", (mine) => rewriteResponses(mine, otherMediaType)) },
  { kinds: ["body@responses"], make: (all) => variant(all, ["body@responses"], "other-bodies", "answers another JSON body (an error keeps the document's code)", (mine) => rewriteResponses(mine, otherBody)) },
  {
    kinds: ["type@parameter", "pattern@response"],
    make: (all) => [
      ...variant(all.filter((m) => m.parameterIn === "path" || onIdMember(m)), ["type@parameter", "pattern@response"], "other-id-form", "gives its records ids of another form (re-encoded consistently in both directions)", otherIdForm, {
        // Every operation on those records: the ids are re-encoded in all of them.
        sites: (_, ms) => idFormOperations(ms).map((o) => ({ family: o.family, operation: o.operationId, side: "operation" })),
      }),
      ...variant(all.filter((m) => m.parameterIn === "query" && keywordOf(m.schema!, "type") === "integer"), ["type@parameter"], "query-integers-in-any-notation", "reads an integer of the query in any number notation (2e0, 2.0, 0x2), not only decimal digits (D28), and a query parameter given twice as its last value (D32)", queryIntegersInAnyNotation),
    ],
  },
  {
    kinds: ["minLength@parameter"],
    make: (all) => variant(all.filter((m) => m.parameterIn === "header"), ["minLength@parameter"], "header-lengths-in-bytes", "counts a header's length in bytes, not in characters (D45)", headerLengthsInBytes),
  },
  {
    kinds: ["behaviour:D09"],
    make: (all) =>
      variant(all, ["behaviour:D09"], "family-a-no-rate-limits", "applies no rate limits to family A (never a 429, no limit headers)", () => noLimitsOn("family-a"), {
        sites: () => [{ family: "family-a", operation: "*", side: "operation" }],
      }),
  },
  {
    kinds: ["behaviour:D13"],
    make: (all) =>
      variant(all.filter((m) => m.operationId !== "(document)"), ["behaviour:D13"], "other-path-prefix", `serves the operations whose prefix is decided under ${OTHER_PREFIX}`, otherPrefix, {
        adjustTarget: (target) => {
          target.familyB!.pathPrefix = { pix: OTHER_PREFIX, transactions: OTHER_PREFIX };
        },
        // The new prefix's paths are no operation's for the others.
        sites: (ofMarkings, ms) => [...ofMarkings, ...familiesOf(ms).map((family) => ({ family, operation: "(other paths)", side: "operation" as const }))],
      }),
  },
  {
    kinds: ["behaviour:D39"],
    make: (all) =>
      variant(
        all,
        ["behaviour:D39"],
        "other-unknown-and-unreadable-answers",
        `answers 404 in a plain JSON body for unknown paths and wrong methods, 422 in a plain JSON body to a body it cannot read or nested deeper than ${OWN_DEPTH} levels, reads a body as JSON whatever its Content-Type, sets no size limit and no bound on arrays or values, and reads a leap second in a date-time of the query as the second before it; its target declares no request timeout`,
        () => (request, forward, keys) => otherUnknownAnswers(request, (inner) => otherBodyReading(inner, (read) => leapSecondsShifted(read, forward, keys), keys), keys),
        {
          // A server on the usual request timeout (a minute) declares none: its 408 is not judged.
          adjustTarget: (target) => {
            delete target.familyA?.requestTimeoutMs;
            delete target.familyB?.requestTimeoutMs;
          },
          // Requests no operation of the contract can take (other variants never see them), and
          // the requests with a date-time in the query.
          sites: () => [...FAMILIES.flatMap((family) => ["(other paths)", "(unreadable bodies)"].map((operation) => ({ family, operation, side: "operation" as const }))), ...leapSecondSites()],
        },
      ),
  },
  {
    kinds: ["behaviour:D50"],
    make: (all) =>
      variant(all, ["behaviour:D50"], "undecodable-paths-read-literally", "reads a `%` that starts no escaped UTF-8 octet as itself (`/sdk/boleto/%zz` is the boleto `%zz`: an unknown one)", () => (request, forward) =>
        forward(pathDecodes(request.path) ? request : { ...request, path: request.path.replace(/%/g, "%25") }), {
        // Requests no operation of the contract can take as sent.
        sites: () => FAMILIES.map((family) => ({ family, operation: "(undecodable paths)", side: "operation" as const })),
      }),
  },
  {
    kinds: ["behaviour:D41"],
    make: (all) =>
      variant(all, ["behaviour:D41"], "scope-refused-401", "refuses a family B key that lacks a scope with 401", () => scopeRefusedWith401, {
        unobservable: "no operation of the contract requires a family B scope, so no run provokes the refusal (D41 itself says so)",
        sites: () => [{ family: "family-b", operation: "*", side: "response", status: "403", part: "*" }],
      }),
  },
  {
    kinds: WEBHOOK_KINDS,
    make: (all) =>
      variant(all.filter((m) => m.place === "webhook" || m.kind === "behaviour:D26"), WEBHOOK_KINDS, "other-webhooks", "sends its events in another JSON shape, once, without retries", () => otherWebhooks, {
        companion: otherWebhookRelay,
        // Besides the events: the requests that name a webhook URL, the replies that give it back.
        sites: (_, ms) => familiesOf(ms).map((family) => ({ family, operation: "*", side: "operation" })),
      }),
  },
  { kinds: ["behaviour:D36"], make: (all) => variant(all, ["behaviour:D36"], "idempotency-keys-per-account", "scopes idempotency keys per account: two API keys of one account share a key space", keysScopedPerAccount) },
  {
    kinds: ["behaviour:D46"],
    make: (all) =>
      variant(all, ["behaviour:D46"], "query-credentials-ignored", "serves a request with its key header and a credential also in the URL query, ignoring the query's", () => queryCredentialsIgnored, {
        // The request of any operation (those that carry a credential in their query).
        sites: () => FAMILIES.map((family) => ({ family, operation: "*", side: "request" as const })),
      }),
  },
  {
    kinds: ["behaviour:D48"],
    make: (all) =>
      variant(all, ["behaviour:D48"], "private-webhook-targets-called", "calls webhook targets on loopback and private addresses and `localhost` (no guard against server-side request forgery), and its target file does not say so", () => (request, forward) => forward(request), {
        // The sandbox behind calls private targets (the self-test starts it so); the target
        // does not declare it, as a server without D48's guard would not.
        adjustTarget: (target) => {
          if (target.familyA) delete target.familyA.privateWebhookTargets;
        },
        // It changes no exchange: only what its target file says.
        sites: () => [],
      }),
  },
  {
    kinds: ["behaviour:D38"],
    make: (all) =>
      variant(all.filter((m) => m.family === "family-a"), ["behaviour:D38"], "live-keys-refused-403", "refuses live keys with 403 instead of 401", () => liveKeysRefusedWith403, {
        sites: () => [{ family: "family-a", operation: "*", side: "response", status: "401", part: "*" }],
      }),
  },
];

/** Every variant the contract's markings call for. */
export function legalVariants(markings: Marking[] = ALL_MARKINGS): LegalVariant[] {
  const variants = GENERATORS.flatMap((g) => g.make(markings));
  const names = variants.map((v) => v.name);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length > 0) throw new Error(`legal variants named twice: ${twice.join(", ")}`);
  return variants;
}

/** Kinds of marking the contract has that no generator makes a variant for. */
export function kindsWithoutGenerator(markings: Marking[] = ALL_MARKINGS): string[] {
  const covered = new Set(GENERATORS.flatMap((g) => g.kinds));
  return [...new Set(markings.map((m) => m.kind))].filter((k) => !covered.has(k)).sort();
}

export async function startLegalVariant(upstream: string, v: LegalVariant, keys: DerivedKeys): Promise<{ url: string; close(): Promise<void> }> {
  const companion = v.companion ? await v.companion() : undefined;
  const proxy = await startProxy(upstream, (request, forward) => v.handle(request, forward, keys, companion?.url));
  return {
    url: proxy.url,
    close: async () => {
      await proxy.close();
      await companion?.close();
    },
  };
}
