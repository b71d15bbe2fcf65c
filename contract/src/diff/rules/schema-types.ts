/**
 * Rule family "schema-types": the type, nullability and format of a value.
 * Direction decides: a request schema that accepts fewer values breaks clients that send
 * the values it dropped; a response schema that may produce more values breaks clients that
 * parse only the old ones. The reverse directions are compatible.
 */
import type { DiffContext } from "../context.ts";
import type { NormalSchema } from "../schema-normalize.ts";
import { subject, type SchemaScope } from "../schema-scope.ts";
import { defineRule } from "../types.ts";

const F = "schema-types";
export const RULES = {
  // Clients send values of the old type; the service now refuses some (oasdiff request-property-type-changed).
  requestTypeNarrowed: defineRule(F, "request-type-narrowed", "breaking", "common: oasdiff request-property-type-changed"),
  // Every value valid before is still accepted.
  requestTypeWidened: defineRule(F, "request-type-widened", "compatible", "common: a wider request type accepts every old value"),
  // Clients parse the old type; a value of another type fails them (oasdiff response-property-type-changed).
  responseTypeWidened: defineRule(F, "response-type-widened", "breaking", "common: oasdiff response-property-type-changed"),
  // The service sends a subset of what clients already parse.
  responseTypeNarrowed: defineRule(F, "response-type-narrowed", "compatible", "common: a narrower response type is a subset of what clients parse"),
  // null was accepted and is now refused.
  requestBecameNotNullable: defineRule(F, "request-property-became-not-nullable", "breaking", "common: oasdiff request-property-became-not-nullable"),
  requestBecameNullable: defineRule(F, "request-property-became-nullable", "compatible", "common: accepting null as well keeps old requests valid"),
  // A client that reads the value without a null check fails on null (oasdiff response-property-became-nullable).
  responseBecameNullable: defineRule(F, "response-property-became-nullable", "breaking", "common: oasdiff response-property-became-nullable"),
  responseBecameNotNullable: defineRule(F, "response-property-became-not-nullable", "compatible", "common: never null is a subset of maybe null"),
  // A format added or changed on a request value refuses values that were valid (oasdiff request-property-format-changed).
  requestFormatNarrowed: defineRule(F, "request-format-narrowed", "breaking", "issue #18: a narrowed format in a request; oasdiff request-property-format-changed"),
  requestFormatWidened: defineRule(F, "request-format-widened", "compatible", "common: a format dropped or widened (int32 -> int64) accepts every old value"),
  // Clients may rely on the format (parse a date-time, fit an int32): dropping or changing it breaks them.
  responseFormatWidened: defineRule(F, "response-format-widened", "breaking", "common: oasdiff response-property-format-changed"),
  responseFormatNarrowed: defineRule(F, "response-format-narrowed", "compatible", "common: a format added to a response only promises more"),
};

/** `integer` is a subset of `number`. */
function covers(types: Set<string>, type: string): boolean {
  return types.has(type) || (type === "integer" && types.has("number"));
}

/** Formats that accept strictly more than another (narrow -> wide). */
const WIDER_FORMAT: Record<string, string> = { int32: "int64", float: "double" };

export function compareTypes(ctx: DiffContext, scope: SchemaScope, base: NormalSchema, head: NormalSchema): void {
  const at = head.loc;
  const what = subject(scope);
  const request = scope.side === "request";
  const show = (s: NormalSchema): string => (s.types ? [...s.types].join("|") || "null" : "any");
  if (show(base) !== show(head)) {
    const dropped = base.types ? [...base.types].filter((t) => !head.types || !covers(head.types, t)) : head.types ? ["any"] : [];
    const added = head.types ? [...head.types].filter((t) => !base.types || !covers(base.types, t)) : base.types ? ["any"] : [];
    const message = `${what}: type ${show(base)} -> ${show(head)}`;
    if (request) {
      if (dropped.length > 0) ctx.emit(RULES.requestTypeNarrowed, at, message);
      else if (added.length > 0) ctx.emit(RULES.requestTypeWidened, at, message);
    } else if (added.length > 0) ctx.emit(RULES.responseTypeWidened, at, message);
    else if (dropped.length > 0) ctx.emit(RULES.responseTypeNarrowed, at, message);
  }

  if (base.nullable !== head.nullable) {
    const message = `${what}: ${head.nullable ? "may now be null" : "may no longer be null"}`;
    if (request) ctx.emit(head.nullable ? RULES.requestBecameNullable : RULES.requestBecameNotNullable, at, message);
    else ctx.emit(head.nullable ? RULES.responseBecameNullable : RULES.responseBecameNotNullable, at, message);
  }

  if (base.format !== head.format) {
    const message = `${what}: format ${base.format ?? "(none)"} -> ${head.format ?? "(none)"}`;
    // Anything that is neither a pure widening nor a pure narrowing counts as both.
    const widened = head.format === undefined || (base.format !== undefined && WIDER_FORMAT[base.format] === head.format);
    const narrowed = base.format === undefined || (head.format !== undefined && WIDER_FORMAT[head.format] === base.format);
    if (request) ctx.emit(widened ? RULES.requestFormatWidened : RULES.requestFormatNarrowed, at, message);
    else ctx.emit(narrowed ? RULES.responseFormatNarrowed : RULES.responseFormatWidened, at, message);
  }
}
