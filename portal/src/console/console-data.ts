/**
 * What the console of a reference page needs to know about each operation, computed at build
 * time from the contract model and the conformance profiles, so the browser only validates:
 *
 * - the request to fill in: parameters and body from the contract's examples, the API-key
 *   header of the security scheme;
 * - for every documented response, the conformance suites' expectations under `seed` (the
 *   document's word) and `full` (with the project's decisions), from `responseExpectation`;
 * - which statement or decision a problem breaks: the statements the response enforces
 *   (`statementsFor`, as the suites report them), the catalogue's property paths within them,
 *   the decisions marked along the response schema, and the members the document says a
 *   response does not carry.
 *
 * A problem that `seed` finds too breaks the document's word (a statement); one only `full`
 * finds breaks a decision.
 */
import { join } from "node:path";
import { checksFor, type Statement } from "@payment-collection/contract/statements.ts";
import {
  decidedKeywordsOf,
  decisionOf,
  isObject,
  loadDocument,
  loadFamilyContract,
  operationsOf,
  type ContractOperation,
  type FamilyContract,
  type Json,
} from "@payment-collection/contract/model/index.ts";
import * as layout from "@payment-collection/contract/model/layout.ts";
import { responseExpectation, type ResponseExpectation } from "@payment-collection/conformance/core/profiles/response-expectation.ts";
import { absentMembers, loadCatalogue, statementsFor, type Catalogue } from "@payment-collection/conformance/core/statement-map.ts";

/** Statement and decision ids found at one place of a response. */
export interface Attribution {
  statements: string[];
  decisions: string[];
}

export interface ConsoleResponse {
  seed: ResponseExpectation;
  full: ResponseExpectation;
  /** Every wire statement the response enforces (the suites' statement map). */
  statements: string[];
  /** Those that say this response exists (the status and its media type), for a problem with either. */
  statusStatements: string[];
  /** Dotted body paths (`pix.br_code`, `data[].id`; "" for the root) and what they carry. */
  bodyPaths: Record<string, Attribution>;
  /** By lower-case header name. */
  headers: Record<string, Attribution>;
  /** Members the document says this response does not carry. */
  absent: Array<{ statement: string; path: string }>;
}

export interface ConsoleParameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  /** The contract's example (parameter, then schema); undefined when none. */
  example?: unknown;
  /** The schema's format (a `uuid` header gets a fresh value per request). */
  format?: string;
}

export interface ConsoleOperation {
  operationId: string;
  method: string;
  /** Path template, e.g. `/v1/charges/{id}`. */
  path: string;
  summary: string;
  /** Header carrying the API key (the security scheme's name); undefined when the operation needs none. */
  keyHeader?: string;
  parameters: ConsoleParameter[];
  body?: { mediaType: string; required: boolean; example?: unknown };
  /** By documented status (`201`, `4XX`, ...). */
  responses: Record<string, ConsoleResponse>;
}

export interface ConsoleReference {
  service: string;
  operations: ConsoleOperation[];
}

/** Dotted paths of a response schema and the decisions marked on each node along them. */
function decisionsAlong(schema: unknown, path = "", found: Record<string, string[]> = {}, depth = 0): Record<string, string[]> {
  if (!isObject(schema) || depth > 12) return found;
  const ids = new Set(found[path] ?? []);
  const own = decisionOf(schema);
  if (own) ids.add(own);
  for (const mark of decidedKeywordsOf(schema)) ids.add(mark.decision);
  if (ids.size > 0) found[path] = [...ids].sort();
  for (const combinator of ["allOf", "anyOf", "oneOf"] as const) {
    const members = schema[combinator];
    if (Array.isArray(members)) for (const member of members) decisionsAlong(member, path, found, depth + 1);
  }
  if (isObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) decisionsAlong(property, path ? `${path}.${name}` : name, found, depth + 1);
  }
  if (isObject(schema.items)) decisionsAlong(schema.items, `${path}[]`, found, depth + 1);
  return found;
}

/** Body paths of the catalogue's property and enum checks among the statements a response enforces. */
function statementPaths(catalogue: Catalogue, family: layout.FamilyId, operationId: string, statementIds: readonly string[]): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const id of statementIds) {
    const statement = catalogue.byId.get(id) as Statement | undefined;
    if (!statement) continue;
    for (const check of checksFor(statement, family)) {
      const encoding = check as unknown as Record<string, unknown>;
      if ((encoding.check !== "property" && encoding.check !== "enum") || encoding.request === true) continue;
      if (typeof encoding.path !== "string" || typeof encoding.schema === "string") continue;
      if (encoding.operation !== operationId && encoding.operation !== "*") continue;
      (found[encoding.path] ??= []).includes(id) || found[encoding.path]!.push(id);
    }
  }
  return found;
}

/** Statements naming a response header, among those a response enforces. */
function statementHeaders(catalogue: Catalogue, family: layout.FamilyId, statementIds: readonly string[]): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const id of statementIds) {
    const statement = catalogue.byId.get(id);
    if (!statement) continue;
    for (const check of checksFor(statement, family)) {
      const encoding = check as unknown as Record<string, unknown>;
      if (encoding.check !== "response-header" || typeof encoding.name !== "string") continue;
      const name = encoding.name.toLowerCase();
      (found[name] ??= []).includes(id) || found[name]!.push(id);
    }
  }
  return found;
}

function consoleResponse(operation: ContractOperation, status: string, family: { contract: FamilyContract; catalogue: Catalogue } | null): ConsoleResponse {
  const response = operation.responses.find((candidate) => candidate.status === status)!;
  const target = family ? { family: family.contract.family, operationId: operation.operationId, status } : null;
  const statements = family && target ? statementsFor(family.catalogue, family.contract, target) : [];
  const bodyPaths: Record<string, Attribution> = {};
  const attribution = (path: string) => (bodyPaths[path] ??= { statements: [], decisions: [] });
  for (const [path, ids] of Object.entries(decisionsAlong(response.schema))) attribution(path).decisions.push(...ids);
  if (family) {
    for (const [path, ids] of Object.entries(statementPaths(family.catalogue, family.contract.family, operation.operationId, statements))) attribution(path).statements.push(...ids);
  }
  const headers: Record<string, Attribution> = {};
  for (const header of response.headers) headers[header.name.toLowerCase()] = { statements: [], decisions: header.decision ? [header.decision] : [] };
  if (family) {
    for (const [name, ids] of Object.entries(statementHeaders(family.catalogue, family.contract.family, statements))) (headers[name] ??= { statements: [], decisions: [] }).statements.push(...ids);
  }
  const statusStatements = family
    ? statements.filter((id) =>
        checksFor(family.catalogue.byId.get(id)!, family.contract.family).some((check) => {
          const encoding = check as unknown as Record<string, unknown>;
          return (encoding.check === "response" && (encoding.operation === operation.operationId || encoding.operation === "*")) || encoding.check === "operation" || encoding.check === "content-types";
        }),
      )
    : [];
  return {
    statusStatements,
    seed: responseExpectation(operation, status, "seed"),
    full: responseExpectation(operation, status, "full"),
    statements,
    bodyPaths,
    headers,
    absent: family && target ? absentMembers(family.catalogue, family.contract, target) : [],
  };
}

function exampleOfParameter(parameter: ContractOperation["parameters"][number]): unknown {
  if (parameter.example !== undefined) return parameter.example;
  const schema = parameter.schema;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  return Array.isArray(schema.enum) && schema.enum.length > 0 ? schema.enum[0] : undefined;
}

function apiKeyHeaderOf(document: Json, operation: ContractOperation): string | undefined {
  const schemes = isObject(document.components) && isObject(document.components.securitySchemes) ? document.components.securitySchemes : {};
  for (const requirement of operation.security) {
    for (const name of Object.keys(requirement)) {
      const scheme = schemes[name];
      if (isObject(scheme) && scheme.type === "apiKey" && scheme.in === "header") return String(scheme.name);
    }
  }
  return undefined;
}

/**
 * The console data of one service (a family or the sandbox controls) from the 3.0
 * dereferenced document the conformance suites read; statements only for the families.
 */
export function consoleReference(root: string, service: string, catalogue: Catalogue = loadCatalogue(join(root, "spec", "statements.yaml"))): ConsoleReference {
  const generatedDir = join(root, "generated");
  const isFamily = layout.FAMILIES.some((family) => family.id === service);
  const family = isFamily ? { contract: loadFamilyContract(service as layout.FamilyId, generatedDir), catalogue } : null;
  const { document } = loadDocument(service as layout.FamilyId, { version: "3.0", form: "dereferenced", generatedDir });
  const operations = operationsOf(document, { service: service as layout.FamilyId }).map((operation): ConsoleOperation => {
    const responses: Record<string, ConsoleResponse> = {};
    for (const response of operation.responses) responses[response.status] = consoleResponse(operation, response.status, family);
    return {
      operationId: operation.operationId,
      method: operation.method,
      path: operation.path,
      summary: operation.summary,
      keyHeader: apiKeyHeaderOf(document, operation),
      parameters: operation.parameters.map((parameter) => ({
        name: parameter.name,
        in: parameter.in,
        required: parameter.required,
        example: exampleOfParameter(parameter),
        format: typeof parameter.schema.format === "string" ? parameter.schema.format : undefined,
      })),
      body: operation.requestBody ? { mediaType: operation.requestBody.mediaType, required: operation.requestBody.required, example: operation.requestBody.example } : undefined,
      responses,
    };
  });
  return { service, operations };
}

