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
  domainFormatReason,
  isJsonMediaType,
  listOperations,
  loadContractDocuments,
  type ContractDocument,
  type ContractMedia,
  type Json,
  type ServiceId,
} from "@payment-collection/contract/model/index.ts";

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

function jsonMedia(content: readonly ContractMedia[]): ContractMedia | undefined {
  return content.find((m) => isJsonMediaType(m.mediaType));
}

/** Loads the contract from the generated documents (or from already loaded ones). */
export function loadContract(documents: readonly ContractDocument[] = loadContractDocuments()): Contract {
  const versions = new Map<ServiceId, string>();
  for (const { service, document } of documents) versions.set(service, String((document.info as Json).version));

  const operations: OperationSpec[] = listOperations(documents).map((op) => {
    const parameters: ParameterSpec[] = op.parameters
      .filter((p): p is typeof p & { in: ParameterSpec["in"] } => p.in !== "cookie")
      .map((p) => ({ name: p.name, in: p.in, required: p.required, schema: p.schema, validate: compileOpenApiSchema(p.schema, op.version) }));
    const bodyMedia = op.requestBody ? jsonMedia(op.requestBody.content) : undefined;
    const body: BodySpec | undefined = bodyMedia?.schema
      ? { required: op.requestBody!.required, schema: bodyMedia.schema, validate: compileOpenApiSchema(bodyMedia.schema, op.version) }
      : undefined;
    const exampleResponses: Record<string, unknown> = {};
    for (const response of op.responses) {
      const example = jsonMedia(response.content)?.example;
      if (example !== undefined) exampleResponses[response.status] = example;
    }
    return {
      service: op.service!,
      operationId: op.operationId,
      method: op.method,
      pathTemplate: op.path,
      routerPath: routerPathOf(op.path),
      parameters,
      body,
      statuses: new Set(op.responses.map((r) => r.status).filter((s) => /^\d{3}$/.test(s)).map(Number)),
      requiredScopes: op.requiredScopes,
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
      const version = versions.get(service);
      if (version === undefined) throw new Error(`no contract document for ${service}`);
      return version;
    },
  };
}

/**
 * ajv's errors as validation problems under a location prefix; a domain format's error says why
 * the value breaks it (the contract's reason: a CPF's check digits, a PIX key's forms), read
 * from `data`, the value validated.
 */
export function problemsOf(validate: ValidateFunction, location: string, data?: unknown): ValidationProblem[] {
  return (validate.errors ?? []).map((error) => {
    const where = error.instancePath ? `${location}${error.instancePath}` : location;
    const params = error.keyword === "additionalProperties" || error.keyword === "required" ? ` (${JSON.stringify(error.params)})` : "";
    const reason = domainFormatReason(error, data);
    const message = `${error.message ?? error.keyword}${params}${reason === undefined ? "" : `: ${reason}`}`;
    return { location: where, message, error };
  });
}

/** Problems as one line for an error body's `details`/`detail`. */
export function describeProblems(problems: readonly ValidationProblem[]): string {
  return problems
    .slice(0, 5)
    .map((p) => `${p.location}: ${p.message}`)
    .join("; ");
}
