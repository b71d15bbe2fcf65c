/**
 * Request examples read from the generated OpenAPI documents through the contract model, so
 * the tests call every operation with the contract's own examples instead of hand-copied bodies.
 */
import { loadDocument as loadContractDocument, operationsOf, responseFor, type FamilyId } from "@payment-collection/contract/model/index.ts";

/** Tests read document members freely. */
type Json = Record<string, any>;

export interface OperationExample {
  operationId: string;
  method: string;
  path: string;
  /** Parameter examples by location and name. */
  params: { path: Record<string, string>; query: Record<string, unknown> };
  /** The request body example, when the operation has a body. */
  body: unknown;
}

/** A family's 3.1 dereferenced document, for tests that read its servers or security schemes. */
export function loadDocument(family: FamilyId): Json {
  return loadContractDocument(family).document;
}

function operations(family: FamilyId) {
  return operationsOf(loadDocument(family), { service: family });
}

/** Every operation of a family with its parameter and body examples. */
export function operationExamples(family: FamilyId): OperationExample[] {
  return operations(family).map((operation) => {
    const params: OperationExample["params"] = { path: {}, query: {} };
    for (const parameter of operation.parameters) {
      if (parameter.in === "path") params.path[parameter.name] = String(parameter.example);
      if (parameter.in === "query" && parameter.example !== undefined) params.query[parameter.name] = parameter.example;
    }
    const body = operation.requestBody?.content.find((media) => media.mediaType === "application/json")?.example;
    return { operationId: operation.operationId, method: operation.method, path: operation.path, params, body };
  });
}

/** The example of one operation, by operationId. */
export function exampleOf(family: FamilyId, operationId: string): OperationExample {
  const found = operationExamples(family).find((operation) => operation.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId} in ${family}`);
  return found;
}

/** The contract's example response body of an operation for a status, if it documents one. */
export function responseExample(family: FamilyId, operationId: string, status: number): unknown {
  const operation = operations(family).find((candidate) => candidate.operationId === operationId);
  if (!operation) throw new Error(`no operation ${operationId} in ${family}`);
  return responseFor(operation, status)?.content.find((media) => media.example !== undefined)?.example;
}
