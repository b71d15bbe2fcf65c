/**
 * The one operation type of the contract, and the one walk over a document's paths that
 * produces it. Every product reads operations from here: the conformance suites, the
 * sandbox's routes, the portal's pages, the encoding checks and the response validator.
 *
 * Works on any OpenAPI 3.0/3.1 document, referenced or dereferenced: parameters, bodies,
 * responses and headers are followed through `$ref`; schemas are kept as the document has
 * them (a referenced document keeps its schema `$ref`s, so component names stay visible).
 */
import type { ServiceId, ContractDocument } from "./documents.ts";
import { familyOf, openApiVersionOf } from "./documents.ts";
import { asList, isObject, type Json } from "./json.ts";
import type { FamilyId, OpenApiVersionId } from "./layout.ts";
import { decidedKeywordsOf, decisionOf, operationMarkings, type DecidedKeywords, type DecidedResponse, type OperationMarkings } from "./markings.ts";
import { deref } from "./refs.ts";
import { listFilterOf, type ListFilter } from "./list-filters.ts";

/** Lower-case HTTP methods, as keys of a Path Item Object. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** First example value of a parameter, media type or schema, as the contract gives it. */
export function exampleOf(node: unknown): { found: true; value: unknown } | { found: false } {
  if (!isObject(node)) return { found: false };
  if ("example" in node) return { found: true, value: node.example };
  if (isObject(node.examples)) {
    const first = Object.values(node.examples)[0];
    if (isObject(first) && "value" in first) return { found: true, value: first.value };
  }
  if (Array.isArray(node.examples) && node.examples.length > 0) return { found: true, value: node.examples[0] };
  return { found: false };
}

/** One media type of a body. */
export interface ContractMedia {
  mediaType: string;
  /** The schema as the document has it (OpenAPI schema of the document's version). */
  schema?: Json;
  example?: unknown;
}

export interface ContractHeader {
  name: string;
  required: boolean;
  schema: Json;
  description?: string;
  /** The header exists because of a decision. */
  decision?: string;
}

export interface ContractParameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  schema: Json;
  description?: string;
  example?: unknown;
  /** The parameter exists because of a decision (`x-basis` or `x-decided-parameters`). */
  decision?: string;
  /** `x-decided` entries of the parameter (and its schema). */
  decided: DecidedKeywords[];
  /** What the parameter keeps of a list (`x-list-filter`), when it is a list filter. */
  listFilter?: ListFilter;
  /** The Parameter Object (after `$ref`). */
  raw: Json;
}

export interface ContractRequestBody {
  required: boolean;
  /** The first documented media type, its schema and example (what most readers want). */
  mediaType: string;
  schema: Json;
  example?: unknown;
  /** Every documented media type. */
  content: ContractMedia[];
  raw: Json;
}

export interface ContractResponse {
  /** The key under `responses`: `200`, `4XX`, `default`. */
  status: string;
  description: string;
  /** The first documented media type; undefined when the response has no body. */
  mediaType?: string;
  schema?: Json;
  example?: unknown;
  /** Every documented media type. */
  content: ContractMedia[];
  headers: ContractHeader[];
  /** `x-decided-responses` of the operation for this status. */
  decided?: DecidedResponse;
  /** The Response Object (after `$ref`). */
  raw: Json;
}

/** The rate-limit buckets an operation counts against (Limits table of the document). */
export type RateLimitBucket = "general" | "transactions" | "pix" | "queries";

/** One entry of the operation extension `x-rate-limits`. */
export interface RateLimit {
  bucket: RateLimitBucket;
  /** Requests (or creations) admitted per window under the default plan (decision D27). */
  limit: number;
  window: "minute";
}

/** The `x-rate-limits` entries of a raw Operation Object (well-formed entries only). */
export function rateLimitsOf(operation: unknown): RateLimit[] {
  if (!isObject(operation) || !Array.isArray(operation["x-rate-limits"])) return [];
  return operation["x-rate-limits"]
    .filter(isObject)
    .filter((e) => ["general", "transactions", "pix", "queries"].includes(String(e.bucket)) && typeof e.limit === "number" && e.window === "minute")
    .map((e) => ({ bucket: e.bucket as RateLimitBucket, limit: e.limit as number, window: "minute" as const }));
}

/** A Security Requirement Object: scheme name -> scopes. */
export type SecurityRequirement = Record<string, string[]>;

export interface ContractOperation {
  /** The service of the generated document, when the operation was read from one. */
  service?: ServiceId;
  /** The family (undefined for the sandbox controls and documents of no service). */
  family?: FamilyId;
  /** The OpenAPI version of the document the operation was read from. */
  version: OpenApiVersionId;
  /** operationId, or `METHOD /path` when the document gives none. */
  operationId: string;
  /** Upper-case HTTP method. */
  method: string;
  /** Path template as published, e.g. `/api/sdk/customers/{id}`. */
  path: string;
  /** The same as `path` (the name the sandbox's code reads). */
  pathTemplate: string;
  summary: string;
  description: string;
  tags: string[];
  /** Path-level and operation-level parameters merged (the operation's win). */
  parameters: ContractParameter[];
  requestBody?: ContractRequestBody;
  responses: ContractResponse[];
  /** The effective security requirements (the operation's, else the document's). */
  security: SecurityRequirement[];
  /** `x-required-scopes`. */
  requiredScopes: string[];
  /**
   * `x-rate-limits`: the published per-minute limits the operation counts against (every
   * operation `general`; creations and queries their own bucket too). Empty when the
   * document carries none (the sandbox controls).
   */
  rateLimits: RateLimit[];
  /** Decision markings of the operation. */
  markings: OperationMarkings;
  /** The raw Operation Object: extensions, and the place portal decorations are written to. */
  operation: Json;
  /** The raw Path Item Object holding it. */
  pathItem: Json;
}

function mediaOf(document: Json, content: unknown): ContractMedia[] {
  return Object.entries(isObject(content) ? content : {}).map(([mediaType, raw]) => {
    const media = deref<unknown>(document, raw);
    const example = exampleOf(media);
    return {
      mediaType,
      schema: isObject(media) && isObject(media.schema) ? media.schema : undefined,
      example: example.found ? example.value : undefined,
    };
  });
}

function readParameters(document: Json, operation: Json, pathItem: Json, decidedByName: Record<string, string>): ContractParameter[] {
  const byKey = new Map<string, Json>();
  for (const raw of [...asList(pathItem.parameters as unknown[]), ...asList(operation.parameters as unknown[])]) {
    const parameter = deref<unknown>(document, raw);
    if (isObject(parameter)) byKey.set(`${String(parameter.in)}:${String(parameter.name)}`, parameter);
  }
  return [...byKey.values()].map((p) => {
    const schema = isObject(p.schema) ? p.schema : {};
    const example = exampleOf(p);
    return {
      name: String(p.name),
      in: p.in as ContractParameter["in"],
      required: p.required === true,
      schema,
      description: typeof p.description === "string" ? p.description : undefined,
      example: example.found ? example.value : undefined,
      decision: decisionOf(p) ?? decidedByName[String(p.name)],
      // A dereferenced document repeats a parameter's marking on its schema: keep each once.
      decided: [...decidedKeywordsOf(p), ...decidedKeywordsOf(deref(document, schema))].filter(
        (entry, index, all) => all.findIndex((other) => JSON.stringify(other) === JSON.stringify(entry)) === index,
      ),
      ...(listFilterOf(p) ? { listFilter: listFilterOf(p) } : {}),
      raw: p,
    };
  });
}

function readRequestBody(document: Json, operation: Json): ContractRequestBody | undefined {
  const body = deref<unknown>(document, operation.requestBody);
  if (!isObject(body)) return undefined;
  const content = mediaOf(document, body.content);
  const first = content[0];
  if (!first) return undefined;
  return { required: body.required === true, mediaType: first.mediaType, schema: first.schema ?? {}, example: first.example, content, raw: body };
}

function readResponses(document: Json, operation: Json, decided: Record<string, DecidedResponse>): ContractResponse[] {
  return Object.entries(isObject(operation.responses) ? operation.responses : {}).flatMap(([status, raw]) => {
    const response = deref<unknown>(document, raw);
    if (!isObject(response)) return [];
    const content = mediaOf(document, response.content);
    const headers: ContractHeader[] = Object.entries(isObject(response.headers) ? response.headers : {}).map(([name, rawHeader]) => {
      const header = deref<unknown>(document, rawHeader);
      return {
        name,
        required: isObject(header) && header.required === true,
        schema: isObject(header) && isObject(header.schema) ? header.schema : {},
        description: isObject(header) && typeof header.description === "string" ? header.description : undefined,
        decision: decisionOf(header),
      };
    });
    return [
      {
        status,
        description: typeof response.description === "string" ? response.description : "",
        mediaType: content[0]?.mediaType,
        schema: content[0]?.schema,
        example: content[0]?.example,
        content,
        headers,
        decided: decided[status],
        raw: response,
      },
    ];
  });
}

function readSecurity(document: Json, operation: Json): SecurityRequirement[] {
  return asList((operation.security ?? document.security) as unknown[] | undefined)
    .filter(isObject)
    .map((requirement) => Object.fromEntries(Object.entries(requirement).map(([scheme, scopes]) => [scheme, asList(scopes as string[]).map(String)])));
}

/**
 * Every operation of a document, in document order. `service` tags the operations with the
 * generated document they come from (and its family).
 */
export function operationsOf(document: Json, options: { service?: ServiceId } = {}): ContractOperation[] {
  const version = openApiVersionOf(document);
  const family = options.service ? familyOf(options.service) : undefined;
  const operations: ContractOperation[] = [];
  for (const [path, rawItem] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    const pathItem = deref<unknown>(document, rawItem);
    if (!isObject(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      const markings = operationMarkings(operation);
      operations.push({
        service: options.service,
        family,
        version,
        operationId: typeof operation.operationId === "string" ? operation.operationId : `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathTemplate: path,
        summary: typeof operation.summary === "string" ? operation.summary : "",
        description: typeof operation.description === "string" ? operation.description : "",
        tags: Array.isArray(operation.tags) ? operation.tags.map(String) : [],
        parameters: readParameters(document, operation, pathItem, markings.parameters),
        requestBody: readRequestBody(document, operation),
        responses: readResponses(document, operation, markings.responses),
        security: readSecurity(document, operation),
        requiredScopes: Array.isArray(operation["x-required-scopes"]) ? operation["x-required-scopes"].map(String) : [],
        rateLimits: rateLimitsOf(operation),
        markings,
        operation,
        pathItem,
      });
    }
  }
  return operations;
}

/** The path templates a document declares, operations or not. */
export function pathTemplatesOf(document: Json): string[] {
  return Object.keys(isObject(document.paths) ? document.paths : {});
}

/** The operations of several loaded documents, each tagged with its service. */
export function listOperations(documents: readonly ContractDocument[]): ContractOperation[] {
  return documents.flatMap(({ service, document }) => operationsOf(document, { service }));
}

/** A parameter of an operation by location and name (header names compare case-insensitively). */
export function parameterOf(operation: ContractOperation, name: string, where: ContractParameter["in"]): ContractParameter | undefined {
  return operation.parameters.find((p) => p.in === where && (where === "header" ? p.name.toLowerCase() === name.toLowerCase() : p.name === name));
}

/** The documented response for an actual status: exact code, then its range (`4XX`), then `default`. */
export function responseFor(operation: ContractOperation, status: number | string): ContractResponse | undefined {
  const code = String(status);
  return (
    operation.responses.find((r) => r.status === code) ??
    operation.responses.find((r) => r.status.toUpperCase() === `${code[0]}XX`) ??
    operation.responses.find((r) => r.status === "default")
  );
}
