/**
 * Checks a real HTTP response against the contract: finds the operation of the request
 * (method + path against the OpenAPI path templates), then checks that the status is
 * documented for it, that the Content-Type is one of the documented media types, that the
 * body validates against the documented schema and that documented headers are present when
 * required and well typed when present.
 *
 * Shared by the sandbox tests and the conformance scenarios, so that a scenario cannot pass
 * on a malformed body. It reads the dereferenced OpenAPI 3.1 documents (JSON Schema 2020-12)
 * written by `npm run build`; nothing about the contract is written here.
 *
 *   const validator = createResponseValidator(loadContractDocuments());
 *   const check = validator.validate({ method: "GET", url: "/v1/charges/ch_1", status: 200, headers, body });
 *   // check.operation?.operationId === "getCharge"; check.problems: [] when the response conforms
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ValidateFunction } from "ajv";
import { compileOpenApiSchema, describeSchemaErrors } from "./json-schema.ts";
import { CONTROL_SERVICES, FAMILIES, GENERATED_DIR, openapiPath, type ControlServiceId, type FamilyId } from "./layout.ts";

export type ServiceId = FamilyId | ControlServiceId;

type Json = Record<string, unknown>;

/** One loaded contract document. */
export interface ContractDocument {
  service: ServiceId;
  /** A dereferenced OpenAPI 3.1 document (no `$ref` left). */
  document: Json;
}

const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;

/**
 * Reads the dereferenced OpenAPI 3.1 documents of the given services (default: both families
 * and the sandbox controls) from `generated/` (or another build output folder).
 */
export function loadContractDocuments(
  options: { services?: readonly ServiceId[]; generatedDir?: string } = {},
): ContractDocument[] {
  const services = options.services ?? [...FAMILIES.map((f) => f.id), ...CONTROL_SERVICES.map((c) => c.id)];
  const generated = options.generatedDir ?? GENERATED_DIR;
  return services.map((service) => ({
    service,
    document: JSON.parse(readFileSync(join(generated, openapiPath("3.1", service, "dereferenced.json")), "utf8")) as Json,
  }));
}

/** An operation of a contract document, with what matching and validation need. */
export interface ContractOperation {
  service: ServiceId;
  operationId: string;
  /** Upper-case HTTP method. */
  method: string;
  /** OpenAPI path template, e.g. `/pix/{pixId}/qrcode`. */
  pathTemplate: string;
  /** The OpenAPI Operation Object (dereferenced). */
  operation: Json;
}

interface CompiledPath {
  operation: ContractOperation;
  regex: RegExp;
  parameterNames: string[];
  /** Literal segments first: `/pix/query` wins over `/pix/{pixId}`. */
  literalSegments: number;
}

/** Lists the operations of the documents. */
export function listOperations(documents: readonly ContractDocument[]): ContractOperation[] {
  const operations: ContractOperation[] = [];
  for (const { service, document } of documents) {
    for (const [pathTemplate, item] of Object.entries((document.paths ?? {}) as Record<string, Json>)) {
      for (const method of HTTP_METHODS) {
        const operation = item[method] as Json | undefined;
        if (!operation) continue;
        operations.push({ service, operationId: String(operation.operationId), method: method.toUpperCase(), pathTemplate, operation });
      }
    }
  }
  return operations;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function compilePath(operation: ContractOperation): CompiledPath {
  const parameterNames: string[] = [];
  let literalSegments = 0;
  const pattern = operation.pathTemplate
    .split("/")
    .map((segment) => {
      const match = /^\{([^}]+)\}$/.exec(segment);
      if (match) {
        parameterNames.push(match[1]);
        return "([^/]+)";
      }
      if (segment !== "") literalSegments += 1;
      return escapeRegex(segment);
    })
    .join("/");
  return { operation, regex: new RegExp(`^${pattern}$`), parameterNames, literalSegments };
}

/** The operation a request reached, with its decoded path parameters. */
export interface OperationMatch extends ContractOperation {
  pathParams: Record<string, string>;
}

/** Finds operations by method and concrete path. */
export class OperationIndex {
  private readonly compiled: CompiledPath[];

  constructor(documents: readonly ContractDocument[]) {
    this.compiled = listOperations(documents)
      .map(compilePath)
      .sort((a, b) => b.literalSegments - a.literalSegments);
  }

  /** The operation for `method` and `path` (path only, no query), or null. */
  match(method: string, path: string): OperationMatch | null {
    const upper = method.toUpperCase();
    for (const candidate of this.compiled) {
      if (candidate.operation.method !== upper) continue;
      const found = candidate.regex.exec(path);
      if (!found) continue;
      const pathParams: Record<string, string> = {};
      candidate.parameterNames.forEach((name, index) => {
        pathParams[name] = safeDecode(found[index + 1]);
      });
      return { ...candidate.operation, pathParams };
    }
    return null;
  }

  /** Methods the contract documents for a concrete path (empty when the path is unknown). */
  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const candidate of this.compiled) if (candidate.regex.test(path)) methods.add(candidate.operation.method);
    return [...methods];
  }

  byOperationId(operationId: string): ContractOperation | undefined {
    return this.compiled.find((c) => c.operation.operationId === operationId)?.operation;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
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

function pathOf(url: string): string {
  const withoutOrigin = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? new URL(url).pathname + new URL(url).search : url;
  const query = withoutOrigin.indexOf("?");
  return query === -1 ? withoutOrigin : withoutOrigin.slice(0, query);
}

function mediaTypeOf(contentType: string | undefined): string | undefined {
  return contentType?.split(";")[0].trim().toLowerCase() || undefined;
}

function isJsonMediaType(mediaType: string): boolean {
  return mediaType === "application/json" || mediaType.endsWith("+json");
}

/** The documented response for a status: exact code, then a range like `4XX`, then `default`. */
function documentedResponse(operation: Json, status: number): Json | undefined {
  const responses = (operation.responses ?? {}) as Record<string, Json>;
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}

/** Parses a header value the way its schema types it (headers travel as text). */
function headerValue(raw: string, schema: Json | undefined): unknown {
  const type = schema?.type;
  const types = Array.isArray(type) ? type : [type];
  if ((types.includes("integer") || types.includes("number")) && /^-?\d+(\.\d+)?$/.test(raw.trim())) return Number(raw);
  if (types.includes("boolean") && (raw === "true" || raw === "false")) return raw === "true";
  return raw;
}

export interface ResponseValidator {
  index: OperationIndex;
  validate(observed: ObservedResponse): ResponseCheck;
}

/** Builds a validator over the given documents; schemas are compiled once and cached. */
export function createResponseValidator(documents: readonly ContractDocument[]): ResponseValidator {
  const index = new OperationIndex(documents);
  const cache = new Map<string, ValidateFunction>();
  const compiled = (key: string, schema: unknown): ValidateFunction => {
    let validate = cache.get(key);
    if (!validate) {
      validate = compileOpenApiSchema(schema, "3.1");
      cache.set(key, validate);
    }
    return validate;
  };

  function validate(observed: ObservedResponse): ResponseCheck {
    const operation = index.match(observed.method, pathOf(observed.url));
    if (!operation) return { operation: null, problems: [] };
    const problems: string[] = [];
    const where = `${operation.operationId} ${observed.status}`;
    const response = documentedResponse(operation.operation, observed.status);
    if (!response) {
      problems.push(`${where}: status ${observed.status} is not documented for ${operation.method} ${operation.pathTemplate}`);
      return { operation, problems };
    }
    const header = headerGetter(observed.headers);

    // Headers: required ones present, present ones of the documented type.
    for (const [name, definition] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      const raw = header(name);
      if (raw === undefined) {
        if (definition.required === true) problems.push(`${where}: required header ${name} is missing`);
        continue;
      }
      if (definition.schema) {
        const check = compiled(`${operation.operationId}|${observed.status}|header|${name}`, definition.schema);
        if (!check(headerValue(raw, definition.schema as Json))) {
          problems.push(...describeSchemaErrors(check).map((e) => `${where}: header ${name}=${JSON.stringify(raw)}: ${e}`));
        }
      }
    }

    // Body: media type documented, body valid against its schema.
    const content = (response.content ?? {}) as Record<string, Json>;
    const documentedTypes = Object.keys(content);
    const rawBody = observed.body;
    const bodyIsEmpty =
      rawBody === undefined ||
      rawBody === null ||
      (typeof rawBody === "string" && rawBody.length === 0) ||
      (rawBody instanceof Uint8Array && rawBody.byteLength === 0);
    if (documentedTypes.length === 0) {
      if (!bodyIsEmpty) problems.push(`${where}: a body was sent but the contract documents none`);
      return { operation, problems };
    }
    const mediaType = mediaTypeOf(header("content-type"));
    if (!mediaType) {
      problems.push(`${where}: Content-Type is missing (documented: ${documentedTypes.join(", ")})`);
      return { operation, problems };
    }
    const documentedType = documentedTypes.find((t) => t.toLowerCase() === mediaType);
    if (!documentedType) {
      problems.push(`${where}: Content-Type ${mediaType} is not documented (documented: ${documentedTypes.join(", ")})`);
      return { operation, problems };
    }
    const schema = content[documentedType].schema;
    if (!schema || !isJsonMediaType(mediaType)) return { operation, problems };
    let body: unknown = rawBody;
    if (typeof rawBody === "string" || rawBody instanceof Uint8Array) {
      const text = typeof rawBody === "string" ? rawBody : Buffer.from(rawBody).toString("utf8");
      try {
        body = JSON.parse(text);
      } catch {
        problems.push(`${where}: the body is not JSON: ${text.slice(0, 80)}`);
        return { operation, problems };
      }
    }
    const check = compiled(`${operation.operationId}|${observed.status}|body|${documentedType}`, schema);
    if (!check(body)) problems.push(...describeSchemaErrors(check).map((e) => `${where}: body ${e}`));
    return { operation, problems };
  }

  return { index, validate };
}
