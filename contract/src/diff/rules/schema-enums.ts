/**
 * Rule family "schema-enums": the allowed values of an enum (and `const`).
 *
 * Requests follow the usual direction: dropping a value refuses clients that send it, adding
 * one is harmless.
 *
 * Responses are stricter, on purpose, and both directions are breaking:
 * - a value removed from a response enum (issue #18) removes an outcome clients are written
 *   to wait for or act on (a client polling until `paid` never sees it again);
 * - a value added to a response enum (issue #18: "a widened enum in a response"): Versioning 2
 *   tells clients to ignore unknown *fields*, never unknown *values*; a client that switches
 *   exhaustively on `status` has no documented fallback. We classify it breaking, and the
 *   message says it is breaking for clients that switch on the value.
 * An enum constraint introduced on a response value only narrows it (compatible); dropping the
 * constraint is an unbounded widening (breaking).
 *
 * Error codes (`code`, `errorCode` in an error response) have their own rules: see errors.ts.
 */
import { quote, type DiffContext } from "../context.ts";
import type { NormalSchema } from "../schema-normalize.ts";
import { subject, type SchemaScope } from "../schema-scope.ts";
import { defineRule } from "../types.ts";
import { compareErrorCodes } from "./errors.ts";

const F = "schema-enums";
export const RULES = {
  // Clients that send the value are refused (issue #18 "narrowed enum in a request"; oasdiff request-property-enum-value-removed).
  requestValueRemoved: defineRule(F, "request-enum-value-removed", "breaking", "issue #18: a narrowed enum in a request; oasdiff request-property-enum-value-removed"),
  // Every value clients send is still accepted.
  requestValueAdded: defineRule(F, "request-enum-value-added", "compatible", "common: oasdiff request-property-enum-value-added (info)"),
  // An enum introduced on a free request value refuses every other value.
  requestEnumAdded: defineRule(F, "request-enum-added", "breaking", "issue #18: a narrowed enum in a request"),
  requestEnumRemoved: defineRule(F, "request-enum-removed", "compatible", "common: dropping the enum accepts every old value"),
  // An outcome clients act on disappears (issue #18 "enum value removed from a response").
  responseValueRemoved: defineRule(F, "response-enum-value-removed", "breaking", "issue #18: an enum value removed from a response"),
  // Breaking for clients that switch on the value: Versioning 2 asks clients to ignore unknown fields, not unknown values (oasdiff response-property-enum-value-added, a warning there).
  responseValueAdded: defineRule(F, "response-enum-value-added", "breaking", "Versioning 2 (unknown fields only) + issue #18: a widened enum in a response"),
  // The service promises fewer values than before.
  responseEnumAdded: defineRule(F, "response-enum-added", "compatible", "common: an enum added to a response narrows it"),
  // Any value may now arrive where a closed set was promised.
  responseEnumRemoved: defineRule(F, "response-enum-removed", "breaking", "Versioning 2 (unknown fields only) + issue #18: a widened enum in a response"),
};

const key = (value: unknown): string => JSON.stringify(value);
const list = (values: unknown[]): string => values.map(quote).join(", ");

export function compareEnums(ctx: DiffContext, scope: SchemaScope, base: NormalSchema, head: NormalSchema): void {
  if (!base.enum && !head.enum) return;
  if (scope.errorCodeField && scope.side === "response") {
    compareErrorCodes(ctx, scope, base, head);
    return;
  }
  const what = subject(scope);
  const request = scope.side === "request";
  if (!base.enum || !head.enum) {
    const message = base.enum ? `${what}: enum ${list(base.enum)} dropped (any value)` : `${what}: now limited to ${list(head.enum!)}`;
    if (request) ctx.emit(base.enum ? RULES.requestEnumRemoved : RULES.requestEnumAdded, head.loc, message);
    else ctx.emit(base.enum ? RULES.responseEnumRemoved : RULES.responseEnumAdded, head.loc, message);
    return;
  }
  const before = new Set(base.enum.map(key));
  const after = new Set(head.enum.map(key));
  const removed = base.enum.filter((v) => !after.has(key(v)));
  const added = head.enum.filter((v) => !before.has(key(v)));
  if (removed.length > 0) {
    const rule = request ? RULES.requestValueRemoved : RULES.responseValueRemoved;
    ctx.emit(rule, head.loc, `${what}: enum value${removed.length > 1 ? "s" : ""} ${list(removed)} removed`);
  }
  if (added.length > 0) {
    const rule = request ? RULES.requestValueAdded : RULES.responseValueAdded;
    const note = request ? "" : " (breaking for clients that switch on the value)";
    ctx.emit(rule, head.loc, `${what}: enum value${added.length > 1 ? "s" : ""} ${list(added)} added${note}`);
  }
}
