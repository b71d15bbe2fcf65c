/**
 * The generated contract as the conformance suites read it: for each family, its operations
 * (operations.ts) read from the 3.0 dereferenced document, and the 3.0 referenced document
 * for component names.
 *
 * Dredd reads the 3.0 YAML (its OpenAPI 3 parser knows 3.0 only); schemas come from the 3.0
 * dereferenced JSON of the same build, so both views are of one document.
 */
import { resolve } from "node:path";
import { loadDocument } from "./documents.ts";
import { isObject, type Json } from "./json.ts";
import { CONTRACT_ROOT, FAMILIES, GENERATED_DIR, openapiPath, type FamilyId } from "./layout.ts";
import { operationsOf, type ContractOperation, type ContractResponse } from "./operations.ts";
import { componentSchemasReachedBy } from "./refs.ts";

export const ROOT = CONTRACT_ROOT;

export interface FamilyContract {
  family: FamilyId;
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

const cache = new Map<string, FamilyContract>();

/** The header names of a document's API-key security schemes that travel in a header, in document order. */
export function apiKeyHeadersOf(document: Json): string[] {
  const components = document.components;
  const schemes = isObject(components) && isObject(components.securitySchemes) ? components.securitySchemes : {};
  return Object.values(schemes)
    .filter((scheme) => isObject(scheme) && scheme.type === "apiKey" && scheme.in === "header")
    .map((scheme) => String((scheme as Json).name));
}

/** Loads one family's contract from `generated/` (or another build output folder). */
export function loadFamilyContract(family: FamilyId, generatedDir = GENERATED_DIR): FamilyContract {
  const key = `${generatedDir}:${family}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const { document } = loadDocument(family, { version: "3.0", form: "dereferenced", generatedDir });
  const { document: referenced } = loadDocument(family, { version: "3.0", form: "referenced", generatedDir });
  const contract: FamilyContract = {
    family,
    title: FAMILIES.find((f) => f.id === family)!.title,
    dreddDocument: resolve(generatedDir, openapiPath("3.0", family, "yaml")),
    mockDocument: resolve(generatedDir, openapiPath("3.0", family, "yaml")),
    document,
    referenced,
    apiKeyHeader: apiKeyHeadersOf(document)[0] ?? "x-api-key",
    operations: operationsOf(document, { service: family }),
  };
  cache.set(key, contract);
  return contract;
}

export function findOperation(contract: FamilyContract, operationId: string): ContractOperation {
  const op = contract.operations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`${contract.family}: no operation ${operationId} in the contract`);
  return op;
}

/** The response documented under exactly this status key. */
export function findResponse(op: ContractOperation, status: string): ContractResponse {
  const response = op.responses.find((r) => r.status === status);
  if (!response) throw new Error(`${op.operationId}: no documented ${status} response`);
  return response;
}

/** Every documented (operation, status) pair of a family: the coverage universe. */
export function documentedPairs(contract: FamilyContract): Array<{ operationId: string; status: string }> {
  return contract.operations.flatMap((op) => op.responses.map((r) => ({ operationId: op.operationId, status: r.status })));
}

const referencedOperationsCache = new WeakMap<Json, ContractOperation[]>();

/**
 * Names of the component schemas a response body (or, with `request`, the request body)
 * reaches through `$ref`, read from the referenced document.
 */
export function schemasReachedBy(contract: FamilyContract, operationId: string, status: string, request = false): Set<string> {
  const names = new Set<string>();
  let referencedOperations = referencedOperationsCache.get(contract.referenced);
  if (!referencedOperations) {
    referencedOperations = operationsOf(contract.referenced);
    referencedOperationsCache.set(contract.referenced, referencedOperations);
  }
  for (const op of referencedOperations) {
    if (op.operationId !== operationId) continue;
    const node = request ? (isObject(op.operation.requestBody) ? op.operation.requestBody.content : undefined) : op.responses.find((r) => r.status === status)?.raw.content;
    for (const name of componentSchemasReachedBy(contract.referenced, node)) names.add(name);
  }
  return names;
}
