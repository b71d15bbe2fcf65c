/**
 * Request examples read from the generated OpenAPI documents, so the tests call every
 * operation with the contract's own examples instead of hand-copied bodies.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "@payment-collection/contract/build/contract-build.ts";
import { openapiPath, type FamilyId } from "@payment-collection/contract/model/layout.ts";

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

export function loadDocument(family: FamilyId): Json {
  return JSON.parse(readFileSync(join(ROOT, "generated", openapiPath("3.1", family, "dereferenced.json")), "utf8"));
}

/** Every operation of a family with its parameter and body examples. */
export function operationExamples(family: FamilyId): OperationExample[] {
  const document = loadDocument(family);
  const operations: OperationExample[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      if (typeof operation !== "object" || !operation.operationId) continue;
      const params: OperationExample["params"] = { path: {}, query: {} };
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === "path") params.path[parameter.name] = String(parameter.example);
        if (parameter.in === "query" && parameter.example !== undefined) params.query[parameter.name] = parameter.example;
      }
      const media = operation.requestBody?.content?.["application/json"];
      operations.push({ operationId: operation.operationId, method: method.toUpperCase(), path, params, body: media?.example });
    }
  }
  return operations;
}

/** The example of one operation, by operationId. */
export function exampleOf(family: FamilyId, operationId: string): OperationExample {
  const found = operationExamples(family).find((operation) => operation.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId} in ${family}`);
  return found;
}
