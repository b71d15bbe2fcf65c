/**
 * The sandbox's view of the contract: every operation of family A, family B and the sandbox
 * controls, read from the generated dereferenced OpenAPI 3.1 documents, with compiled
 * validators for its parameters and request body. Routes, validation rules, defaults,
 * required scopes, documented statuses and example data all come from here: the sandbox
 * copies nothing from the contract by hand.
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import { compileOpenApiSchema } from "@payment-collection/contract/model/json-schema.ts";
import {
  listOperations,
  loadContractDocuments,
  type ContractDocument,
  type ServiceId,
} from "@payment-collection/contract/model/response-validator.ts";

type Json = Record<string, unknown>;

export interface ParameterSpec {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: Json;
  validate: ValidateFunction;
}

export interface BodySpec {
  required: boolean;
  schema: Json;
  validate: ValidateFunction;
}

export interface OperationSpec {
  service: ServiceId;
  operationId: string;
  method: string;
  /** OpenAPI path template, e.g. `/pix/{pixId}`. */
  pathTemplate: string;
  /** The same path in find-my-way syntax, e.g. `/pix/:pixId`. */
  routerPath: string;
  parameters: ParameterSpec[];
  body?: BodySpec;
  /** Statuses the contract documents for the operation. */
  statuses: Set<number>;
  /** `x-required-scopes` of the operation. */
  requiredScopes: string[];
  /** The operation's example request body, if any. */
  exampleRequest?: unknown;
  /** The operation's example response bodies by status. */
  exampleResponses: Record<string, unknown>;
}

export interface Contract {
  operations: OperationSpec[];
  operation(operationId: string): OperationSpec;
  /** `info.version` of a service's document (the semantic version error envelope 2 carries). */
  version(service: ServiceId): string;
}

/** A validation failure, phrased for the `details` of an error body. */
export interface ValidationProblem {
  /** Where: `body`, `body/amount`, `query page`, `header X-Idempotency-Key`. */
  location: string;
  message: string;
  /** The ajv error, when a schema found the problem. */
  error?: ErrorObject;
}

function routerPathOf(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ":$1");
}

function jsonMediaType(content: Record<string, Json> | undefined): Json | undefined {
  if (!content) return undefined;
  const key = Object.keys(content).find((k) => k === "application/json" || k.endsWith("+json"));
  return key ? content[key] : undefined;
}

/** Loads the contract from the generated documents (or from already loaded ones). */
export function loadContract(documents: readonly ContractDocument[] = loadContractDocuments()): Contract {
  const versions = new Map<ServiceId, string>();
  for (const { service, document } of documents) versions.set(service, String((document.info as Json | undefined)?.version ?? "1.0.0"));

  const operations: OperationSpec[] = listOperations(documents).map((op) => {
    const operation = op.operation;
    const parameters: ParameterSpec[] = ((operation.parameters ?? []) as Json[]).map((p) => ({
      name: String(p.name),
      in: p.in as ParameterSpec["in"],
      required: p.required === true,
      schema: (p.schema ?? {}) as Json,
      validate: compileOpenApiSchema(p.schema ?? {}, "3.1"),
    }));
    const requestBody = operation.requestBody as Json | undefined;
    const bodyMedia = jsonMediaType(requestBody?.content as Record<string, Json> | undefined);
    const body: BodySpec | undefined = bodyMedia?.schema
      ? {
          required: requestBody?.required === true,
          schema: bodyMedia.schema as Json,
          validate: compileOpenApiSchema(bodyMedia.schema, "3.1"),
        }
      : undefined;
    const responses = (operation.responses ?? {}) as Record<string, Json>;
    const exampleResponses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(responses)) {
      const media = jsonMediaType(response.content as Record<string, Json> | undefined);
      if (media?.example !== undefined) exampleResponses[status] = media.example;
    }
    return {
      service: op.service,
      operationId: op.operationId,
      method: op.method,
      pathTemplate: op.pathTemplate,
      routerPath: routerPathOf(op.pathTemplate),
      parameters,
      body,
      statuses: new Set(Object.keys(responses).filter((s) => /^\d{3}$/.test(s)).map(Number)),
      requiredScopes: (operation["x-required-scopes"] as string[] | undefined) ?? [],
      exampleRequest: bodyMedia?.example,
      exampleResponses,
    };
  });

  const byId = new Map(operations.map((op) => [op.operationId, op]));
  return {
    operations,
    operation(operationId) {
      const found = byId.get(operationId);
      if (!found) throw new Error(`the contract has no operation ${operationId}`);
      return found;
    },
    version(service) {
      return versions.get(service) ?? "1.0.0";
    },
  };
}

/** ajv's errors as validation problems under a location prefix. */
export function problemsOf(validate: ValidateFunction, location: string): ValidationProblem[] {
  return (validate.errors ?? []).map((error) => {
    const where = error.instancePath ? `${location}${error.instancePath}` : location;
    const params = error.keyword === "additionalProperties" || error.keyword === "required" ? ` (${JSON.stringify(error.params)})` : "";
    return { location: where, message: `${error.message ?? error.keyword}${params}`, error };
  });
}

/** Problems as one line for an error body's `details`/`detail`. */
export function describeProblems(problems: readonly ValidationProblem[]): string {
  return problems
    .slice(0, 5)
    .map((p) => `${p.location}: ${p.message}`)
    .join("; ");
}
