/**
 * Checks one HTTP response against a response expectation (status, media type, headers, body
 * schema). Used for every response the suites see outside Dredd's own validation: the extra
 * probes, the pacing of requests, and the behaviour scenarios.
 */
import {
  compileJsonSchema,
  headerValue as typedHeaderValue,
  parseJsonBody,
  schemaProblems as validationProblems,
  type JsonSchema,
} from "@payment-collection/contract/model/index.ts";
import {
  describeStatusRule,
  isJsonMediaType,
  mediaTypeAccepted,
  statusAccepted,
  type ResponseExpectation,
} from "./profiles/response-expectation.ts";

export { parseJsonBody };

/** A response as the suites see it: header names in lower case, the body as text. */
export interface ObservedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A header value as JSON Schema sees it (typed by its schema when given; else numbers as numbers). */
export function headerValue(raw: string, schema?: JsonSchema): unknown {
  return typedHeaderValue(raw, schema);
}

/**
 * Validates a value against a schema the expectations converted to JSON Schema (draft-07:
 * they come from the 3.0 documents); returns readable problems. Validation is the model's.
 */
export function schemaProblems(schema: JsonSchema, value: unknown, label: string): string[] {
  return validationProblems(compileJsonSchema(schema, "3.0"), value, label);
}

/** Problems with the status code alone. */
export function statusProblems(expectation: ResponseExpectation, response: ObservedResponse): string[] {
  return statusAccepted(expectation.statusRule, response.status)
    ? []
    : [`status ${response.status}, expected ${describeStatusRule(expectation.statusRule)}`];
}

/** Problems with the headers: required ones present, present ones of the documented type. */
export function headerProblems(expectation: ResponseExpectation, response: ObservedResponse): string[] {
  const problems: string[] = [];
  for (const header of expectation.headers) {
    const raw = response.headers[header.name.toLowerCase()];
    if (raw === undefined) {
      if (header.required) problems.push(`header ${header.name} missing (required by the contract)`);
      continue;
    }
    problems.push(...schemaProblems(header.schema, headerValue(raw, header.schema), `header ${header.name}`));
  }
  return problems;
}

/** Problems with the media type and body. */
export function bodyProblems(expectation: ResponseExpectation, response: ObservedResponse): string[] {
  if (!expectation.mediaType) return [];
  if (!expectation.bodySchema && response.body.length === 0) return [];
  const problems: string[] = [];
  const contentType = response.headers["content-type"];
  if (!mediaTypeAccepted(expectation.mediaType, contentType)) {
    const wanted = expectation.mediaType.anyJson ? `a JSON media type (contract: ${expectation.mediaType.documented})` : expectation.mediaType.documented;
    problems.push(`Content-Type ${contentType ?? "(none)"}, expected ${wanted}`);
  }
  if (!expectation.bodySchema) {
    // "All bodies are JSON": a JSON body whose shape the profile leaves open must still parse.
    if (response.body.length === 0 || !isJsonMediaType(expectation.mediaType.documented)) return problems;
    const parsed = parseJsonBody(response.body);
    return parsed.ok ? problems : [...problems, parsed.problem];
  }
  const parsed = parseJsonBody(response.body);
  if (!parsed.ok) return [...problems, parsed.problem];
  return [...problems, ...schemaProblems(expectation.bodySchema, parsed.value, "body")];
}

/** Every problem of a response against an expectation; empty when it conforms. */
export function responseProblems(expectation: ResponseExpectation, response: ObservedResponse): string[] {
  return [...statusProblems(expectation, response), ...headerProblems(expectation, response), ...bodyProblems(expectation, response)];
}

/**
 * The stable error code a body carries, wherever the envelope keeps it: `code` (family A),
 * `error.code` (family B envelope 1) or `error.errorCode` (family B envelope 2).
 */
export function errorCodeOf(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const record = body as Record<string, unknown>;
  if (typeof record.code === "string") return record.code;
  const error = record.error;
  if (typeof error === "object" && error !== null) {
    const inner = error as Record<string, unknown>;
    if (typeof inner.code === "string") return inner.code;
    if (typeof inner.errorCode === "string") return inner.errorCode;
  }
  return undefined;
}

/** Problems when the body does not carry the expected error code. */
export function errorCodeProblems(expectedCode: string, response: ObservedResponse): string[] {
  const parsed = parseJsonBody(response.body);
  if (!parsed.ok) return [`error code ${expectedCode} expected, ${parsed.problem}`];
  const code = errorCodeOf(parsed.value);
  return code === expectedCode ? [] : [`error code ${code ?? "(none)"}, expected ${expectedCode}`];
}
