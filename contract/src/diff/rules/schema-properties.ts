/**
 * Rule family "schema-properties": object properties and their `required` status.
 * Anchors: Versioning 2 ("Adding optional response fields ... is backward compatible. Clients
 * must ignore unknown fields") and issue #18 ("removed or renamed response field", "a new
 * required request field").
 */
import type { DiffContext, Loc } from "../context.ts";
import type { NormalSchema } from "../schema-normalize.ts";
import { childScope, subject, type SchemaScope } from "../schema-scope.ts";
import { defineRule } from "../types.ts";

const F = "schema-properties";
export const RULES = {
  // Clients read the field; it is gone (a rename is a removal plus an addition). Versioning 2 only makes *adding* compatible.
  responsePropertyRemoved: defineRule(F, "response-property-removed", "breaking", "Versioning 2 (only additions are compatible); issue #18: removed or renamed response field"),
  // Versioning 2: adding response fields is compatible; clients must ignore unknown fields.
  responsePropertyAdded: defineRule(F, "response-property-added", "compatible", "Versioning 2: adding optional response fields is backward compatible"),
  // Clients that rely on the field being present now meet responses without it.
  responseBecameOptional: defineRule(F, "response-property-became-optional", "breaking", "common: oasdiff response-property-became-optional"),
  responseBecameRequired: defineRule(F, "response-property-became-required", "compatible", "common: always present is a subset of maybe present"),
  // Old requests lack the field and are refused (issue #18 "a new required request field").
  newRequiredRequestProperty: defineRule(F, "new-required-request-property", "breaking", "issue #18: a new required request field; oasdiff new-required-request-property"),
  // Old requests stay valid; new clients may send it.
  newOptionalRequestProperty: defineRule(F, "new-optional-request-property", "compatible", "common: oasdiff new-optional-request-property (info)"),
  // The service stops honouring a field clients send (silently ignored, or refused when unknown fields are refused).
  requestPropertyRemoved: defineRule(F, "request-property-removed", "breaking", "common: oasdiff request-property-removed"),
  // Old requests that omit the field are refused.
  requestBecameRequired: defineRule(F, "request-property-became-required", "breaking", "issue #18: a new required request field; oasdiff request-property-became-required"),
  requestBecameOptional: defineRule(F, "request-property-became-optional", "compatible", "common: oasdiff request-property-became-optional (info)"),
};

export type Recurse = (scope: SchemaScope, base: Loc, head: Loc) => void;

export function compareProperties(ctx: DiffContext, scope: SchemaScope, base: NormalSchema, head: NormalSchema, recurse: Recurse): void {
  const request = scope.side === "request";
  // A property the service never reads (readOnly) is not part of a request; one it never sends (writeOnly) not part of a response.
  const skip = (s: NormalSchema, loc: Loc | undefined): boolean => {
    if (!loc) return false;
    const node = ctx.resolve(s === base ? "base" : "head", loc).node as Record<string, unknown> | undefined;
    return request ? node?.readOnly === true : node?.writeOnly === true;
  };
  for (const [name, baseLoc] of base.properties) {
    const inner = childScope(scope, name);
    const headLoc = head.properties.get(name);
    if (skip(base, baseLoc) && (!headLoc || skip(head, headLoc))) continue;
    if (!headLoc) {
      ctx.emit(request ? RULES.requestPropertyRemoved : RULES.responsePropertyRemoved, baseLoc, `${subject(inner)}: ${request ? "request" : "response"} field removed`);
      continue;
    }
    const wasRequired = base.required.has(name);
    const isRequired = head.required.has(name);
    if (wasRequired !== isRequired) {
      const message = `${subject(inner)}: ${isRequired ? "now required" : "now optional"}`;
      if (request) ctx.emit(isRequired ? RULES.requestBecameRequired : RULES.requestBecameOptional, headLoc, message);
      else ctx.emit(isRequired ? RULES.responseBecameRequired : RULES.responseBecameOptional, headLoc, message);
    }
    recurse(inner, baseLoc, headLoc);
  }
  for (const [name, headLoc] of head.properties) {
    if (base.properties.has(name) || skip(head, headLoc)) continue;
    const inner = childScope(scope, name);
    const required = head.required.has(name);
    if (request) {
      ctx.emit(required ? RULES.newRequiredRequestProperty : RULES.newOptionalRequestProperty, headLoc, `${subject(inner)}: new ${required ? "required" : "optional"} request field`);
    } else {
      ctx.emit(RULES.responsePropertyAdded, headLoc, `${subject(inner)}: new ${required ? "" : "optional "}response field`);
    }
  }
}
