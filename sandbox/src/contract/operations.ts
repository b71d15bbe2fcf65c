/**
 * The sandbox's view of the contract: every operation of family A, family B and the sandbox
 * controls, read from the generated dereferenced OpenAPI 3.1 documents, with compiled
 * validators for its parameters and request body. Routes, validation rules, defaults,
 * required scopes, documented statuses and example data all come from here: the sandbox
 * copies nothing from the contract by hand.
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import {
  compileOpenApiSchema,
  isJsonMediaType,
  listOperations,
  loadContractDocuments,
  schemaErrorText,
  type ContractDocument,
  type ContractMedia,
  type Json,
  type ServiceId,
} from "@payment-collection/contract/model/index.ts";

export interface ParameterSpec {
  name: string;
  /** Where it travels; a cookie parameter (the contract has none) is never read. */
  in: "path" | "query" | "header" | "cookie";
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
  /** `x-required-scopes` of the operation. */
  requiredScopes: string[];
  /** The operation's example request body, if any. */
  exampleRequest?: unknown;
  /** The operation's example response bodies by status (undefined where a response has none). */
  exampleResponses: Record<string, unknown>;
}

export interface Contract {
  operations: OperationSpec[];
  /**
   * `info.version` of a service's document (the semantic version error envelope 2 carries). Asked
   * only by the handlers of a service's operations, which exist only where its document was loaded.
   */
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

function jsonMedia(content: readonly ContractMedia[]): ContractMedia | undefined {
  return content.find((m) => isJsonMediaType(m.mediaType));
}

/** Loads the contract from the generated documents (or from already loaded ones). */
export function loadContract(documents: readonly ContractDocument[] = loadContractDocuments()): Contract {
  const versions = new Map<ServiceId, string>();
  for (const { service, document } of documents) versions.set(service, String((document.info as Json).version));

  const operations: OperationSpec[] = listOperations(documents).map((op) => {
    const parameters: ParameterSpec[] = op.parameters.map((p) => ({ name: p.name, in: p.in, required: p.required, schema: p.schema, validate: compileOpenApiSchema(p.schema, op.version) }));
    const bodyMedia = op.requestBody ? jsonMedia(op.requestBody.content) : undefined;
    const body: BodySpec | undefined = bodyMedia?.schema
      ? { required: op.requestBody!.required, schema: bodyMedia.schema, validate: compileOpenApiSchema(bodyMedia.schema, op.version) }
      : undefined;
    return {
      service: op.service!,
      operationId: op.operationId,
      method: op.method,
      pathTemplate: op.path,
      routerPath: routerPathOf(op.path),
      parameters,
      body,
      requiredScopes: op.requiredScopes,
      exampleRequest: bodyMedia?.example,
      // Stryker disable next-line OptionalChaining: equivalent, every response of the contract has a JSON media type (all bodies are JSON), so none is left without one
      exampleResponses: Object.fromEntries(op.responses.map((response) => [response.status, jsonMedia(response.content)?.example])),
    };
  });

  return { operations, version: (service) => versions.get(service)! };
}

/**
 * ajv's errors as validation problems under a location prefix, each in words
 * (`schemaErrorText`: a domain format's error says why the value breaks it, read from `data`,
 * the value validated). Called once `validate` returned false, when ajv has set its errors.
 */
export function problemsOf(validate: ValidateFunction, location: string, data?: unknown): ValidationProblem[] {
  // Stryker disable next-line StringLiteral: the location is only words of the error body's details (family B's `details`, family A's `detail`), which the contract types as strings and pins no text of
  return validate.errors!.map((error) => ({ location: `${location}${error.instancePath}`, message: schemaErrorText(error, data), error }));
}

/** Problems as one line for an error body's `details`/`detail`. */
// Stryker disable all: only words of the error body's details (family B's `details`, family A's `detail`), which the contract types as strings and pins no text of
export function describeProblems(problems: readonly ValidationProblem[]): string {
  return problems
    .slice(0, 5)
    .map((p) => `${p.location}: ${p.message}`)
    .join("; ");
}
// Stryker restore all
