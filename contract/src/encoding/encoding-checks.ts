/**
 * Evaluates the encoding checks of the statement catalogue (spec/statements.yaml) against a
 * generated OpenAPI document (3.0 or 3.1, the plain JSON with `$ref`s; the dereferenced
 * variant works too).
 *
 * One small function per check kind. Each returns the list of problems it found; an empty
 * list means the document encodes the checked element. Nothing here knows the contract's
 * schema names: checks locate elements by operation id, status, media type and property path,
 * and the functions only read keywords the OpenAPI and JSON Schema specifications define.
 *
 * Schema reading resolves `$ref`, merges `allOf` wrappers (the emitter wraps referenced
 * schemas in `allOf` to attach a description), and treats every way of admitting null the same:
 * 3.0 `nullable: true`, 3.1 `type: [.., "null"]`, an `anyOf`/`oneOf` branch `{type: "null"}`
 * and `null` in an `enum`.
 */
import { compileOpenApiSchema } from "../model/json-schema.ts";
import type { OpenApiVersionId } from "../model/layout.ts";

export type Json = Record<string, unknown>;
export type OpenApiDocument = Json;

// ---------------------------------------------------------------------------------------------
// Check shapes (mirrors the header comment of spec/statements.yaml)
// ---------------------------------------------------------------------------------------------

/** Where a schema is found: a named component, or the body of an operation's request/response. */
export interface SchemaLocator {
  /** Name of a schema under components.schemas. */
  schema?: string;
  /** operationId, or "*" for every operation of the document (narrowed by `methods`). */
  operation?: string;
  /** With operation "*": only operations with these HTTP methods (lower case). */
  methods?: string[];
  /** Response selector: "201", "2xx", "4xx", "error" (>= 400), "*", or a list of those. */
  status?: string | number | Array<string | number>;
  /** Locate the request body instead of a response body. */
  request?: boolean;
  /** Media type of the body; every JSON-ish media type of the body when omitted. */
  contentType?: string;
  /** Dotted property path from the body root; `[]` steps into array items; "" is the root. */
  path?: string;
}

/** Assertions about one schema node (a property, a parameter's schema, a header's schema). */
export interface SchemaAssertions {
  /** The element must not exist (e.g. "they carry no phoneNumber"). */
  absent?: boolean;
  /** Non-null JSON type, or a list of admissible alternatives. */
  type?: string | string[];
  nullable?: boolean;
  /** Required in its parent object (properties only). */
  required?: boolean;
  /** The only admitted non-null value (`const`, or a one-value `enum`). */
  const?: unknown;
  /** The admitted non-null values, exactly (order ignored). */
  enum?: unknown[];
  /** Values that must be among the admitted ones. */
  enumIncludes?: unknown[];
  format?: string | string[];
  maxLength?: number;
  minLength?: number;
  minProperties?: number;
  /** The node carries at least one `pattern`. */
  pattern?: boolean;
  propertiesInclude?: string[];
  propertiesExclude?: string[];
  requiredInclude?: string[];
  requiredExactly?: string[];
  requiredSubsetOf?: string[];
  /** Instances the schema must accept / reject (json-schema.ts: Ajv, draft by OpenAPI version). */
  accepts?: unknown[];
  rejects?: unknown[];
}

interface CheckBase {
  check: string;
  /** Restricts the check to one family's documents ("a" or "b"). */
  family?: "a" | "b";
}

export interface OperationCheck extends CheckBase {
  check: "operation";
  method: string;
  path: string;
  operationId?: string;
}
export interface ParameterCheck extends CheckBase, Omit<SchemaAssertions, "required"> {
  check: "parameter";
  operation: string;
  methods?: string[];
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
}
export interface RequestBodyCheck extends CheckBase {
  check: "request-body";
  operation: string;
  methods?: string[];
  contentType?: string;
  required?: boolean;
}
export interface PropertyCheck extends CheckBase, SchemaLocator, SchemaAssertions {
  check: "property";
}
export interface EnumCheck extends CheckBase, SchemaLocator {
  check: "enum";
  values: unknown[];
  /** true: exactly these values; false (default): these values among others. */
  exact?: boolean;
}
export interface ResponseCheck extends CheckBase {
  check: "response";
  operation: string;
  methods?: string[];
  /** Omitted: any response of the operation (useful with errorCode when the status is not given). */
  status?: string | number | Array<string | number>;
  contentType?: string;
  errorCode?: string;
  /** Where the error code sits in the body: `code`, `error.code`, `error.errorCode`. */
  codePath?: string;
}
export interface ResponseHeaderCheck extends CheckBase, Omit<SchemaAssertions, "required"> {
  check: "response-header";
  operation: string;
  methods?: string[];
  status: string | number | Array<string | number>;
  name: string;
  required?: boolean;
}
export interface SecuritySchemeCheck extends CheckBase {
  check: "security-scheme";
  type: string;
  in?: string;
  name?: string;
  /** The scheme is required by every operation (directly or through the document default). */
  everyOperation?: boolean;
}
export interface RequiredScopeCheck extends CheckBase {
  check: "required-scope";
  operation: string;
  scope: string;
}
export interface ServerCheck extends CheckBase {
  check: "server";
  /** A server with this URL template exists. */
  url?: string;
  /** Its template variables, all declared. */
  variables?: string[];
  descriptionIncludes?: string;
  /** The document declares exactly these server URLs. */
  urls?: string[];
}
export interface DescriptionCheck extends CheckBase, SchemaLocator {
  check: "description";
  target: "info" | "operation" | "security-scheme" | "server" | "schema" | "parameter" | "response";
  /** Security scheme: its header/query name. Parameter: its name. */
  name?: string;
  /** Server: its URL template. */
  url?: string;
  contains: string | string[];
}
export interface ContentTypesCheck extends CheckBase {
  check: "content-types";
  /** Regular expression every request and response media type must match. */
  matches: string;
}
export interface PropertyNamesCheck extends CheckBase {
  check: "property-names";
  /** Regular expression every property name of every request and response body must match. */
  matches: string;
}
export interface PathsCheck extends CheckBase {
  check: "paths";
  /** Regular expression every path of the document must match. */
  matches: string;
}
export interface OpenObjectsCheck extends CheckBase {
  check: "open-objects";
}

export type EncodingCheck =
  | OperationCheck
  | ParameterCheck
  | RequestBodyCheck
  | PropertyCheck
  | EnumCheck
  | ResponseCheck
  | ResponseHeaderCheck
  | SecuritySchemeCheck
  | RequiredScopeCheck
  | ServerCheck
  | DescriptionCheck
  | ContentTypesCheck
  | PropertyNamesCheck
  | PathsCheck
  | OpenObjectsCheck;

export type CheckKind = EncodingCheck["check"];

// ---------------------------------------------------------------------------------------------
// Document access
// ---------------------------------------------------------------------------------------------

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Follows a local `$ref` chain ("#/components/..."); returns the node itself when it has none. */
export function deref(doc: OpenApiDocument, node: unknown, seen: Set<string> = new Set()): unknown {
  if (!isObject(node) || typeof node.$ref !== "string") return node;
  const ref = node.$ref;
  if (!ref.startsWith("#/") || seen.has(ref)) return {};
  seen.add(ref);
  let target: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    target = isObject(target) || Array.isArray(target) ? (target as Json)[key] : undefined;
  }
  return deref(doc, target, seen);
}

interface OperationEntry {
  method: string;
  path: string;
  pathItem: Json;
  operation: Json;
  id: string;
}

function operations(doc: OpenApiDocument): OperationEntry[] {
  const out: OperationEntry[] = [];
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const pathItem = deref(doc, rawItem);
    if (!isObject(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      const id = typeof operation.operationId === "string" ? operation.operationId : `${method.toUpperCase()} ${path}`;
      out.push({ method, path, pathItem, operation, id });
    }
  }
  return out;
}

/** The operations a check names: one by operationId, or all ("*") narrowed by methods. */
function selectOperations(
  doc: OpenApiDocument,
  operation: string | undefined,
  methods: string[] | undefined,
): { ops: OperationEntry[]; problems: string[] } {
  const all = operations(doc);
  if (operation === undefined) return { ops: [], problems: ["the check names no operation"] };
  if (operation === "*") {
    const ops = methods ? all.filter((op) => methods.map((m) => m.toLowerCase()).includes(op.method)) : all;
    return ops.length > 0 ? { ops, problems: [] } : { ops, problems: [`no operation with method ${methods?.join("/")}`] };
  }
  const ops = all.filter((op) => op.id === operation);
  return ops.length > 0 ? { ops, problems: [] } : { ops, problems: [`operation ${operation} not found`] };
}

function statusMatches(selector: string, status: string): boolean {
  const s = selector.toLowerCase();
  if (s === "*") return true;
  if (s === "error") return /^[45]/.test(status);
  if (/^[1-5]xx$/.test(s)) return status.toLowerCase().startsWith(s[0]!);
  return s === status.toLowerCase();
}

function isWildcardStatus(selector: string): boolean {
  const s = selector.toLowerCase();
  return s === "*" || s === "error" || /^[1-5]xx$/.test(s);
}

function asList<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

interface ResponseEntry {
  op: OperationEntry;
  status: string;
  response: Json;
}

/**
 * The responses of one operation a status selector names. A literal status that the operation
 * lacks is a problem; wildcards may match nothing for one operation.
 */
function selectResponses(
  doc: OpenApiDocument,
  op: OperationEntry,
  status: string | number | Array<string | number> | undefined,
): { responses: ResponseEntry[]; problems: string[] } {
  const declared = isObject(op.operation.responses) ? op.operation.responses : {};
  const selectors = status === undefined ? ["*"] : asList(status).map(String);
  const responses: ResponseEntry[] = [];
  const problems: string[] = [];
  for (const selector of selectors) {
    let matched = 0;
    for (const [code, raw] of Object.entries(declared)) {
      if (!statusMatches(selector, code)) continue;
      const response = deref(doc, raw);
      if (!isObject(response)) continue;
      matched += 1;
      if (!responses.some((r) => r.status === code)) responses.push({ op, status: code, response });
    }
    if (matched === 0 && !isWildcardStatus(selector)) problems.push(`${op.id}: no ${selector} response`);
  }
  return { responses, problems };
}

interface BodyRoot {
  label: string;
  schema: unknown;
}

function contentRoots(doc: OpenApiDocument, content: unknown, contentType: string | undefined, label: string): BodyRoot[] {
  const entries = isObject(content) ? Object.entries(content) : [];
  const roots: BodyRoot[] = [];
  for (const [mediaType, rawMedia] of entries) {
    if (contentType !== undefined && mediaType.toLowerCase() !== contentType.toLowerCase()) continue;
    const media = deref(doc, rawMedia);
    if (isObject(media) && media.schema !== undefined) roots.push({ label: `${label} ${mediaType}`, schema: media.schema });
  }
  return roots;
}

/** The root schemas a locator names (before descending its `path`). */
function locateRoots(doc: OpenApiDocument, loc: SchemaLocator): { roots: BodyRoot[]; problems: string[] } {
  if (loc.schema !== undefined) {
    const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
    const schema = schemas[loc.schema];
    return schema === undefined
      ? { roots: [], problems: [`schema ${loc.schema} not found`] }
      : { roots: [{ label: `schema ${loc.schema}`, schema }], problems: [] };
  }
  const { ops, problems } = selectOperations(doc, loc.operation, loc.methods);
  const roots: BodyRoot[] = [];
  for (const op of ops) {
    if (loc.request) {
      const body = deref(doc, op.operation.requestBody);
      if (!isObject(body)) {
        if (loc.operation !== "*") problems.push(`${op.id}: no request body`);
        continue;
      }
      const found = contentRoots(doc, body.content, loc.contentType, `${op.id} request`);
      if (found.length === 0 && loc.operation !== "*") problems.push(`${op.id}: request body has no ${loc.contentType ?? "schema"}`);
      roots.push(...found);
      continue;
    }
    if (loc.status === undefined) {
      problems.push("the locator needs `status` or `request: true`");
      continue;
    }
    const selected = selectResponses(doc, op, loc.status);
    if (loc.operation !== "*") problems.push(...selected.problems);
    for (const r of selected.responses) {
      const found = contentRoots(doc, r.response.content, loc.contentType, `${op.id} ${r.status}`);
      if (found.length === 0 && loc.operation !== "*" && !isWildcardStatus(String(r.status)) && asList(loc.status).every((s) => !isWildcardStatus(String(s)))) {
        problems.push(`${op.id} ${r.status}: no ${loc.contentType ?? "body schema"}`);
      }
      roots.push(...found);
    }
  }
  if (roots.length === 0 && problems.length === 0) problems.push("the locator matched no body");
  return { roots, problems };
}

// ---------------------------------------------------------------------------------------------
// Schema views: one schema node with $ref, allOf and null-admitting unions folded in
// ---------------------------------------------------------------------------------------------

export interface SchemaView {
  /** The schema node the view was built from (what instance validation uses). */
  source: unknown;
  /** Every schema object folded into this view. */
  parts: Json[];
  /** Non-null JSON types. */
  types: Set<string>;
  nullable: boolean;
  /** Admitted non-null values when an enum/const restricts them (intersection over allOf). */
  enumValues?: unknown[];
  properties: Map<string, unknown[]>;
  required: Set<string>;
  descriptions: string[];
  formats: Set<string>;
  patterns: string[];
  maxLength?: number;
  minLength?: number;
  minProperties?: number;
  items: unknown[];
}

function emptyView(source: unknown): SchemaView {
  return {
    source,
    parts: [],
    types: new Set(),
    nullable: false,
    properties: new Map(),
    required: new Set(),
    descriptions: [],
    formats: new Set(),
    patterns: [],
    items: [],
  };
}

function isNullOnly(doc: OpenApiDocument, node: unknown): boolean {
  const s = deref(doc, node);
  if (!isObject(s)) return false;
  if (s.type === "null") return true;
  if (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === "null") return true;
  if (Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null) return true;
  return "const" in s && s.const === null;
}

function restrictEnum(view: SchemaView, values: unknown[]): void {
  const nonNull = values.filter((v) => v !== null);
  if (values.length !== nonNull.length) view.nullable = true;
  view.enumValues = view.enumValues === undefined ? nonNull : view.enumValues.filter((v) => nonNull.some((n) => sameValue(n, v)));
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Folds a schema node into `view` (allOf semantics: every constraint applies). */
function fold(doc: OpenApiDocument, node: unknown, view: SchemaView, depth = 0): void {
  if (depth > 32 || !isObject(node)) return;
  if (typeof node.$ref === "string") {
    // 3.1 allows siblings next to $ref; fold both.
    const { $ref: _ref, ...siblings } = node;
    if (Object.keys(siblings).length > 0) fold(doc, siblings, view, depth + 1);
    fold(doc, deref(doc, node), view, depth + 1);
    return;
  }
  view.parts.push(node);
  for (const t of asList(node.type as string | string[] | undefined)) {
    if (t === "null") view.nullable = true;
    else view.types.add(t);
  }
  if (node.nullable === true) view.nullable = true;
  if (Array.isArray(node.enum)) restrictEnum(view, node.enum);
  if ("const" in node) restrictEnum(view, [node.const]);
  if (isObject(node.properties)) {
    for (const [name, schema] of Object.entries(node.properties)) {
      view.properties.set(name, [...(view.properties.get(name) ?? []), schema]);
    }
  }
  for (const name of asList(node.required as string[] | undefined)) view.required.add(name);
  if (typeof node.description === "string") view.descriptions.push(node.description);
  if (typeof node.format === "string") view.formats.add(node.format);
  if (typeof node.pattern === "string") view.patterns.push(node.pattern);
  if (typeof node.maxLength === "number") view.maxLength = Math.min(view.maxLength ?? Infinity, node.maxLength);
  if (typeof node.minLength === "number") view.minLength = Math.max(view.minLength ?? 0, node.minLength);
  if (typeof node.minProperties === "number") view.minProperties = Math.max(view.minProperties ?? 0, node.minProperties);
  if (node.items !== undefined) view.items.push(node.items);
  for (const member of asList(node.allOf as unknown[] | undefined)) fold(doc, member, view, depth + 1);
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = asList(node[key] as unknown[] | undefined);
    if (branches.length === 0) continue;
    const nonNull = branches.filter((b) => !isNullOnly(doc, b));
    if (nonNull.length < branches.length) view.nullable = true;
    if (nonNull.length === 1) {
      fold(doc, nonNull[0], view, depth + 1);
    } else {
      foldUnion(doc, nonNull, view, depth + 1);
    }
  }
}

/** Folds alternatives: what any branch admits is admitted (types, values, properties). */
function foldUnion(doc: OpenApiDocument, branches: unknown[], view: SchemaView, depth: number): void {
  const views = branches.map((b) => viewOf(doc, b, depth));
  for (const v of views) {
    view.parts.push(...v.parts);
    v.types.forEach((t) => view.types.add(t));
    if (v.nullable) view.nullable = true;
    for (const [name, schemas] of v.properties) view.properties.set(name, [...(view.properties.get(name) ?? []), ...schemas]);
    view.descriptions.push(...v.descriptions);
    v.formats.forEach((f) => view.formats.add(f));
    view.items.push(...v.items);
  }
  // Required and enum only hold when every branch says so.
  if (views.every((v) => v.enumValues !== undefined)) {
    restrictEnum(view, views.flatMap((v) => v.enumValues ?? []));
  }
  const [first, ...rest] = views;
  if (first) for (const name of first.required) if (rest.every((v) => v.required.has(name))) view.required.add(name);
}

export function viewOf(doc: OpenApiDocument, node: unknown, depth = 0): SchemaView {
  const view = emptyView(node);
  fold(doc, node, view, depth);
  return view;
}

function viewOfAll(doc: OpenApiDocument, nodes: unknown[]): SchemaView {
  return viewOf(doc, { allOf: nodes });
}

interface Descended {
  /** The node, or undefined when the path does not exist. */
  view?: SchemaView;
  /** The object holding the last path segment (undefined at the root). */
  parent?: SchemaView;
  name?: string;
  missingAt?: string;
}

/** Walks a dotted property path from a root schema. */
function descend(doc: OpenApiDocument, root: unknown, path: string | undefined): Descended {
  let view = viewOf(doc, root);
  let parent: SchemaView | undefined;
  let name: string | undefined;
  const segments = (path ?? "").split(".").filter((s) => s.length > 0);
  const walked: string[] = [];
  for (const raw of segments) {
    const arraySteps = raw.endsWith("[]") ? raw.match(/\[\]/g)!.length : 0;
    const key = raw.replace(/\[\]/g, "");
    walked.push(raw);
    if (key.length > 0) {
      const schemas = view.properties.get(key);
      if (!schemas) return { parent: view, name: key, missingAt: walked.join(".") };
      parent = view;
      name = key;
      view = viewOfAll(doc, schemas);
    }
    for (let i = 0; i < arraySteps; i += 1) {
      if (view.items.length === 0) return { missingAt: `${walked.join(".")} (no items)` };
      parent = undefined;
      name = undefined;
      view = viewOfAll(doc, view.items);
    }
  }
  return { view, parent, name };
}

// ---------------------------------------------------------------------------------------------
// Instance validation (accepts / rejects) with the contract's own OpenAPI -> JSON Schema path
// ---------------------------------------------------------------------------------------------

function openapiVersion(doc: OpenApiDocument): OpenApiVersionId {
  return typeof doc.openapi === "string" && doc.openapi.startsWith("3.1") ? "3.1" : "3.0";
}

const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/** A deep copy of a schema with every local $ref inlined (cycles are cut to `{}`). */
function inlineRefs(doc: OpenApiDocument, node: unknown, stack: string[] = []): unknown {
  if (Array.isArray(node)) return node.map((n) => inlineRefs(doc, n, stack));
  if (!isObject(node)) return node;
  if (typeof node.$ref === "string") {
    const ref = node.$ref;
    if (stack.includes(ref)) return {};
    const { $ref: _ref, ...siblings } = node;
    const target = inlineRefs(doc, deref(doc, { $ref: ref }), [...stack, ref]);
    return Object.keys(siblings).length > 0 ? { allOf: [target, inlineRefs(doc, siblings, stack)] } : target;
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    // Examples are data, not schemas; leave them out of validation.
    if (key === "example" || key === "examples") continue;
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      // Property names are names, not keywords: keep every one, even one called "example".
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, inlineRefs(doc, sub, stack)]));
    } else {
      out[key] = inlineRefs(doc, value, stack);
    }
  }
  return out;
}

function validateInstances(doc: OpenApiDocument, view: SchemaView, accepts: unknown[], rejects: unknown[], label: string): string[] {
  const problems: string[] = [];
  let validate: (data: unknown) => boolean;
  try {
    validate = compileOpenApiSchema(inlineRefs(doc, view.source), openapiVersion(doc));
  } catch (error) {
    return [`${label}: schema does not compile (${(error as Error).message})`];
  }
  for (const value of accepts) if (!validate(value)) problems.push(`${label}: rejects ${JSON.stringify(value)}, should accept it`);
  for (const value of rejects) if (validate(value)) problems.push(`${label}: accepts ${JSON.stringify(value)}, should reject it`);
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Shared assertion logic
// ---------------------------------------------------------------------------------------------

function typeLabel(view: SchemaView): string {
  return [...view.types].join("|") || "untyped";
}

/** Assertions about a node's own schema (not its presence or required-ness). */
function assertSchema(doc: OpenApiDocument, view: SchemaView, a: SchemaAssertions, label: string): string[] {
  const p: string[] = [];
  if (a.type !== undefined) {
    const wanted = asList(a.type);
    const inferred = view.types.size > 0 ? view.types : inferTypes(view);
    if (inferred.size === 0 || ![...inferred].every((t) => wanted.includes(t) || (t === "integer" && wanted.includes("number")))) {
      p.push(`${label}: type ${typeLabel(view)}, expected ${wanted.join(" or ")}`);
    }
  }
  if (a.nullable !== undefined && view.nullable !== a.nullable) {
    p.push(`${label}: ${view.nullable ? "admits" : "does not admit"} null, expected ${a.nullable ? "nullable" : "not nullable"}`);
  }
  if (a.const !== undefined) {
    if (!view.enumValues || view.enumValues.length !== 1 || !sameValue(view.enumValues[0], a.const)) {
      p.push(`${label}: admits ${view.enumValues ? JSON.stringify(view.enumValues) : "any value"}, expected only ${JSON.stringify(a.const)}`);
    }
  }
  if (a.enum !== undefined) {
    const got = view.enumValues ?? [];
    const same = got.length === a.enum.length && a.enum.every((v) => got.some((g) => sameValue(g, v)));
    if (!same) p.push(`${label}: enum ${view.enumValues ? JSON.stringify(got) : "absent"}, expected exactly ${JSON.stringify(a.enum)}`);
  }
  for (const value of a.enumIncludes ?? []) {
    if (!view.enumValues?.some((g) => sameValue(g, value))) {
      p.push(`${label}: enum ${view.enumValues ? JSON.stringify(view.enumValues) : "absent"} lacks ${JSON.stringify(value)}`);
    }
  }
  if (a.format !== undefined) {
    const wanted = asList(a.format);
    if (![...view.formats].some((f) => wanted.includes(f))) p.push(`${label}: format ${[...view.formats].join(",") || "absent"}, expected ${wanted.join(" or ")}`);
  }
  if (a.maxLength !== undefined && view.maxLength !== a.maxLength) p.push(`${label}: maxLength ${view.maxLength ?? "absent"}, expected ${a.maxLength}`);
  if (a.minLength !== undefined && view.minLength !== a.minLength) p.push(`${label}: minLength ${view.minLength ?? "absent"}, expected ${a.minLength}`);
  if (a.minProperties !== undefined && view.minProperties !== a.minProperties) {
    p.push(`${label}: minProperties ${view.minProperties ?? "absent"}, expected ${a.minProperties}`);
  }
  if (a.pattern !== undefined && (view.patterns.length > 0) !== a.pattern) p.push(`${label}: ${view.patterns.length > 0 ? "has" : "has no"} pattern`);
  for (const name of a.propertiesInclude ?? []) if (!view.properties.has(name)) p.push(`${label}: no property ${name}`);
  for (const name of a.propertiesExclude ?? []) if (view.properties.has(name)) p.push(`${label}: has property ${name}, should not`);
  for (const name of a.requiredInclude ?? []) if (!view.required.has(name)) p.push(`${label}: ${name} is not required`);
  if (a.requiredExactly !== undefined) {
    const got = [...view.required].sort();
    const want = [...a.requiredExactly].sort();
    if (JSON.stringify(got) !== JSON.stringify(want)) p.push(`${label}: required ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  }
  if (a.requiredSubsetOf !== undefined) {
    const extra = [...view.required].filter((n) => !a.requiredSubsetOf!.includes(n));
    if (extra.length > 0) p.push(`${label}: also requires ${extra.join(", ")}`);
  }
  if (a.accepts !== undefined || a.rejects !== undefined) {
    p.push(...validateInstances(doc, view, a.accepts ?? [], a.rejects ?? [], label));
  }
  return p;
}

function inferTypes(view: SchemaView): Set<string> {
  const types = new Set<string>();
  if (view.properties.size > 0) types.add("object");
  if (view.items.length > 0) types.add("array");
  for (const v of view.enumValues ?? []) {
    types.add(typeof v === "number" ? (Number.isInteger(v) ? "integer" : "number") : typeof v);
  }
  return types;
}

// ---------------------------------------------------------------------------------------------
// One function per check kind
// ---------------------------------------------------------------------------------------------

export function checkOperation(doc: OpenApiDocument, c: OperationCheck): string[] {
  const found = operations(doc).find((op) => op.path === c.path && op.method === c.method.toLowerCase());
  if (!found) return [`no ${c.method.toUpperCase()} ${c.path}`];
  if (c.operationId !== undefined && found.operation.operationId !== c.operationId) {
    return [`${c.method.toUpperCase()} ${c.path} has operationId ${String(found.operation.operationId)}, expected ${c.operationId}`];
  }
  return [];
}

function findParameter(doc: OpenApiDocument, op: OperationEntry, name: string, where: string): Json | undefined {
  const declared = [...asList(op.operation.parameters as unknown[]), ...asList(op.pathItem.parameters as unknown[])];
  for (const raw of declared) {
    const param = deref(doc, raw);
    if (!isObject(param) || param.in !== where) continue;
    const sameName = where === "header" ? String(param.name).toLowerCase() === name.toLowerCase() : param.name === name;
    if (sameName) return param;
  }
  return undefined;
}

export function checkParameter(doc: OpenApiDocument, c: ParameterCheck): string[] {
  const { ops, problems } = selectOperations(doc, c.operation, c.methods);
  for (const op of ops) {
    const label = `${op.id} ${c.in} parameter ${c.name}`;
    const param = findParameter(doc, op, c.name, c.in);
    if (c.absent) {
      if (param) problems.push(`${label}: present, should be absent`);
      continue;
    }
    if (!param) {
      problems.push(`${label}: missing`);
      continue;
    }
    const required = param.required === true;
    if (c.required !== undefined && required !== c.required) problems.push(`${label}: required is ${required}, expected ${c.required}`);
    const { required: _r, ...assertions } = c;
    problems.push(...assertSchema(doc, viewOf(doc, param.schema), assertions, label));
  }
  return problems;
}

export function checkRequestBody(doc: OpenApiDocument, c: RequestBodyCheck): string[] {
  const { ops, problems } = selectOperations(doc, c.operation, c.methods);
  for (const op of ops) {
    const body = deref(doc, op.operation.requestBody);
    if (!isObject(body)) {
      problems.push(`${op.id}: no request body`);
      continue;
    }
    const mediaTypes = isObject(body.content) ? Object.keys(body.content).map((m) => m.toLowerCase()) : [];
    if (c.contentType !== undefined && !mediaTypes.includes(c.contentType.toLowerCase())) {
      problems.push(`${op.id}: request body media types ${mediaTypes.join(", ") || "none"}, expected ${c.contentType}`);
    }
    if (c.required !== undefined && (body.required === true) !== c.required) problems.push(`${op.id}: request body required is ${body.required === true}`);
  }
  return problems;
}

export function checkProperty(doc: OpenApiDocument, c: PropertyCheck): string[] {
  const { roots, problems } = locateRoots(doc, c);
  for (const root of roots) {
    const label = c.path ? `${root.label} ${c.path}` : root.label;
    const found = descend(doc, root.schema, c.path);
    if (c.absent) {
      if (found.view) problems.push(`${label}: present, should be absent`);
      continue;
    }
    if (!found.view) {
      problems.push(`${label}: missing (at ${found.missingAt})`);
      continue;
    }
    if (c.required !== undefined) {
      if (!found.parent || found.name === undefined) problems.push(`${label}: required-ness needs a property path`);
      else if (found.parent.required.has(found.name) !== c.required) {
        problems.push(`${label}: ${c.required ? "not required" : "required"}, expected ${c.required ? "required" : "optional"}`);
      }
    }
    problems.push(...assertSchema(doc, found.view, c, label));
  }
  return problems;
}

export function checkEnum(doc: OpenApiDocument, c: EnumCheck): string[] {
  const { check: _k, values, exact, ...locator } = c;
  return checkProperty(doc, { check: "property", ...locator, ...(exact ? { enum: values } : { enumIncludes: values }) });
}

/** The values a body admits at a path, from enum/const only (a bare string admits no code). */
function admittedAt(doc: OpenApiDocument, schema: unknown, path: string): unknown[] {
  return descend(doc, schema, path).view?.enumValues ?? [];
}

export function checkResponse(doc: OpenApiDocument, c: ResponseCheck): string[] {
  const { ops, problems } = selectOperations(doc, c.operation, c.methods);
  for (const op of ops) {
    const selected = selectResponses(doc, op, c.status);
    problems.push(...selected.problems);
    if (selected.responses.length === 0) {
      if (selected.problems.length === 0) problems.push(`${op.id}: no response matches ${JSON.stringify(c.status ?? "*")}`);
      continue;
    }
    const withMedia = selected.responses.filter((r) => {
      if (c.contentType === undefined) return true;
      const types = isObject(r.response.content) ? Object.keys(r.response.content).map((m) => m.toLowerCase()) : [];
      return types.includes(c.contentType.toLowerCase());
    });
    if (withMedia.length === 0) {
      problems.push(`${op.id}: no matching response is served as ${c.contentType}`);
      continue;
    }
    if (c.errorCode !== undefined) {
      const codePath = c.codePath ?? "code";
      const admits = withMedia.some((r) =>
        contentRoots(doc, r.response.content, c.contentType, "").some((root) =>
          admittedAt(doc, root.schema, codePath).some((v) => v === c.errorCode),
        ),
      );
      if (!admits) {
        const where = c.status === undefined ? "any response" : `response ${asList(c.status).join("/")}`;
        problems.push(`${op.id}: ${where} does not admit ${codePath} = ${c.errorCode}`);
      }
    } else if (c.status === undefined) {
      problems.push("a response check needs `status` or `errorCode`");
    }
  }
  return problems;
}

export function checkResponseHeader(doc: OpenApiDocument, c: ResponseHeaderCheck): string[] {
  const { ops, problems } = selectOperations(doc, c.operation, c.methods);
  let seen = 0;
  for (const op of ops) {
    const selected = selectResponses(doc, op, c.status);
    problems.push(...(c.operation === "*" ? [] : selected.problems));
    for (const r of selected.responses) {
      seen += 1;
      const label = `${op.id} ${r.status} header ${c.name}`;
      const headers = isObject(r.response.headers) ? r.response.headers : {};
      const entry = Object.entries(headers).find(([n]) => n.toLowerCase() === c.name.toLowerCase());
      const header = entry ? deref(doc, entry[1]) : undefined;
      if (c.absent) {
        if (header) problems.push(`${label}: present, should be absent`);
        continue;
      }
      if (!isObject(header)) {
        problems.push(`${label}: missing`);
        continue;
      }
      const required = header.required === true;
      if (c.required !== undefined && required !== c.required) problems.push(`${label}: required is ${required}, expected ${c.required}`);
      const { required: _r, ...assertions } = c;
      problems.push(...assertSchema(doc, viewOf(doc, header.schema), assertions, label));
    }
  }
  if (seen === 0 && problems.length === 0) problems.push(`no response matches ${JSON.stringify(c.status)}`);
  return problems;
}

function securitySchemes(doc: OpenApiDocument): Array<[string, Json]> {
  const schemes = isObject(doc.components) && isObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  return Object.entries(schemes)
    .map(([key, raw]) => [key, deref(doc, raw)] as [string, unknown])
    .filter((e): e is [string, Json] => isObject(e[1]));
}

function matchingSchemes(doc: OpenApiDocument, c: { type?: string; in?: string; name?: string }): Array<[string, Json]> {
  return securitySchemes(doc).filter(
    ([, s]) =>
      (c.type === undefined || s.type === c.type) && (c.in === undefined || s.in === c.in) && (c.name === undefined || s.name === c.name),
  );
}

export function checkSecurityScheme(doc: OpenApiDocument, c: SecuritySchemeCheck): string[] {
  const matches = matchingSchemes(doc, c);
  if (matches.length === 0) {
    const have = securitySchemes(doc).map(([k, s]) => `${k} (${String(s.type)} ${String(s.in)} ${String(s.name)})`);
    return [`no security scheme ${c.type} ${c.in ?? ""} ${c.name ?? ""}; declared: ${have.join(", ") || "none"}`];
  }
  if (!c.everyOperation) return [];
  const keys = matches.map(([k]) => k);
  const problems: string[] = [];
  for (const op of operations(doc)) {
    const requirements = asList((op.operation.security ?? doc.security) as Json[] | undefined);
    // Every alternative must name the scheme; an empty alternative `{}` makes the key optional.
    const enforced = requirements.length > 0 && requirements.every((req) => isObject(req) && keys.some((k) => k in req));
    if (!enforced) problems.push(`${op.id}: does not require ${keys.join("/")}`);
  }
  return problems;
}

export function checkRequiredScope(doc: OpenApiDocument, c: RequiredScopeCheck): string[] {
  const { ops, problems } = selectOperations(doc, c.operation, undefined);
  for (const op of ops) {
    const declared = asList(op.operation["x-required-scopes"] as string[] | undefined);
    const requirements = asList((op.operation.security ?? doc.security) as Json[] | undefined);
    const inSecurity = requirements.some((req) => isObject(req) && Object.values(req).some((scopes) => asList(scopes as string[]).includes(c.scope)));
    if (!declared.includes(c.scope) && !inSecurity) problems.push(`${op.id}: scope ${c.scope} is not required`);
  }
  return problems;
}

function servers(doc: OpenApiDocument): Json[] {
  return asList(doc.servers as Json[] | undefined).filter(isObject);
}

export function checkServer(doc: OpenApiDocument, c: ServerCheck): string[] {
  const declared = servers(doc);
  const problems: string[] = [];
  if (c.urls !== undefined) {
    const got = declared.map((s) => String(s.url)).sort();
    const want = [...c.urls].sort();
    if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`servers ${JSON.stringify(got)}, expected exactly ${JSON.stringify(want)}`);
  }
  if (c.url !== undefined) {
    const server = declared.find((s) => s.url === c.url);
    if (!server) return [...problems, `no server ${c.url}`];
    const variables = isObject(server.variables) ? server.variables : {};
    for (const name of c.variables ?? []) if (!(name in variables)) problems.push(`server ${c.url}: variable ${name} not declared`);
    if (c.descriptionIncludes !== undefined && !phraseIn([server.description], c.descriptionIncludes)) {
      problems.push(`server ${c.url}: description lacks "${c.descriptionIncludes}"`);
    }
  }
  return problems;
}

/**
 * Phrase matching for description checks: case-insensitive, whitespace collapsed, markdown
 * code/emphasis markers (` * _ at word edges) ignored, so that `ACTIVE` matches ACTIVE.
 */
export function normalisePhrase(text: string): string {
  return text
    .replace(/`/g, "")
    .replace(/(^|\s)[*_]+|[*_]+(?=\s|$|[.,;:])/g, "$1")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

function phraseIn(texts: unknown[], phrase: string): boolean {
  const wanted = normalisePhrase(phrase);
  return texts.some((t) => typeof t === "string" && normalisePhrase(t).includes(wanted));
}

function descriptionTexts(doc: OpenApiDocument, c: DescriptionCheck): { texts: Array<{ label: string; texts: unknown[] }>; problems: string[] } {
  switch (c.target) {
    case "info": {
      const info = isObject(doc.info) ? doc.info : {};
      return { texts: [{ label: "info", texts: [info.description, info.summary] }], problems: [] };
    }
    case "operation": {
      const { ops, problems } = selectOperations(doc, c.operation, c.methods);
      return { texts: ops.map((op) => ({ label: op.id, texts: [op.operation.description, op.operation.summary] })), problems };
    }
    case "security-scheme": {
      const matches = matchingSchemes(doc, { name: c.name });
      return matches.length > 0
        ? { texts: matches.map(([k, s]) => ({ label: `security scheme ${k}`, texts: [s.description] })), problems: [] }
        : { texts: [], problems: [`no security scheme named ${c.name}`] };
    }
    case "server": {
      const server = servers(doc).find((s) => s.url === c.url);
      return server ? { texts: [{ label: `server ${c.url}`, texts: [server.description] }], problems: [] } : { texts: [], problems: [`no server ${c.url}`] };
    }
    case "parameter": {
      const { ops, problems } = selectOperations(doc, c.operation, c.methods);
      const texts: Array<{ label: string; texts: unknown[] }> = [];
      for (const op of ops) {
        const param = ["header", "query", "path", "cookie"].map((w) => findParameter(doc, op, c.name ?? "", w)).find(Boolean);
        if (!param) problems.push(`${op.id}: no parameter ${c.name}`);
        else texts.push({ label: `${op.id} parameter ${c.name}`, texts: [param.description, ...viewOf(doc, param.schema).descriptions] });
      }
      return { texts, problems };
    }
    case "response": {
      const { ops, problems } = selectOperations(doc, c.operation, c.methods);
      const texts: Array<{ label: string; texts: unknown[] }> = [];
      for (const op of ops) {
        const selected = selectResponses(doc, op, c.status);
        problems.push(...selected.problems);
        for (const r of selected.responses) texts.push({ label: `${op.id} ${r.status}`, texts: [r.response.description] });
      }
      return { texts, problems };
    }
    case "schema": {
      const { roots, problems } = locateRoots(doc, c);
      const texts: Array<{ label: string; texts: unknown[] }> = [];
      for (const root of roots) {
        const found = descend(doc, root.schema, c.path);
        if (!found.view) problems.push(`${root.label} ${c.path ?? ""}: missing`);
        else texts.push({ label: `${root.label} ${c.path ?? ""}`.trim(), texts: found.view.descriptions });
      }
      return { texts, problems };
    }
  }
}

export function checkDescription(doc: OpenApiDocument, c: DescriptionCheck): string[] {
  const { texts, problems } = descriptionTexts(doc, c);
  for (const entry of texts) {
    for (const phrase of asList(c.contains)) {
      if (!phraseIn(entry.texts, phrase)) problems.push(`${entry.label}: description lacks "${phrase}"`);
    }
  }
  if (texts.length === 0 && problems.length === 0) problems.push("no description matched the target");
  return problems;
}

/** Every media type of every request body and response of the document. */
function allMediaTypes(doc: OpenApiDocument): Array<{ label: string; mediaType: string; schema: unknown }> {
  const out: Array<{ label: string; mediaType: string; schema: unknown }> = [];
  for (const op of operations(doc)) {
    const body = deref(doc, op.operation.requestBody);
    if (isObject(body) && isObject(body.content)) {
      for (const [mediaType, media] of Object.entries(body.content)) out.push({ label: `${op.id} request`, mediaType, schema: (deref(doc, media) as Json)?.schema });
    }
    for (const r of selectResponses(doc, op, "*").responses) {
      if (!isObject(r.response.content)) continue;
      for (const [mediaType, media] of Object.entries(r.response.content)) out.push({ label: `${op.id} ${r.status}`, mediaType, schema: (deref(doc, media) as Json)?.schema });
    }
  }
  return out;
}

export function checkContentTypes(doc: OpenApiDocument, c: ContentTypesCheck): string[] {
  const pattern = new RegExp(c.matches, "i");
  const bodies = allMediaTypes(doc);
  if (bodies.length === 0) return ["the document declares no bodies"];
  return bodies.filter((b) => !pattern.test(b.mediaType)).map((b) => `${b.label}: media type ${b.mediaType} does not match ${c.matches}`);
}

/** Visits every schema object reachable from a node, following $refs once. */
function walkSchemas(doc: OpenApiDocument, node: unknown, visit: (schema: Json, where: string) => void, where: string, seen: Set<unknown>): void {
  const schema = deref(doc, node);
  if (!isObject(schema) || seen.has(schema)) return;
  seen.add(schema);
  visit(schema, where);
  if (isObject(schema.properties)) for (const [name, sub] of Object.entries(schema.properties)) walkSchemas(doc, sub, visit, `${where}.${name}`, seen);
  if (isObject(schema.additionalProperties)) walkSchemas(doc, schema.additionalProperties, visit, `${where}{}`, seen);
  if (schema.items !== undefined) walkSchemas(doc, schema.items, visit, `${where}[]`, seen);
  for (const key of ["allOf", "anyOf", "oneOf"]) for (const sub of asList(schema[key] as unknown[])) walkSchemas(doc, sub, visit, where, seen);
}

export function checkPropertyNames(doc: OpenApiDocument, c: PropertyNamesCheck): string[] {
  const pattern = new RegExp(c.matches);
  const problems = new Set<string>();
  for (const body of allMediaTypes(doc)) {
    walkSchemas(
      doc,
      body.schema,
      (schema, where) => {
        if (!isObject(schema.properties)) return;
        for (const name of Object.keys(schema.properties)) if (!pattern.test(name)) problems.add(`${body.label}${where}: property ${name} does not match ${c.matches}`);
      },
      "",
      new Set(),
    );
  }
  return [...problems];
}

export function checkPaths(doc: OpenApiDocument, c: PathsCheck): string[] {
  const pattern = new RegExp(c.matches);
  const paths = Object.keys(isObject(doc.paths) ? doc.paths : {});
  if (paths.length === 0) return ["the document has no paths"];
  return paths.filter((p) => !pattern.test(p)).map((p) => `path ${p} does not match ${c.matches}`);
}

export function checkOpenObjects(doc: OpenApiDocument, _c: OpenObjectsCheck): string[] {
  const problems = new Set<string>();
  for (const body of allMediaTypes(doc)) {
    if (body.label.endsWith(" request")) continue;
    walkSchemas(
      doc,
      body.schema,
      (schema, where) => {
        if (schema.additionalProperties === false || schema.unevaluatedProperties === false) {
          problems.add(`${body.label}${where}: closed object (unknown fields would be invalid)`);
        }
      },
      "",
      new Set(),
    );
  }
  return [...problems];
}

// ---------------------------------------------------------------------------------------------
// Dispatch
// ---------------------------------------------------------------------------------------------

type Evaluator<C> = (doc: OpenApiDocument, check: C) => string[];

export const CHECK_EVALUATORS: { [K in CheckKind]: Evaluator<Extract<EncodingCheck, { check: K }>> } = {
  operation: checkOperation,
  parameter: checkParameter,
  "request-body": checkRequestBody,
  property: checkProperty,
  enum: checkEnum,
  response: checkResponse,
  "response-header": checkResponseHeader,
  "security-scheme": checkSecurityScheme,
  "required-scope": checkRequiredScope,
  server: checkServer,
  description: checkDescription,
  "content-types": checkContentTypes,
  "property-names": checkPropertyNames,
  paths: checkPaths,
  "open-objects": checkOpenObjects,
};

export const CHECK_KINDS = Object.keys(CHECK_EVALUATORS) as CheckKind[];

/** Evaluates one check; returns its problems (empty: the document encodes the element). */
export function evaluateCheck(doc: OpenApiDocument, check: EncodingCheck): string[] {
  const evaluator = CHECK_EVALUATORS[check.check] as Evaluator<EncodingCheck> | undefined;
  if (!evaluator) return [`unknown check kind ${String((check as { check: unknown }).check)}`];
  return evaluator(doc, check);
}
