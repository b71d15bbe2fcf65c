/**
 * Request validation against the operation's schemas (compiled from the contract): declared
 * query parameters (typed from text, schema defaults applied, a parameter given twice
 * refused), declared header parameters and the JSON body. Unknown query
 * parameters and unknown body members are ignored, as the contract's open objects allow.
 */
import type { IncomingHttpHeaders } from "node:http";
import { headerText } from "./http/body.ts";
import { problemsOf, type BodySpec, type OperationSpec, type ValidationProblem } from "./contract/operations.ts";

type Json = Record<string, unknown>;

/**
 * Parses a query value the way its schema types it: an integer is decimal digits, optionally
 * signed (D28); anything else stays text for the schema to refuse. The contract's query
 * parameters are strings, dates, enums and integers (`page`, `limit`): a number or boolean
 * query parameter would need its own parsing here.
 */
function fromText(raw: string, schema: Json): unknown {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes("integer") && /^[+-]?\d{1,15}$/.test(raw) ? Number(raw) : raw;
}

export interface ValidatedParameters {
  query: Record<string, unknown>;
  problems: ValidationProblem[];
}

/**
 * The query and header parameters of a request, checked against their schemas. A path id that
 * breaks its schema (longer than its maxLength, D45) is a malformed id, which answers as an
 * unknown one (D32): path parameters are left to the handler, which finds no such record.
 */
export function validateParameters(op: OperationSpec, search: URLSearchParams, headers: IncomingHttpHeaders): ValidatedParameters {
  const problems: ValidationProblem[] = [];
  const query: Record<string, unknown> = {};
  for (const parameter of op.parameters) {
    if (parameter.in === "query") {
      const values = search.getAll(parameter.name);
      if (values.length > 1) {
        problems.push({ location: `query ${parameter.name}`, message: "must be given at most once" });
        continue;
      }
      if (values.length === 0) {
        // No query parameter of the contract is required: this refusal is never answered yet.
        if (parameter.required) problems.push({ location: `query ${parameter.name}`, message: "is required" });
        // Absent: its default, or undefined (the handlers read undefined as absent).
        else query[parameter.name] = parameter.schema.default;
        continue;
      }
      const value = fromText(values[0], parameter.schema);
      if (!parameter.validate(value)) problems.push(...problemsOf(parameter.validate, `query ${parameter.name}`, value));
      else query[parameter.name] = value;
    } else if (parameter.in === "header") {
      // Node joins a header sent more than once into one text (set-cookie aside, no parameter).
      const raw = headers[parameter.name.toLowerCase()] as string | undefined;
      if (raw === undefined) {
        // The one required header parameter, family A's Idempotency-Key, is refused missing by its operation's own rule first (D05).
        if (parameter.required) problems.push({ location: `header ${parameter.name}`, message: "is required" });
        continue;
      }
      // Checked as the characters the client wrote (UTF-8), not Node's Latin-1 reading of the bytes.
      const value = headerText(raw);
      if (!parameter.validate(value)) problems.push(...problemsOf(parameter.validate, `header ${parameter.name}`, value));
    }
  }
  return { query, problems };
}

/** The problems of a request's JSON body, against the operation's body schema. */
export function validateBody(body: BodySpec, value: unknown): ValidationProblem[] {
  return body.validate(value) ? [] : problemsOf(body.validate, "body", value);
}
