/**
 * The generated contract as the conformance suites read it: for each family, its operations
 * with their documented responses, decision markings, request examples and schemas.
 *
 * Dredd reads the 3.0 YAML (its OpenAPI 3 parser knows 3.0 only); schemas come from the 3.0
 * dereferenced JSON of the same build, so both views are of one document.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CONTRACT_ROOT, FAMILIES, GENERATED_DIR, openapiPath, type FamilyId } from "./layout.ts";

export type FamilyLetter = "a" | "b";
export const FAMILY_LETTERS: readonly FamilyLetter[] = ["a", "b"];

export const ROOT = CONTRACT_ROOT;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The aspects of a response that a decision fixed (`x-decided-responses`). */
export type DecidedAspect = "status" | "content-type" | "body";

export interface ContractHeader {
  name: string;
  required: boolean;
  /** OpenAPI 3.0 schema of the header value. */
  schema: Json;
  /** The header exists because of a decision. */
  decision?: string;
}

export interface ContractResponse {
  status: string;
  description: string;
  /** The documented media type of the body; undefined when the response has no body. */
  mediaType?: string;
  /** OpenAPI 3.0 schema of the body (dereferenced). */
  schema?: Json;
  headers: ContractHeader[];
  decided?: { decision: string; aspects: DecidedAspect[] };
}

export interface ContractParameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  schema: Json;
  example?: unknown;
  /** The parameter exists because of a decision (`x-basis` or `x-decided-parameters`). */
  decision?: string;
}

export interface ContractOperation {
  family: FamilyLetter;
  operationId: string;
  /** Upper-case HTTP method. */
  method: string;
  /** Path template as published, e.g. `/api/sdk/customers/{id}`. */
  path: string;
  summary: string;
  parameters: ContractParameter[];
  requestBody?: { mediaType: string; schema: Json; example?: unknown; required: boolean };
  responses: ContractResponse[];
  requiredScopes: string[];
}

export interface FamilyContract {
  family: FamilyLetter;
  id: FamilyId;
  title: string;
  /** Absolute path of the 3.0 YAML document (what Dredd reads). */
  dreddDocument: string;
  /** Absolute path of the 3.0 YAML document Prism serves. */
  mockDocument: string;
  /** The dereferenced 3.0 document. */
  document: Json;
  /** The 3.0 document with its `$ref`s (component names stay visible). */
  referenced: Json;
  /** Name and header of the API key security scheme. */
  apiKeyHeader: string;
  operations: ContractOperation[];
}

export function familyId(letter: FamilyLetter): FamilyId {
  return letter === "a" ? "family-a" : "family-b";
}

const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

function decisionOf(node: unknown): string | undefined {
  return isObject(node) && node["x-basis"] === "decision" && typeof node["x-decision"] === "string" ? node["x-decision"] : undefined;
}

function readOperation(family: FamilyLetter, method: string, path: string, op: Json): ContractOperation {
  const decidedParameters = isObject(op["x-decided-parameters"]) ? (op["x-decided-parameters"] as Record<string, string>) : {};
  const parameters: ContractParameter[] = (Array.isArray(op.parameters) ? op.parameters : []).filter(isObject).map((p) => ({
    name: String(p.name),
    in: p.in as ContractParameter["in"],
    required: p.required === true,
    schema: isObject(p.schema) ? p.schema : {},
    example: p.example,
    decision: decisionOf(p) ?? decidedParameters[String(p.name)],
  }));
  let requestBody: ContractOperation["requestBody"];
  if (isObject(op.requestBody) && isObject(op.requestBody.content)) {
    const [mediaType, media] = Object.entries(op.requestBody.content)[0] ?? [];
    if (mediaType && isObject(media)) {
      requestBody = {
        mediaType,
        schema: isObject(media.schema) ? media.schema : {},
        example: media.example,
        required: op.requestBody.required === true,
      };
    }
  }
  const decidedResponses = isObject(op["x-decided-responses"]) ? op["x-decided-responses"] : {};
  const responses: ContractResponse[] = Object.entries(isObject(op.responses) ? op.responses : {}).map(([status, raw]) => {
    const response = isObject(raw) ? raw : {};
    const [mediaType, media] = isObject(response.content) ? (Object.entries(response.content)[0] ?? []) : [];
    const headers: ContractHeader[] = Object.entries(isObject(response.headers) ? response.headers : {}).map(([name, h]) => ({
      name,
      required: isObject(h) && h.required === true,
      schema: isObject(h) && isObject(h.schema) ? h.schema : {},
      decision: decisionOf(h),
    }));
    const decided = decidedResponses[status];
    return {
      status,
      description: typeof response.description === "string" ? response.description : "",
      mediaType: typeof mediaType === "string" ? mediaType : undefined,
      schema: isObject(media) && isObject(media.schema) ? media.schema : undefined,
      headers,
      decided: isObject(decided)
        ? { decision: String(decided.decision), aspects: (Array.isArray(decided.aspects) ? decided.aspects : []) as DecidedAspect[] }
        : undefined,
    };
  });
  return {
    family,
    operationId: String(op.operationId),
    method: method.toUpperCase(),
    path,
    summary: typeof op.summary === "string" ? op.summary : "",
    parameters,
    requestBody,
    responses,
    requiredScopes: Array.isArray(op["x-required-scopes"]) ? op["x-required-scopes"].map(String) : [],
  };
}

const cache = new Map<string, FamilyContract>();

/** Loads one family's contract from `generated/` (or another build output folder). */
export function loadFamilyContract(family: FamilyLetter, generatedDir = GENERATED_DIR): FamilyContract {
  const key = `${generatedDir}:${family}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const id = familyId(family);
  const document = JSON.parse(readFileSync(resolve(generatedDir, openapiPath("3.0", id, "dereferenced.json")), "utf8")) as Json;
  const referenced = JSON.parse(readFileSync(resolve(generatedDir, openapiPath("3.0", id, "json")), "utf8")) as Json;
  const operations: ContractOperation[] = [];
  for (const [path, item] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (isObject(op)) operations.push(readOperation(family, method, path, op));
    }
  }
  const schemes = isObject(document.components) && isObject(document.components.securitySchemes) ? document.components.securitySchemes : {};
  const apiKey = Object.values(schemes).find((s) => isObject(s) && s.type === "apiKey" && s.in === "header");
  const contract: FamilyContract = {
    family,
    id,
    title: FAMILIES.find((f) => f.id === id)!.title,
    dreddDocument: resolve(generatedDir, openapiPath("3.0", id, "yaml")),
    mockDocument: resolve(generatedDir, openapiPath("3.0", id, "yaml")),
    document,
    referenced,
    apiKeyHeader: isObject(apiKey) ? String(apiKey.name) : "x-api-key",
    operations,
  };
  cache.set(key, contract);
  return contract;
}

export function findOperation(contract: FamilyContract, operationId: string): ContractOperation {
  const op = contract.operations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`family ${contract.family}: no operation ${operationId} in the contract`);
  return op;
}

export function findResponse(op: ContractOperation, status: string): ContractResponse {
  const response = op.responses.find((r) => r.status === status);
  if (!response) throw new Error(`${op.operationId}: no documented ${status} response`);
  return response;
}

/** Every documented (operation, status) pair of a family: the coverage universe. */
export function documentedPairs(contract: FamilyContract): Array<{ operationId: string; status: string }> {
  return contract.operations.flatMap((op) => op.responses.map((r) => ({ operationId: op.operationId, status: r.status })));
}

/**
 * Names of the component schemas a response body reaches through `$ref` (transitively), read
 * from the referenced document. Lets statements that name a schema map to the responses that
 * carry it.
 */
export function schemasReachedBy(contract: FamilyContract, operationId: string, status: string, request = false): Set<string> {
  const names = new Set<string>();
  const schemas = isObject(contract.referenced.components) && isObject(contract.referenced.components.schemas) ? contract.referenced.components.schemas : {};
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (!isObject(node)) return;
    if (typeof node.$ref === "string" && node.$ref.startsWith("#/components/schemas/")) {
      const name = node.$ref.slice("#/components/schemas/".length);
      if (!names.has(name)) {
        names.add(name);
        visit(schemas[name]);
      }
      return;
    }
    for (const value of Object.values(node)) visit(value);
  };
  for (const item of Object.values(isObject(contract.referenced.paths) ? contract.referenced.paths : {})) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op) || op.operationId !== operationId) continue;
      if (request) visit(isObject(op.requestBody) ? op.requestBody.content : undefined);
      else visit(isObject(op.responses) && isObject(op.responses[status]) ? (op.responses[status] as Json).content : undefined);
    }
  }
  return names;
}
