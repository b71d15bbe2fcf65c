/**
 * Provenance: every element of a family document is either the document's word or marked as a
 * project decision. "The document's word" is defined mechanically, and by LOCATION, from the
 * statement catalogue (spec/statements.yaml): an element is the document's only where a
 * catalogue check of that family (checks of a "both" statement included, `family:` narrowing
 * honoured) locates it in this document. A name that merely occurs in some quote is not
 * enough: "address (object)" in the update body's quote makes the update's `address` the
 * document's, not the members a contract gives it.
 *
 * - a PROPERTY `name` of a schema object is the document's when a `property` or `enum` check
 *   (or a `response` check with `errorCode`, along its `codePath`) reaches it at that object:
 *   every segment of the check's `path`, walked from the located body through `$ref`, `allOf`
 *   and null unions, locates the member in the objects that declare it; the names of
 *   `propertiesInclude`, `requiredInclude` and `requiredExactly` locate members of the object
 *   at the end of the path. `absent` checks locate nothing;
 * - a REQUIRED entry (`required: [name]`) is the document's when a check asserts it at that
 *   object: `required: true` on the property, or `requiredInclude` / `requiredExactly` naming
 *   it. In request bodies this is what tells "Required on create: yes" from a decision;
 * - an ENUM or CONST VALUE of a property is the document's when a check asserts it at that
 *   schema: `enum` checks, `const` / `enum` / `enumIncludes` assertions, `errorCode`;
 * - a CONSTRAINT KEYWORD (`type`, `format`, `pattern`, bounds, lengths, item and member
 *   counts) of a schema object, a parameter's or a header's schema is the document's when a
 *   check that locates that object asserts it: `type`, `format`, `pattern: true`,
 *   `minLength`, `maxLength`, `minProperties` the keyword of the same name, `rejects` (an
 *   instance the document refuses) every one. `type` on an object with members is implied by
 *   them; `format: int32`/`int64` is the emitter's spelling of an integer and goes with `type`;
 * - a PARAMETER is the document's on an operation when a `parameter` check locates it there
 *   (so `X-Idempotency-Key`, which the document recommends on `POST /pix`, is the document's
 *   there and a decision on `POST /transactions`); its `required: true` (other than a path
 *   parameter's, which OpenAPI imposes) when that check asserts `required: true`;
 * - a RESPONSE HEADER is the document's on an operation's response when a `response-header`
 *   check locates it there (names compare case-insensitively), its `required` likewise;
 * - a RESPONSE STATUS is the document's when a `response` check names that status literally
 *   for that operation (wildcards such as `error` or `4xx` name none).
 *
 * A named component is one object wherever it is used, so a check that locates a member
 * through one use makes it the document's in every use. Otherwise the element must carry a
 * marking: `x-basis: decision` on itself, on its schema or on an enclosing schema; `x-decided`
 * naming the keyword (`enum` or `const` for values, `required` for required entries, the
 * keyword itself for constraints, `items` for a whole item schema); for
 * parameters `x-decided-parameters`; for responses `x-decided-responses` with the `status`
 * aspect; inside a body written inline in a response, the response's `body` aspect. Every
 * schema under `components.schemas` is also checked on its own, so a marking at one use
 * (a response's `body`, a wrapper's `x-decided`) never hides an unmarked component.
 *
 * Exceptions (each with its reason) are in PROVENANCE_EXCEPTIONS.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { CONTRACT_ROOT } from "../model/layout.ts";
import { asList, isObject, operationsOf, parameterOf, type FamilyId, type Json } from "../model/index.ts";
import { decidedKeywordsOf, decisionOf, type DecidedKeywords } from "../model/markings.ts";
import type { EncodingCheck, EnumCheck, OpenApiDocument, ParameterCheck, PropertyCheck, ProvenanceCheck, ResponseCheck, ResponseHeaderCheck, SchemaAssertions } from "./check-types.ts";
import { contentRoots, locateRoots, selectOperations, selectResponses } from "./locate.ts";
import { admittedAt, sameValue, viewOf, type SchemaView } from "./schema-view.ts";

/** Elements that no catalogue check locates and that carry no marking, on purpose. */
export const PROVENANCE_EXCEPTIONS: Array<{ element: RegExp; reason: string }> = [
  {
    element: /^getMerchant response 200$/,
    reason: "a GET that the document gives a response for (\"a merchant object\") answers 200 OK: RFC 9110 §15.3.1 fixes it, no choice is made",
  },
  {
    element: /^\w+ parameter path \w+ type "string"$/,
    reason: "a path parameter is a segment of the URL, which is text: `type: string` admits every segment and constrains nothing (a narrower type would be a decision, D30)",
  },
];

interface Statementish {
  family: string;
  quote: string;
  encoding: EncodingCheck[] | "none";
}

let cachedStatements: Statementish[] | undefined;
function statements(): Statementish[] {
  cachedStatements ??= (parse(readFileSync(join(CONTRACT_ROOT, "spec/statements.yaml"), "utf8")) as Statementish[]).filter(
    (s) => isObject(s) && typeof s.quote === "string",
  );
  return cachedStatements;
}

function appliesTo(statement: Statementish, family: FamilyId): boolean {
  return statement.family === "both" || (statement.family === "A" ? "family-a" : "family-b") === family;
}

/**
 * What the catalogue checks of a family locate in a document, keyed by the schema objects
 * they reach (a named component is one object wherever it is used):
 * - `properties`: object → member names a check locates there (every segment of a check's
 *   `path`, and the names of `propertiesInclude`, `requiredInclude`, `requiredExactly`);
 * - `required`: object → member names whose requiredness a check asserts there;
 * - `keywords`: schema object → constraint keywords a check asserts there (`type`, `format`,
 *   `pattern`, `minLength`, `maxLength`, `minProperties`; `rejects` asserts all of them);
 * - `values`: schema object → values (JSON) a check asserts admitted there (`enum` checks,
 *   `const` / `enum` / `enumIncludes` assertions, `response` checks with `errorCode`);
 * - `parameters`: `operationId in name` of parameters a `parameter` check locates (so
 *   `X-Idempotency-Key`, which the document recommends on `POST /pix`, is the document's there
 *   and a decision on `POST /transactions`), `requiredParameters` those it asserts required;
 * - `headers`: `operationId status name` of response headers a `response-header` check
 *   locates, `requiredHeaders` those it asserts required;
 * - `statuses`: `operationId status` of responses a `response` check names by literal status.
 * Header and parameter names compare case-insensitively (HTTP).
 */
interface Located {
  properties: Map<object, Set<string>>;
  keywords: Map<object, Set<string>>;
  required: Map<object, Set<string>>;
  values: Map<object, Set<string>>;
  parameters: Set<string>;
  requiredParameters: Set<string>;
  headers: Set<string>;
  requiredHeaders: Set<string>;
  statuses: Set<string>;
}

function addTo(map: Map<object, Set<string>>, key: object, name: string): void {
  if (!map.has(key)) map.set(key, new Set());
  map.get(key)!.add(name);
}

function has(map: Map<object, Set<string>>, key: unknown, name: string): boolean {
  return isObject(key) && (map.get(key)?.has(name) ?? false);
}

function hasMember(part: Json, name: string): boolean {
  return isObject(part.properties) && name in part.properties;
}

/**
 * Walks a check's `path` from a root, locating every segment in the objects that declare it.
 * Returns the view at the end of the path and the object holding its last segment.
 */
function locatePath(doc: OpenApiDocument, root: unknown, path: string | undefined, located: Located): { view?: SchemaView; parent?: SchemaView; name?: string } {
  let view = viewOf(doc, root);
  let parent: SchemaView | undefined;
  let name: string | undefined;
  for (const raw of (path ?? "").split(".").filter((s) => s.length > 0)) {
    const key = raw.replace(/\[\]/g, "");
    if (key.length > 0) {
      const schemas = view.properties.get(key);
      if (!schemas) return {};
      for (const part of view.parts) if (hasMember(part, key)) addTo(located.properties, part, key);
      parent = view;
      name = key;
      view = viewOf(doc, { allOf: schemas });
    }
    for (let i = 0; i < (raw.match(/\[\]/g) ?? []).length; i += 1) {
      if (view.items.length === 0) return {};
      parent = undefined;
      name = undefined;
      view = viewOf(doc, { allOf: view.items });
    }
  }
  return { view, parent, name };
}

function locateValues(view: SchemaView, values: unknown[], located: Located): void {
  for (const value of values) {
    for (const part of view.parts) {
      const admitted = [...asList(part.enum as unknown[]), ...("const" in part ? [part.const] : [])];
      if (admitted.some((v) => sameValue(v, value))) addTo(located.values, part, JSON.stringify(value));
    }
  }
}

/**
 * Constraint keywords of a schema: what a value must satisfy beyond its members, required
 * entries and enum values (those are elements of their own). `type` on an object that
 * declares members is implied by them and not counted.
 */
const CONSTRAINT_KEYWORDS = [
  "type",
  "format",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
] as const;

/** The assertions of a check that pin a keyword (`rejects` pins every constraint). */
const ASSERTED_BY: Record<string, (check: SchemaAssertions) => boolean> = {
  type: (c) => c.type !== undefined,
  format: (c) => c.format !== undefined,
  pattern: (c) => c.pattern === true,
  minLength: (c) => c.minLength !== undefined,
  maxLength: (c) => c.maxLength !== undefined,
  minProperties: (c) => c.minProperties !== undefined,
};

function locateKeywords(parts: Json[], check: SchemaAssertions, located: Located): void {
  const all = asList(check.rejects).length > 0;
  for (const keyword of CONSTRAINT_KEYWORDS) {
    if (!all && !(ASSERTED_BY[keyword]?.(check) ?? false)) continue;
    for (const part of parts) if (keyword in part) addTo(located.keywords, part, keyword);
  }
}

function locateSchemaCheck(doc: OpenApiDocument, check: PropertyCheck | EnumCheck, located: Located): void {
  if (check.check === "property" && check.absent === true) return;
  for (const root of locateRoots(doc, check).roots) {
    const { view, parent, name } = locatePath(doc, root.schema, check.path, located);
    if (!view) continue;
    if (check.check === "enum") {
      locateValues(view, check.values, located);
      continue;
    }
    locateKeywords(view.parts, check, located);
    const named = [...asList(check.propertiesInclude), ...asList(check.requiredInclude), ...asList(check.requiredExactly)];
    for (const member of named) for (const part of view.parts) if (hasMember(part, member)) addTo(located.properties, part, member);
    for (const member of [...asList(check.requiredInclude), ...asList(check.requiredExactly)]) {
      for (const part of view.parts) if (asList(part.required as string[]).includes(member)) addTo(located.required, part, member);
    }
    if (check.required === true && parent && name) {
      for (const part of parent.parts) if (asList(part.required as string[]).includes(name)) addTo(located.required, part, name);
    }
    const values = [...("const" in check ? [check.const] : []), ...asList(check.enum), ...asList(check.enumIncludes)];
    locateValues(view, values, located);
  }
}

function locateResponseCheck(doc: OpenApiDocument, check: ResponseCheck, located: Located): void {
  for (const op of selectOperations(doc, check.operation, check.methods).ops) {
    for (const r of selectResponses(op, check.status).responses) {
      if (check.status !== undefined && asList(check.status).some((s) => String(s) === r.status)) located.statuses.add(`${op.operationId} ${r.status}`);
      if (check.errorCode === undefined) continue;
      // Only the bodies that admit the code: the check says nothing of the others.
      for (const root of contentRoots(doc, r.response.content, check.contentType, "")) {
        if (!admittedAt(doc, root.schema, check.codePath ?? "code").some((v) => sameValue(v, check.errorCode))) continue;
        const { view } = locatePath(doc, root.schema, check.codePath ?? "code", located);
        if (view) locateValues(view, [check.errorCode], located);
      }
    }
  }
}

function locateHeaderCheck(doc: OpenApiDocument, check: ResponseHeaderCheck, located: Located): void {
  for (const op of selectOperations(doc, check.operation, check.methods).ops) {
    for (const r of selectResponses(op, check.status).responses) {
      const key = `${op.operationId} ${r.status} ${check.name.toLowerCase()}`;
      located.headers.add(key);
      if (check.required === true) located.requiredHeaders.add(key);
      const header = op.responses.find((e) => e.status === r.status)?.headers.find((h) => h.name.toLowerCase() === check.name.toLowerCase());
      if (header) locateKeywords(viewOf(doc, header.schema).parts, check, located);
    }
  }
}

function locateParameterCheck(doc: OpenApiDocument, check: ParameterCheck, located: Located): void {
  if (check.absent === true) return;
  for (const op of selectOperations(doc, check.operation, check.methods).ops) {
    const key = `${op.operationId} ${check.in} ${check.name.toLowerCase()}`;
    located.parameters.add(key);
    if (check.required === true) located.requiredParameters.add(key);
    const parameter = parameterOf(op, check.name, check.in);
    if (parameter) locateKeywords(viewOf(doc, parameter.schema).parts, check, located);
  }
}

/** Everything the catalogue checks of a family locate in a document. */
function locatedByDocument(doc: OpenApiDocument, family: FamilyId): Located {
  const located: Located = {
    properties: new Map(),
    keywords: new Map(),
    required: new Map(),
    values: new Map(),
    parameters: new Set(),
    requiredParameters: new Set(),
    headers: new Set(),
    requiredHeaders: new Set(),
    statuses: new Set(),
  };
  for (const statement of statements()) {
    if (!appliesTo(statement, family) || statement.encoding === "none") continue;
    for (const check of statement.encoding) {
      if (check.family !== undefined && check.family !== family) continue;
      if (check.check === "property" || check.check === "enum") locateSchemaCheck(doc, check, located);
      else if (check.check === "response") locateResponseCheck(doc, check, located);
      else if (check.check === "response-header") locateHeaderCheck(doc, check, located);
      else if (check.check === "parameter") locateParameterCheck(doc, check, located);
    }
  }
  return located;
}

interface Context {
  doc: OpenApiDocument;
  located: Located;
  problems: string[];
  exceptions: ReadonlyArray<{ element: RegExp }>;
}

function report(ctx: Context, element: string): void {
  if (!ctx.exceptions.some((e) => e.element.test(element))) ctx.problems.push(`${element}: neither the document's word nor marked as a decision`);
}

/** The keywords `x-decided` lists on any schema object of a view (or on the property node). */
function decidedKeywordsAt(node: unknown, view: SchemaView): Set<string> {
  return new Set([node, ...view.parts].flatMap((part) => decidedKeywordsOf(part)).flatMap((d) => d.keywords));
}

/**
 * Walks a schema. `marked`: an enclosing element is a decision (or the response body is), so
 * everything inside is. A `$ref` to a component is not followed: every component is walked on
 * its own (unmarked).
 */
function walkSchema(ctx: Context, node: unknown, where: string, marked: boolean, decidedAbove: ReadonlySet<string> = new Set(), depth = 0): void {
  if (!isObject(node) || depth > 40) return;
  if (typeof node.$ref === "string") return;
  const here = marked || decisionOf(node) !== undefined;
  // Keywords a marking on this node, or on the node it is a combinator member of, decides.
  const decided = new Set([...decidedAbove, ...decidedKeywordsOf(node).flatMap((d) => d.keywords)]);
  if (!here) checkKeywords(ctx, node, where, decided);
  if (isObject(node.properties)) {
    const required = asList(node.required as string[]);
    for (const [name, sub] of Object.entries(node.properties)) {
      const view = viewOf(ctx.doc, sub);
      const propertyMarked = here || [sub, ...view.parts].some((part) => decisionOf(part) !== undefined);
      const keywords = decidedKeywordsAt(sub, view);
      if (!propertyMarked && !has(ctx.located.properties, node, name)) report(ctx, `${where}.${name}`);
      if (required.includes(name) && !propertyMarked && !keywords.has("required") && !has(ctx.located.required, node, name)) {
        report(ctx, `${where}.${name} (required)`);
      }
      if (!propertyMarked && !keywords.has("enum") && !keywords.has("const")) {
        for (const value of view.enumValues ?? []) {
          const key = JSON.stringify(value);
          if (!view.parts.some((part) => has(ctx.located.values, part, key))) report(ctx, `${where}.${name} value ${String(value)}`);
        }
      }
      walkSchema(ctx, sub, `${where}.${name}`, propertyMarked, new Set(), depth + 1);
    }
  }
  // A decided `items` decides the whole item schema.
  if (isObject(node.items)) walkSchema(ctx, node.items, `${where}[]`, here || decided.has("items"), new Set(), depth + 1);
  for (const key of ["additionalProperties", "not"]) if (isObject(node[key])) walkSchema(ctx, node[key], `${where}[]`, here, new Set(), depth + 1);
  for (const key of ["allOf", "anyOf", "oneOf"]) for (const sub of asList(node[key] as unknown[])) walkSchema(ctx, sub, where, here, decided, depth + 1);
}

/** Integer widths: the emitter's spelling of an integer type, located with the type. */
const INTEGER_WIDTHS = new Set(["int32", "int64"]);

/**
 * Reports the constraint keywords of one schema object that no check asserts there and no
 * `x-decided` names (`exclusiveMinimum` and `exclusiveMaximum` go with `minimum`/`maximum`).
 */
function checkKeywords(ctx: Context, node: Json, where: string, decided: ReadonlySet<string>): void {
  const asserted = ctx.located.keywords.get(node) ?? new Set<string>();
  for (const keyword of CONSTRAINT_KEYWORDS) {
    if (!(keyword in node)) continue;
    if (keyword === "type" && (isObject(node.properties) || asList(node.type as string[]).every((t) => t === "null"))) continue;
    const spelledAs = keyword === "format" && INTEGER_WIDTHS.has(String(node.format)) ? "type" : keyword.replace(/^exclusiveM(in|ax)imum$/, (_m, end: string) => `m${end}imum`);
    if (asserted.has(keyword) || asserted.has(spelledAs) || decided.has(keyword) || decided.has(spelledAs)) continue;
    report(ctx, `${where} ${keyword} ${JSON.stringify(node[keyword])}`);
  }
}

/** Keywords of a parameter's or header's schema, with the element's own markings. */
function checkElementSchema(ctx: Context, schema: unknown, where: string, decided: DecidedKeywords[]): void {
  const keywords = new Set(decided.flatMap((d) => d.keywords));
  walkSchema(ctx, schema, where, false, keywords);
}

/**
 * The elements of `doc` that are neither the document's word nor marked. `exceptions`
 * defaults to PROVENANCE_EXCEPTIONS (none: what the exceptions excuse is reported too).
 */
export function checkProvenance(doc: OpenApiDocument, c: ProvenanceCheck, exceptions: ReadonlyArray<{ element: RegExp }> = PROVENANCE_EXCEPTIONS): string[] {
  if (c.family === undefined) return ["the provenance check needs `family`"];
  const ctx: Context = { doc, located: locatedByDocument(doc, c.family), problems: [], exceptions };
  for (const op of operationsOf(doc)) {
    const opMarked = decisionOf(op.operation) !== undefined;
    for (const parameter of op.parameters) {
      const key = `${op.operationId} ${parameter.in} ${parameter.name.toLowerCase()}`;
      const marked = opMarked || parameter.decision !== undefined || decisionOf(parameter.schema) !== undefined;
      if (!marked && !ctx.located.parameters.has(key)) report(ctx, `${op.operationId} parameter ${parameter.in} ${parameter.name}`);
      if (!marked) checkElementSchema(ctx, parameter.schema, `${op.operationId} parameter ${parameter.in} ${parameter.name}`, parameter.decided);
      // A path parameter is required by OpenAPI itself; any other is the document's when a check says so.
      const requiredDecided = parameter.decided.some((d) => d.keywords.includes("required"));
      if (parameter.required && parameter.in !== "path" && !marked && !requiredDecided && !ctx.located.requiredParameters.has(key)) {
        report(ctx, `${op.operationId} parameter ${parameter.in} ${parameter.name} (required)`);
      }
    }
    if (op.requestBody) walkSchema(ctx, op.requestBody.schema, `${op.operationId} request`, opMarked);
    for (const response of op.responses) {
      const decided = response.decided;
      const statusDecided = decided !== undefined && decided.aspects.includes("status");
      if (!opMarked && !statusDecided && !ctx.located.statuses.has(`${op.operationId} ${response.status}`)) report(ctx, `${op.operationId} response ${response.status}`);
      for (const header of response.headers) {
        const known = ctx.located.headers.has(`${op.operationId} ${response.status} ${header.name.toLowerCase()}`);
        const marked = opMarked || header.decision !== undefined || decisionOf(header.schema) !== undefined;
        if (!marked && !known) report(ctx, `${op.operationId} ${response.status} header ${header.name}`);
        if (!marked) checkElementSchema(ctx, header.schema, `${op.operationId} ${response.status} header ${header.name}`, decidedKeywordsOf(header.schema));
        const requiredKnown = ctx.located.requiredHeaders.has(`${op.operationId} ${response.status} ${header.name.toLowerCase()}`);
        const requiredDecided = decidedKeywordsOf(header.schema).some((d) => d.keywords.includes("required"));
        if (header.required && !marked && !requiredDecided && !requiredKnown) report(ctx, `${op.operationId} ${response.status} header ${header.name} (required)`);
      }
      const bodyDecided = decided !== undefined && decided.aspects.includes("body") && decided.codes === undefined;
      for (const media of response.content) walkSchema(ctx, media.schema, `${op.operationId} ${response.status}`, opMarked || bodyDecided);
    }
  }
  // Every named component on its own, without any use's marking.
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  for (const [name, schema] of Object.entries(schemas)) walkSchema(ctx, schema, `schema ${name}`, false);
  return [...new Set(ctx.problems)];
}
