/**
 * Checks a real HTTP response against the contract: finds the operation of the request
 * (matching.ts), then checks that the status is documented for it, that the Content-Type is
 * one of the documented media types, that the body validates against the documented schema
 * and that documented headers are present when required and well typed when present.
 * Schemas are compiled in the dialect of the document the operation came from (3.0 ->
 * draft-07, 3.1 -> 2020-12), with the domain formats registered.
 *
 * The primitives (media types, header values, JSON bodies, schema problems) are exported for
 * the conformance suites, which build their own profile-aware expectations on top of them.
 *
 *   const validator = createResponseValidator(loadContractDocuments());
 *   const check = validator.validate({ method: "GET", url: "/v1/charges/ch_1", status: 200, headers, body });
 *   // check.operation?.operationId === "getCharge"; check.problems: [] when the response conforms
 */
import type { ValidateFunction } from "ajv";
import type { ContractDocument } from "./documents.ts";
import type { Json } from "./json.ts";
import { compileOpenApiSchema, describeSchemaErrors } from "./json-schema.ts";
import { OperationIndex, pathOfUrl, type OperationMatch } from "./matching.ts";
import { listOperations, responseFor, type ContractOperation } from "./operations.ts";

/** The media type of a Content-Type value, lower case, without parameters. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  return contentType?.split(";")[0].trim().toLowerCase() || undefined;
}

/** `application/json` or a `+json` structured suffix. */
export function isJsonMediaType(mediaType: string): boolean {
  const type = mediaType.toLowerCase();
  return type === "application/json" || type.endsWith("+json");
}

/**
 * A header value as the text the client wrote (D45): Node reads header bytes as Latin-1, so a
 * UTF-8 `é` arrives as two characters. Values that are valid UTF-8 are decoded (an ASCII value
 * decodes to itself); others stay as they are.
 */
export function headerText(value: string): string {
  // Without Buffer: the portal's console runs this model in a browser.
  if (/[^\x00-\xff]/.test(value)) return value;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(value, (c) => c.charCodeAt(0)));
  } catch {
    return value;
  }
}

/** Whether a request path decodes: every `%` starts an escaped octet, and the octets are UTF-8 (D50). */
export function pathDecodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * A header value as its schema types it (headers travel as text). Without a schema (or a
 * schema without `type`), a numeric text becomes a number.
 */
export function headerValue(raw: string, schema?: Json): unknown {
  const trimmed = raw.trim();
  const numeric = /^-?\d+(\.\d+)?$/.test(trimmed);
  if (!schema || schema.type === undefined) return numeric ? Number(trimmed) : trimmed;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if ((types.includes("integer") || types.includes("number")) && numeric) return Number(trimmed);
  if (types.includes("boolean") && (trimmed === "true" || trimmed === "false")) return trimmed === "true";
  return raw;
}

export function parseJsonBody(body: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    return { ok: false, problem: `body is not JSON (${(error as Error).message}): ${body.slice(0, 120)}` };
  }
}

/** Runs a compiled validator; ajv's errors as `<label>: <path> <message>` lines. */
export function schemaProblems(validate: ValidateFunction, value: unknown, label: string): string[] {
  if (validate(value)) return [];
  return describeSchemaErrors(validate).map((line) => `${label}: ${line}`);
}

/** A response as seen on the wire. */
export interface ObservedResponse {
  method: string;
  /** Request path with or without query, or an absolute URL. */
  url: string;
  status: number;
  /** Response headers: a fetch `Headers`, or a plain object (names in any case). */
  headers: Headers | Record<string, string | string[] | number | undefined>;
  /** The body: raw text (or bytes), or an already parsed JSON value. */
  body: string | Uint8Array | unknown;
}

export interface ResponseCheck {
  /** The operation the request reached, or null when no documented operation matches. */
  operation: OperationMatch | null;
  /** What does not conform; empty when the response conforms (or nothing could be checked). */
  problems: string[];
}

function headerGetter(headers: ObservedResponse["headers"]): (name: string) => string | undefined {
  if (typeof (headers as Headers).get === "function") {
    return (name) => (headers as Headers).get(name) ?? undefined;
  }
  const lower = new Map<string, string>();
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    if (value === undefined) continue;
    lower.set(name.toLowerCase(), Array.isArray(value) ? value.join(", ") : String(value));
  }
  return (name) => lower.get(name.toLowerCase());
}

function isEmptyBody(body: unknown): boolean {
  return body === undefined || body === null || (typeof body === "string" && body.length === 0) || (body instanceof Uint8Array && body.byteLength === 0);
}

/**
 * Problems of one observed response against one operation of the contract (the operation
 * known already: no matching). Empty when the response conforms.
 */
export function responseProblems(operation: ContractOperation, observed: Omit<ObservedResponse, "method" | "url">): string[] {
  const problems: string[] = [];
  const where = `${operation.operationId} ${observed.status}`;
  const response = responseFor(operation, observed.status);
  if (!response) return [`${where}: status ${observed.status} is not documented for ${operation.method} ${operation.path}`];
  const header = headerGetter(observed.headers);

  // Headers: required ones present, present ones of the documented type.
  for (const definition of response.headers) {
    const raw = header(definition.name);
    if (raw === undefined) {
      if (definition.required) problems.push(`${where}: required header ${definition.name} is missing`);
      continue;
    }
    if (Object.keys(definition.schema).length === 0) continue;
    const validate = compileOpenApiSchema(definition.schema, operation.version);
    problems.push(...schemaProblems(validate, headerValue(raw, definition.schema), `${where}: header ${definition.name}=${JSON.stringify(raw)}`));
  }

  // Body: media type documented, body valid against its schema.
  const documentedTypes = response.content.map((m) => m.mediaType);
  if (documentedTypes.length === 0) {
    if (!isEmptyBody(observed.body)) problems.push(`${where}: a body was sent but the contract documents none`);
    return problems;
  }
  const mediaType = mediaTypeOf(header("content-type"));
  if (!mediaType) return [...problems, `${where}: Content-Type is missing (documented: ${documentedTypes.join(", ")})`];
  const media = response.content.find((m) => m.mediaType.toLowerCase() === mediaType);
  if (!media) return [...problems, `${where}: Content-Type ${mediaType} is not documented (documented: ${documentedTypes.join(", ")})`];
  if (!media.schema || !isJsonMediaType(mediaType)) return problems;
  let body: unknown = observed.body;
  if (typeof body === "string" || body instanceof Uint8Array) {
    const text = typeof body === "string" ? body : Buffer.from(body).toString("utf8");
    const parsed = parseJsonBody(text);
    if (!parsed.ok) return [...problems, `${where}: the body is not JSON: ${text.slice(0, 80)}`];
    body = parsed.value;
  }
  const validate = compileOpenApiSchema(media.schema, operation.version);
  if (!validate(body)) problems.push(...describeSchemaErrors(validate).map((line) => `${where}: body ${line}`));
  return problems;
}

export interface ResponseValidator {
  index: OperationIndex;
  validate(observed: ObservedResponse): ResponseCheck;
}

/**
 * A validator over loaded documents (any version; default elsewhere: 3.1 dereferenced) or
 * over operations already read. Schemas are compiled once and cached.
 */
export function createResponseValidator(source: readonly ContractDocument[] | OperationIndex): ResponseValidator {
  const index = source instanceof OperationIndex ? source : new OperationIndex(listOperations(source));
  return {
    index,
    validate(observed) {
      const operation = index.match(observed.method, pathOfUrl(observed.url));
      if (!operation) return { operation: null, problems: [] };
      return { operation, problems: responseProblems(operation, observed) };
    },
  };
}
