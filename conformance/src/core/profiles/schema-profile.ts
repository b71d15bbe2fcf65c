/**
 * Derives the schema a response is checked against under a conformance profile, from the
 * decision markings of the contract as document-word.ts reads them (never by hand):
 *
 * - `full` checks the contract as it is: the document's statements and the project's decisions.
 * - `seed` checks only what the interface description states. A faithful server that decided
 *   differently where the document is silent must pass, so every element the contract marks as
 *   a decision is dropped or relaxed:
 *   - `x-basis: decision` (the element exists because of a decision): a property is no longer
 *     required and may hold anything; a whole schema accepts any value;
 *   - `x-decided` keywords: `enum` relaxes to the base type; `pattern`, `format`, bounds,
 *     lengths, `items`, `type`, `default` are removed; a decided `nullable` or `required` means
 *     the document does not say how an absent value shows, so the property may be null or absent.
 *
 * In both profiles unknown members are allowed (`additionalProperties: false` is dropped):
 * the document says clients must ignore unknown fields.
 *
 * Input and output are OpenAPI 3.0 Schema Objects, dereferenced (the form of
 * `generated/openapi/3.0/<family>.dereferenced.json`); `toJsonSchema` turns the result into
 * draft-07. The input is never modified.
 */

import { asserted, decisionBehind, type Profile } from "./document-word.ts";

export { PROFILES, type Profile } from "./document-word.ts";

type Schema = Record<string, unknown>;

function isObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Keywords whose value is a list of subschemas that constrain the same instance. */
const COMBINATORS = ["allOf", "anyOf", "oneOf"] as const;

/** Keywords a node spells, itself or in the members of its combinators (a shared schema it reaches through `allOf`). */
function spelledKeywords(node: Schema): string[] {
  const members = COMBINATORS.flatMap((c) => (Array.isArray(node[c]) ? (node[c] as unknown[]).filter(isObject) : []));
  return [...Object.keys(node), ...members.flatMap(spelledKeywords)];
}

/**
 * Keywords a node may have decided: those it spells, and `required` and `nullable` (which speak
 * of the node's place in its parent and of how an absent value shows, spelled or not).
 */
function keywordsOf(node: Schema): string[] {
  return [...new Set([...spelledKeywords(node), "required", "nullable"])];
}

/** The keywords of a node the profile does not hold a server to. */
export function relaxedKeywords(node: Schema, profile: Profile): string[] {
  return keywordsOf(node).filter((keyword) => !asserted(profile, { kind: "keyword", schema: node, keyword }));
}

/** Whether the node exists only because of a decision (`x-basis: decision`). */
export function isDecisionElement(node: unknown): boolean {
  return decisionBehind({ kind: "schema", schema: node }) !== undefined;
}

/** JSON type of an enum's values, used when a decided enum relaxes to its base type. */
function baseTypeOf(values: unknown[]): string | undefined {
  const types = new Set(values.filter((v) => v !== null).map((v) => (Number.isInteger(v) ? "integer" : typeof v)));
  if (types.size !== 1) return undefined;
  const [only] = [...types];
  return only === "integer" || only === "number" || only === "string" || only === "boolean" ? only : undefined;
}

/**
 * Removes a keyword from a node and from the members of its combinators (a decided `pattern`
 * may sit in a shared schema the node reaches through `allOf`), but not from its properties or
 * items: those are other elements with markings of their own.
 */
function withoutKeyword(node: Schema, keyword: string): Schema {
  const out: Schema = { ...node };
  if (keyword === "enum" && Array.isArray(out.enum) && out.type === undefined) {
    const type = baseTypeOf(out.enum);
    if (type) out.type = type;
  }
  if (keyword === "minimum" || keyword === "maximum") delete out[`exclusive${keyword[0]!.toUpperCase()}${keyword.slice(1)}`];
  delete out[keyword];
  for (const combinator of COMBINATORS) {
    const members = out[combinator];
    if (Array.isArray(members)) out[combinator] = members.map((m) => (isObject(m) ? withoutKeyword(m, keyword) : m));
  }
  return out;
}

/** The formats a decision picks among the forms of an ISO 8601 date (date-time, or a calendar date). */
const ISO_8601_FORMATS = new Set(["date", "date-time"]);
/** An ISO 8601 date (calendar, ordinal or week; basic or extended), optionally with a time and offset. */
const ISO_8601 = "^\\d{4}-?(?:\\d{2}-?\\d{2}|\\d{3}|W\\d{2}-?\\d)(?:T\\d{2}(?::?\\d{2}(?::?\\d{2}(?:[.,]\\d+)?)?)?(?:Z|[+-]\\d{2}(?::?\\d{2})?)?)?$";

interface Relaxed {
  schema: Schema;
  /** The parent object must no longer require this property. */
  optional: boolean;
}

function applyProfile(node: unknown, profile: Profile): Relaxed {
  if (!isObject(node)) return { schema: {}, optional: false };
  if (!asserted(profile, { kind: "schema", schema: node })) return { schema: {}, optional: true };

  let out: Schema = { ...node };
  let optional = false;
  for (const keyword of relaxedKeywords(node, profile)) {
    if (keyword === "nullable") {
      out.nullable = true;
      optional = true;
    } else if (keyword === "required") {
      optional = true;
    } else if (keyword === "format" && ISO_8601_FORMATS.has(String(out.format))) {
      // A decided calendar date or timestamp: the document says "ISO 8601" and the decision
      // only picks one form of it, so seed keeps any ISO 8601 date or date-time.
      out = { ...withoutKeyword(out, keyword), pattern: ISO_8601 };
    } else {
      out = withoutKeyword(out, keyword);
    }
  }

  if (isObject(out.properties)) {
    const required = new Set(Array.isArray(out.required) ? out.required.map(String) : []);
    const properties: Schema = {};
    for (const [name, sub] of Object.entries(out.properties)) {
      const relaxed = applyProfile(sub, profile);
      properties[name] = relaxed.schema;
      if (relaxed.optional) required.delete(name);
    }
    out.properties = properties;
    if (Array.isArray(out.required)) out.required = [...required];
  }
  if (out.additionalProperties === false) delete out.additionalProperties;
  else if (isObject(out.additionalProperties)) out.additionalProperties = applyProfile(out.additionalProperties, profile).schema;
  if (isObject(out.items)) out.items = applyProfile(out.items, profile).schema;
  for (const combinator of COMBINATORS) {
    const members = out[combinator];
    if (Array.isArray(members)) out[combinator] = members.map((m) => applyProfile(m, profile).schema);
  }
  return { schema: out, optional };
}

/**
 * The schema a value is validated against under `profile`: the contract's schema (full) or
 * the contract's schema with every decision dropped or relaxed (seed).
 */
export function profileSchema(openapiSchema: unknown, profile: Profile): Schema {
  return applyProfile(openapiSchema, profile).schema;
}
