/**
 * Bodies a server cannot read as the operation's JSON, for every operation that takes a body
 * (negative data sends them with its one-constraint variants, and judges them the same way:
 * refused, nothing created, nothing changed):
 * - `not-json`: the operation's valid body cut short, sent as `application/json`;
 * - `empty`: no body at all, where the body's schema requires members;
 * - `not-sent-as-json` (D39): the valid body, as `text/plain`;
 * - `sent-as-another-json-type` (D39): the valid body, as `application/merge-patch+json` (a JSON
 *   type, but not application/json);
 * - `sent-without-content-type` (D39): the valid body with no Content-Type at all (not sent as
 *   application/json either: a server must not take the body for JSON, nor fail on the missing header);
 * - `over-size-limit` (D39): the valid body padded with whitespace past D39's 1 MiB;
 * - `too-deep`, `array-too-long`, `too-many-values` (D39): the valid body with one member its
 *   schema does not declare, holding a structure one past one of D39's bounds (nesting, items
 *   of one array, values in all) and within the others, so that only the structure is wrong.
 *
 * "All bodies are JSON" is the document's word: under seed a server must refuse the first two
 * with a 4xx (any 4xx; a server that decided 422 is as faithful). Where the body itself is a
 * decision (the whole request of an operation the document leaves to the server), only full
 * sends them. The others, and the exact answer (the operation's documented 400, in its error
 * body), are D39's: only under full.
 *
 * Under full, bodies exactly at each bound must be read like any other (`at-depth-limit`,
 * `at-array-limit`, `at-value-limit`, `at-size-limit`): the valid body with the undeclared
 * member holding a structure at one bound, or padded in front to exactly 1 MiB; and the valid
 * body sent as `Application/JSON ; charset=utf-8` (`json-type-written-otherwise`), which is
 * application/json as HTTP lets it be written (media types compare without case, RFC 9110). They are sent where a
 * valid body must be accepted (positive data's operations: creations and updates), after the
 * refusals, and must be accepted: one that is not is compared with the same body without the
 * structure, so that a refusal for another reason is told apart from one for the structure.
 */
import type { ContractOperation } from "@payment-collection/contract/model/index.ts";
import { checksFor } from "@payment-collection/contract/statements.ts";
import { isPositiveDataOperation } from "./positive-data.ts";
import { keywordOf, objectView, requestSchema } from "./request-schema.ts";
import { isObject, type DerivedEnv, type Json, type PlannedRequest } from "./shared.ts";

/** D39's body size limit: a body past it is refused with the operation's 400. */
export const BODY_SIZE_LIMIT = 1024 * 1024;

/**
 * D39's bounds of a body's structure (revisited in issue #35): nesting levels (the body's own
 * object is the first), items of any one array, and values in all, counted as `structureOf`
 * counts them. A body past one is refused with the operation's 400; a body at all of them is read.
 */
export const STRUCTURE_BOUNDS = { depth: 64, arrayItems: 1_000, values: 10_000 } as const;

export interface Structure {
  /** Nesting levels: 1 for an object or array of scalars, 0 for a scalar. */
  depth: number;
  /** Items of the longest array (members of objects do not count here). */
  longestArray: number;
  /** One, plus one per member or item after the first of its object or array (the commas between them). */
  values: number;
}

/** The structure of a JSON value as D39 counts it. */
export function structureOf(value: unknown): Structure {
  const walk = (node: unknown): Structure => {
    const entries = Array.isArray(node) ? node : isObject(node) ? Object.values(node) : undefined;
    if (!entries) return { depth: 0, longestArray: 0, values: 0 };
    const inner = entries.map(walk);
    return {
      depth: 1 + Math.max(0, ...inner.map((s) => s.depth)),
      longestArray: Math.max(Array.isArray(node) ? node.length : 0, ...inner.map((s) => s.longestArray)),
      values: Math.max(0, entries.length - 1) + inner.reduce((sum, s) => sum + s.values, 0),
    };
  };
  const { depth, longestArray, values } = walk(value);
  return { depth, longestArray, values: values + 1 };
}

/**
 * Strings a server must not read as structure: an escaped quote, then brackets (`"[{"`) or a
 * comma (`","`). Read as structure, they add levels or values that take a body at a bound past it.
 */
const BRACKETS_IN_A_STRING = '"[{"';
const COMMA_IN_A_STRING = '","';

/** `levels` arrays, one inside the other, around `inner`. */
const nested = (levels: number, inner: unknown): unknown => (levels === 0 ? inner : [nested(levels - 1, inner)]);

/** `count` scalars (the first given) in arrays of at most D39's items: `count - 1` values beyond the first, whatever the arrays. */
function scalars(count: number, first: unknown): unknown[][] {
  const items = [first, ...Array.from({ length: count - 1 }, () => 0)];
  const chunks: unknown[][] = [];
  for (let i = 0; i < items.length; i += STRUCTURE_BOUNDS.arrayItems) chunks.push(items.slice(i, i + STRUCTURE_BOUNDS.arrayItems));
  return chunks;
}

/** A member name the body's schema does not declare (open schemas ignore it). */
function undeclaredMember(op: ContractOperation): string {
  const declared = objectView(op.requestBody?.schema)?.properties ?? {};
  let name = "undeclaredStructure";
  while (name in declared) name = `_${name}`;
  return name;
}

/** A body one past one structure bound and within the others, or exactly at one bound. */
type StructureShape = "too-deep" | "at-depth-limit" | "array-too-long" | "at-array-limit" | "too-many-values" | "at-value-limit";

/**
 * The value of the undeclared member (at the second level) that gives the body the shape;
 * `baseValues` is the body's values with the member holding an empty array.
 */
function structureValue(shape: StructureShape, baseValues: number): unknown {
  const { depth, arrayItems, values } = STRUCTURE_BOUNDS;
  switch (shape) {
    // The member's array is the second level, so `depth` more arrays make `depth + 1`.
    case "too-deep":
      return nested(depth, 0);
    // A string that looks like brackets, an empty array and an empty object (levels closed
    // again), then the deepest array at exactly `depth`: a server that reads the string as
    // structure, or does not close a level, counts past it.
    case "at-depth-limit":
      return [BRACKETS_IN_A_STRING, [], {}, nested(depth - 2, 0)];
    // One array too long, at the deepest level allowed.
    case "array-too-long":
      return nested(depth - 2, Array.from({ length: arrayItems + 1 }, () => 0));
    // An array of exactly `arrayItems` (one a string holding a comma), beside an object of
    // more members than that: the items bound is an array's, not an object's.
    case "at-array-limit":
      return {
        items: [COMMA_IN_A_STRING, ...Array.from({ length: arrayItems - 1 }, () => 0)],
        members: Object.fromEntries(Array.from({ length: arrayItems + 1 }, (_, i) => [`m${i}`, 0])),
      };
    // Scalars in arrays of at most `arrayItems`, as many as make the body's values one past
    // the bound, or exactly at it (one of them a string holding a comma).
    case "too-many-values":
      return scalars(values + 2 - baseValues, 0);
    case "at-value-limit":
      return scalars(values + 1 - baseValues, COMMA_IN_A_STRING);
  }
}

/** What each shape's body is (past or at its bound, within every other): structureBody checks it. */
const SHAPE_STRUCTURE: Record<StructureShape, (s: Structure) => boolean> = {
  "too-deep": (s) => s.depth === STRUCTURE_BOUNDS.depth + 1 && s.longestArray <= STRUCTURE_BOUNDS.arrayItems && s.values <= STRUCTURE_BOUNDS.values,
  "at-depth-limit": (s) => s.depth === STRUCTURE_BOUNDS.depth && s.longestArray <= STRUCTURE_BOUNDS.arrayItems && s.values <= STRUCTURE_BOUNDS.values,
  "array-too-long": (s) => s.depth === STRUCTURE_BOUNDS.depth && s.longestArray === STRUCTURE_BOUNDS.arrayItems + 1 && s.values <= STRUCTURE_BOUNDS.values,
  "at-array-limit": (s) => s.depth <= STRUCTURE_BOUNDS.depth && s.longestArray === STRUCTURE_BOUNDS.arrayItems && s.values <= STRUCTURE_BOUNDS.values,
  "too-many-values": (s) => s.depth <= STRUCTURE_BOUNDS.depth && s.longestArray <= STRUCTURE_BOUNDS.arrayItems && s.values === STRUCTURE_BOUNDS.values + 1,
  "at-value-limit": (s) => s.depth <= STRUCTURE_BOUNDS.depth && s.longestArray <= STRUCTURE_BOUNDS.arrayItems && s.values === STRUCTURE_BOUNDS.values,
};

/** The valid body with an undeclared member holding the shape's structure. */
export function structureBody(op: ContractOperation, shape: StructureShape, valid: Json): Json {
  const member = undeclaredMember(op);
  // The body's values with the member holding an empty array: the scalars add to these.
  const baseValues = structureOf({ ...valid, [member]: [] }).values;
  const body = { ...valid, [member]: structureValue(shape, baseValues) };
  const structure = structureOf(body);
  if (!SHAPE_STRUCTURE[shape](structure)) throw new Error(`the ${shape} body of ${op.operationId} came out with ${JSON.stringify(structure)}`);
  return body;
}

/** The valid body with the undeclared member holding a scalar: the structure bodies without their structure. */
const withoutStructure = (op: ContractOperation, valid: Json): Json => ({ ...valid, [undeclaredMember(op)]: 0 });

export interface UnreadableVariant {
  name: string;
  /** The body in words, for the result's title (default: the name). */
  what?: string;
  /** The request as sent: the valid request with its body (and Content-Type) replaced. */
  request(valid: PlannedRequest, body: Json): PlannedRequest;
  /** Statement ids the variant enforces beyond the class's own. */
  statements: string[];
  /** The answer must be the operation's documented 400 (D39), not only some 4xx. */
  exact: boolean;
}

/**
 * A body exactly at one of D39's bounds: it must be read like any other. `control` is the same
 * body without what puts it at the bound, to tell a refusal for another reason apart.
 */
export interface WithinBoundsVariant {
  name: string;
  what: string;
  /** What a refusal of it would be for, in words (default: its size or structure). */
  refusedFor?: string;
  request(valid: PlannedRequest, body: Json): PlannedRequest;
  control(valid: PlannedRequest, body: Json): PlannedRequest;
}

/** Catalogue statements of the family whose encodings match (the catalogue names which statement is which). */
function statementsWhere(env: DerivedEnv, matches: (encoding: Record<string, unknown>) => boolean): string[] {
  if (!env.catalogue) return [];
  return env.catalogue.statements.filter((s) => checksFor(s, env.family).some((encoding) => matches(encoding as unknown as Record<string, unknown>))).map((s) => s.id);
}

/** The statements that every body is JSON (`content-types` encodings). */
const jsonBodyStatements = (env: DerivedEnv) => statementsWhere(env, (e) => e.check === "content-types");

/** The statements that the operation's request body is sent as application/json (`request-body` encodings naming it). */
function contentTypeStatements(env: DerivedEnv, op: ContractOperation): string[] {
  return statementsWhere(env, (e) => {
    if (e.check !== "request-body") return false;
    const methods = Array.isArray(e.methods) ? e.methods.map(String) : undefined;
    return e.operation === op.operationId || (e.operation === "*" && (!methods || methods.includes(op.method.toLowerCase())));
  });
}

/** Whether the profile's view of the body refuses an empty object (members required, or a minimum count). */
export function refusesEmptyObject(schema: Json | undefined): boolean {
  const minProperties = schema ? keywordOf(schema, "minProperties") : undefined;
  return (objectView(schema)?.required.length ?? 0) > 0 || (typeof minProperties === "number" && minProperties > 0);
}

const withBody = (valid: PlannedRequest, body: string, contentType?: string): PlannedRequest => {
  const headers = Object.fromEntries(Object.entries(valid.headers).filter(([name]) => name.toLowerCase() !== "content-type"));
  return { ...valid, headers: contentType ? { ...headers, "content-type": contentType } : headers, body };
};

/** The valid body as JSON text padded with whitespace to `bytes`, after it or before it. */
const padded = (body: Json, bytes: number, where: "after" | "before" = "after"): string => {
  const text = JSON.stringify(body);
  const padding = " ".repeat(bytes - Buffer.byteLength(text));
  return where === "after" ? text + padding : padding + text;
};

const { depth, arrayItems, values } = STRUCTURE_BOUNDS;
const count = (n: number) => n.toLocaleString("en-US");

/** A JSON media type other than application/json: D39 refuses a body sent as it. */
export const ANOTHER_JSON_TYPE = "application/merge-patch+json";
/** application/json in other case, with whitespace before a parameter: the same media type. */
export const JSON_TYPE_WRITTEN_OTHERWISE = "Application/JSON ; charset=utf-8";
const quotedType = (type: string) => `"${type}"`;

/** The bodies one past a structure bound, each in words. */
const PAST_BOUNDS: Array<[StructureShape, string]> = [
  ["too-deep", `nested ${depth + 1} levels deep`],
  ["array-too-long", `with an array of ${count(arrayItems + 1)} items`],
  ["too-many-values", `of ${count(values + 1)} values`],
];

/** The bodies at each bound, each in words. */
const AT_BOUNDS: Array<[StructureShape, string]> = [
  ["at-depth-limit", `nested ${depth} levels deep`],
  ["at-array-limit", `with an array of ${count(arrayItems)} items and an object of ${count(arrayItems + 1)} members`],
  ["at-value-limit", `of ${count(values)} values`],
];

/** The unreadable bodies the run's profile holds the operation to (none when it has no body). */
export function unreadableVariants(env: DerivedEnv, op: ContractOperation): UnreadableVariant[] {
  if (!op.requestBody) return [];
  const decided = env.ctx.asserts({ kind: "behaviour", node: env.ctx.contract.document, about: "unreadable bodies" });
  if (!decided && !env.ctx.asserts({ kind: "schema", schema: op.requestBody.schema })) return [];
  const json = jsonBodyStatements(env);
  const variants: UnreadableVariant[] = [
    { name: "not-json", request: (valid, body) => withBody(valid, JSON.stringify(body).slice(0, -1), "application/json"), statements: json, exact: decided },
  ];
  if (op.requestBody.required && (decided || refusesEmptyObject(requestSchema(op, env.ctx.profile)))) {
    variants.push({ name: "empty", request: (valid) => withBody(valid, "", "application/json"), statements: json, exact: decided });
  }
  if (!decided) return variants;
  variants.push(
    { name: "not-sent-as-json", request: (valid, body) => withBody(valid, JSON.stringify(body), "text/plain"), statements: [...json, ...contentTypeStatements(env, op)], exact: true },
    // Another JSON media type is still not application/json (D39): a merge patch is no body of the contract.
    { name: "sent-as-another-json-type", what: "sent as application/merge-patch+json", request: (valid, body) => withBody(valid, JSON.stringify(body), ANOTHER_JSON_TYPE), statements: [...json, ...contentTypeStatements(env, op)], exact: true },
    { name: "sent-without-content-type", what: "sent without a Content-Type", request: (valid, body) => withBody(valid, JSON.stringify(body)), statements: [...json, ...contentTypeStatements(env, op)], exact: true },
    { name: "over-size-limit", request: (valid, body) => withBody(valid, padded(body, BODY_SIZE_LIMIT + 1), "application/json"), statements: [], exact: true },
    ...PAST_BOUNDS.map(([shape, what]): UnreadableVariant => ({
      name: shape,
      what,
      request: (valid, body) => withBody(valid, JSON.stringify(structureBody(op, shape, body)), "application/json"),
      statements: [],
      exact: true,
    })),
  );
  return variants;
}

/**
 * The bodies at D39's bounds the operation must read (full only; on the operations whose valid
 * bodies must be accepted, since each of these is a valid body).
 */
export function withinBoundsVariants(env: DerivedEnv, op: ContractOperation): WithinBoundsVariant[] {
  if (!op.requestBody || !isPositiveDataOperation(env.ctx.contract, op)) return [];
  if (!env.ctx.asserts({ kind: "behaviour", node: env.ctx.contract.document, about: "unreadable bodies" })) return [];
  const asJson = (valid: PlannedRequest, body: Json) => withBody(valid, JSON.stringify(body), "application/json");
  return [
    ...AT_BOUNDS.map(([shape, what]): WithinBoundsVariant => ({
      name: shape,
      what,
      request: (valid, body) => asJson(valid, structureBody(op, shape, body)),
      control: (valid, body) => asJson(valid, withoutStructure(op, body)),
    })),
    // application/json as HTTP lets it be written: media types compare without case, and
    // whitespace may stand before a parameter (RFC 9110 §8.3.1, §5.6.6).
    {
      name: "json-type-written-otherwise",
      what: `sent as ${quotedType(JSON_TYPE_WRITTEN_OTHERWISE)}`,
      refusedFor: "how its media type is written",
      request: (valid, body) => withBody(valid, JSON.stringify(body), JSON_TYPE_WRITTEN_OTHERWISE),
      control: (valid, body) => asJson(valid, body),
    },
    // The JSON last: a server that keeps one byte fewer than the limit loses it, not padding.
    {
      name: "at-size-limit",
      what: `of exactly ${count(BODY_SIZE_LIMIT)} bytes`,
      request: (valid, body) => withBody(valid, padded(body, BODY_SIZE_LIMIT, "before"), "application/json"),
      control: (valid, body) => asJson(valid, body),
    },
  ];
}

/**
 * A curl command line for an unreadable request: as `reproduce` gives it, but a body padded
 * with whitespace (to the size limit or past it) is written as its JSON and the padding's
 * length, in their order, piped in.
 */
export function reproduceUnreadable(env: DerivedEnv, request: PlannedRequest): string {
  const body = request.body ?? "";
  const json = body.trim();
  const before = body.length - body.trimStart().length;
  const after = body.length - body.trimEnd().length;
  if (before + after < 1024) return env.reproduce(request, "primary");
  const line = env.reproduce({ ...request, body: "@-" }, "primary").replace(`--data '@-'`, "--data-binary @-");
  const spaces = (n: number) => (n > 0 ? [`head -c ${n} /dev/zero | tr '\\0' ' ';`] : []);
  const parts = [...spaces(before), `printf '%s' '${json.replace(/'/g, `'\\''`)}';`, ...spaces(after)];
  return `{ ${parts.join(" ")} } | ${line}`;
}
