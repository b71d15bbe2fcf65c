/**
 * Request validation against the operation's schemas (compiled from the contract): declared
 * query parameters (typed from text, schema defaults applied, a parameter given twice
 * refused), declared header parameters and the JSON body. Unknown query
 * parameters and unknown body members are ignored, as the contract's open objects allow.
 */
import type { IncomingHttpHeaders } from "node:http";
import { headerText } from "./http/body.ts";
import { problemsOf, type OperationSpec, type ValidationProblem } from "./contract/operations.ts";

type Json = Record<string, unknown>;

function typesOf(schema: Json): unknown[] {
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** Parses a query value the way its schema types it; anything else stays text for the schema to refuse. */
function fromText(raw: string, schema: Json): unknown {
  const types = typesOf(schema);
  if (types.includes("integer") && /^[+-]?\d{1,15}$/.test(raw)) return Number(raw);
  if (types.includes("number") && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw)) return Number(raw);
  if (types.includes("boolean") && (raw === "true" || raw === "false")) return raw === "true";
  return raw;
}

export interface ValidatedParameters {
  query: Record<string, unknown>;
  problems: ValidationProblem[];
}

export function validateParameters(
  op: OperationSpec,
  params: Record<string, string>,
  search: URLSearchParams,
  headers: IncomingHttpHeaders,
  ownHeaders: readonly string[] = [],
): ValidatedParameters {
  const problems: ValidationProblem[] = [];
  const query: Record<string, unknown> = {};
  for (const parameter of op.parameters) {
    if (parameter.in === "path") {
      // A path id that breaks its schema (longer than its maxLength, D45) is a malformed id,
      // which answers as an unknown one (D32): left to the handler, which finds no such record.
      continue;
    } else if (parameter.in === "query") {
      const values = search.getAll(parameter.name);
      if (values.length > 1) {
        problems.push({ location: `query ${parameter.name}`, message: "must be given at most once" });
        continue;
      }
      if (values.length === 0) {
        if (parameter.required) problems.push({ location: `query ${parameter.name}`, message: "is required" });
        else if (parameter.schema.default !== undefined) query[parameter.name] = parameter.schema.default;
        continue;
      }
      const value = fromText(values[0], parameter.schema);
      if (!parameter.validate(value)) problems.push(...problemsOf(parameter.validate, `query ${parameter.name}`, value));
      else query[parameter.name] = value;
    } else if (parameter.in === "header") {
      if (ownHeaders.some((h) => h.toLowerCase() === parameter.name.toLowerCase())) continue;
      const raw = headers[parameter.name.toLowerCase()];
      const joined = Array.isArray(raw) ? raw.join(", ") : raw;
      // Checked as the characters the client wrote (UTF-8), not Node's Latin-1 reading of the bytes.
      const value = joined === undefined ? undefined : headerText(joined);
      if (value === undefined) {
        if (parameter.required) problems.push({ location: `header ${parameter.name}`, message: "is required" });
        continue;
      }
      if (!parameter.validate(value)) problems.push(...problemsOf(parameter.validate, `header ${parameter.name}`, value));
    }
  }
  return { query, problems };
}

export function validateBody(op: OperationSpec, body: unknown): ValidationProblem[] {
  if (!op.body) return [];
  return op.body.validate(body) ? [] : problemsOf(op.body.validate, "body", body);
}
