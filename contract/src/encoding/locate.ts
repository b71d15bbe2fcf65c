/**
 * Locating what a check names in a document, through the contract model: operations by id
 * (or "*" narrowed by methods), responses by status selector, bodies by media type, and the
 * document-level parts (security schemes, servers, every media type).
 */
import { asList, deref, isObject, operationsOf, parameterOf, type ContractOperation, type ContractParameter, type Json } from "../model/index.ts";
import type { OpenApiDocument, SchemaLocator } from "./check-types.ts";

/** The operations a check names: one by operationId, or all ("*") narrowed by methods. */
export function selectOperations(
  doc: OpenApiDocument,
  operation: string | undefined,
  methods: string[] | undefined,
): { ops: ContractOperation[]; problems: string[] } {
  const all = operationsOf(doc);
  if (operation === undefined) return { ops: [], problems: ["the check names no operation"] };
  if (operation === "*") {
    const ops = methods ? all.filter((op) => methods.map((m) => m.toUpperCase()).includes(op.method)) : all;
    return ops.length > 0 ? { ops, problems: [] } : { ops, problems: [`no operation with method ${methods?.join("/")}`] };
  }
  const ops = all.filter((op) => op.operationId === operation);
  return ops.length > 0 ? { ops, problems: [] } : { ops, problems: [`operation ${operation} not found`] };
}

function statusMatches(selector: string, status: string): boolean {
  const s = selector.toLowerCase();
  if (s === "*") return true;
  if (s === "error") return /^[45]/.test(status);
  if (/^[1-5]xx$/.test(s)) return status.toLowerCase().startsWith(s[0]!);
  return s === status.toLowerCase();
}

export function isWildcardStatus(selector: string): boolean {
  const s = selector.toLowerCase();
  return s === "*" || s === "error" || /^[1-5]xx$/.test(s);
}

export interface ResponseEntry {
  op: ContractOperation;
  status: string;
  /** The Response Object (after `$ref`). */
  response: Json;
}

/**
 * The responses of one operation a status selector names. A literal status that the operation
 * lacks is a problem; wildcards may match nothing for one operation.
 */
export function selectResponses(
  op: ContractOperation,
  status: string | number | Array<string | number> | undefined,
): { responses: ResponseEntry[]; problems: string[] } {
  const selectors = status === undefined ? ["*"] : asList(status).map(String);
  const responses: ResponseEntry[] = [];
  const problems: string[] = [];
  for (const selector of selectors) {
    let matched = 0;
    for (const r of op.responses) {
      if (!statusMatches(selector, r.status)) continue;
      matched += 1;
      if (!responses.some((e) => e.status === r.status)) responses.push({ op, status: r.status, response: r.raw });
    }
    if (matched === 0 && !isWildcardStatus(selector)) problems.push(`${op.operationId}: no ${selector} response`);
  }
  return { responses, problems };
}

export interface BodyRoot {
  label: string;
  schema: unknown;
}

export function contentRoots(doc: OpenApiDocument, content: unknown, contentType: string | undefined, label: string): BodyRoot[] {
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
export function locateRoots(doc: OpenApiDocument, loc: SchemaLocator): { roots: BodyRoot[]; problems: string[] } {
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
        if (loc.operation !== "*") problems.push(`${op.operationId}: no request body`);
        continue;
      }
      const found = contentRoots(doc, body.content, loc.contentType, `${op.operationId} request`);
      if (found.length === 0 && loc.operation !== "*") problems.push(`${op.operationId}: request body has no ${loc.contentType ?? "schema"}`);
      roots.push(...found);
      continue;
    }
    if (loc.status === undefined) {
      problems.push("the locator needs `status` or `request: true`");
      continue;
    }
    const selected = selectResponses(op, loc.status);
    if (loc.operation !== "*") problems.push(...selected.problems);
    for (const r of selected.responses) {
      const found = contentRoots(doc, r.response.content, loc.contentType, `${op.operationId} ${r.status}`);
      if (found.length === 0 && loc.operation !== "*" && !isWildcardStatus(String(r.status)) && asList(loc.status).every((s) => !isWildcardStatus(String(s)))) {
        problems.push(`${op.operationId} ${r.status}: no ${loc.contentType ?? "body schema"}`);
      }
      roots.push(...found);
    }
  }
  if (roots.length === 0 && problems.length === 0) problems.push("the locator matched no body");
  return { roots, problems };
}

/** A parameter of an operation (path-level ones included); header names compare case-insensitively. */
export function findParameter(op: ContractOperation, name: string, where: string): Json | undefined {
  return parameterOf(op, name, where as ContractParameter["in"])?.raw;
}

export function securitySchemes(doc: OpenApiDocument): Array<[string, Json]> {
  const schemes = isObject(doc.components) && isObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  return Object.entries(schemes)
    .map(([key, raw]) => [key, deref(doc, raw)] as [string, unknown])
    .filter((e): e is [string, Json] => isObject(e[1]));
}

export function matchingSchemes(doc: OpenApiDocument, c: { type?: string; in?: string; name?: string }): Array<[string, Json]> {
  return securitySchemes(doc).filter(
    ([, s]) =>
      (c.type === undefined || s.type === c.type) && (c.in === undefined || s.in === c.in) && (c.name === undefined || s.name === c.name),
  );
}

export function servers(doc: OpenApiDocument): Json[] {
  return asList(doc.servers as Json[] | undefined).filter(isObject);
}

/** Every media type of every request body and response of the document. */
export function allMediaTypes(doc: OpenApiDocument): Array<{ label: string; mediaType: string; schema: unknown }> {
  const out: Array<{ label: string; mediaType: string; schema: unknown }> = [];
  for (const op of operationsOf(doc)) {
    const body = deref(doc, op.operation.requestBody);
    if (isObject(body) && isObject(body.content)) {
      for (const [mediaType, media] of Object.entries(body.content)) out.push({ label: `${op.operationId} request`, mediaType, schema: (deref(doc, media) as Json)?.schema });
    }
    for (const r of selectResponses(op, "*").responses) {
      if (!isObject(r.response.content)) continue;
      for (const [mediaType, media] of Object.entries(r.response.content)) out.push({ label: `${op.operationId} ${r.status}`, mediaType, schema: (deref(doc, media) as Json)?.schema });
    }
  }
  return out;
}

/** Visits every schema object reachable from a node, following $refs once. */
export function walkSchemas(doc: OpenApiDocument, node: unknown, visit: (schema: Json, where: string) => void, where: string, seen: Set<unknown>): void {
  const schema = deref(doc, node);
  if (!isObject(schema) || seen.has(schema)) return;
  seen.add(schema);
  visit(schema, where);
  if (isObject(schema.properties)) for (const [name, sub] of Object.entries(schema.properties)) walkSchemas(doc, sub, visit, `${where}.${name}`, seen);
  if (isObject(schema.additionalProperties)) walkSchemas(doc, schema.additionalProperties, visit, `${where}{}`, seen);
  if (schema.items !== undefined) walkSchemas(doc, schema.items, visit, `${where}[]`, seen);
  for (const key of ["allOf", "anyOf", "oneOf"]) for (const sub of asList(schema[key] as unknown[])) walkSchemas(doc, sub, visit, where, seen);
}
