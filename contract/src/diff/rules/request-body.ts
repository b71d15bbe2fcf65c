/**
 * Rule family "request-body": whether an operation takes a body, whether it is required, and
 * its media types. The body's schema is compared as a request schema (schema-* families).
 */
import { isObject } from "../../model/json.ts";
import { child, entriesOf, type DiffContext, type Loc } from "../context.ts";
import { compareSchemas } from "../schema-walk.ts";
import { defineRule } from "../types.ts";

const F = "request-body";
export const RULES = {
  // Old calls have no body and are refused (oasdiff request-body-became-required / new required body).
  addedRequired: defineRule(F, "request-body-added-required", "breaking", "issue #18: a new required request field; oasdiff request-body-added-required"),
  addedOptional: defineRule(F, "request-body-added-optional", "compatible", "common: an optional body keeps old calls valid"),
  // The service stops reading what clients send.
  removed: defineRule(F, "request-body-removed", "breaking", "common: oasdiff request-body-removed"),
  becameRequired: defineRule(F, "request-body-became-required", "breaking", "common: oasdiff request-body-became-required"),
  becameOptional: defineRule(F, "request-body-became-optional", "compatible", "common: oasdiff request-body-became-optional (info)"),
  // Clients send this Content-Type; it is refused (issue #18 "a changed media type").
  mediaTypeRemoved: defineRule(F, "request-media-type-removed", "breaking", "issue #18: a changed media type; oasdiff request-body-media-type-removed"),
  mediaTypeAdded: defineRule(F, "request-media-type-added", "compatible", "common: oasdiff request-body-media-type-added (info)"),
};

export function compareRequestBody(ctx: DiffContext, baseOp: Loc, headOp: Loc): void {
  const base = ctx.resolve("base", child(baseOp, "requestBody"));
  const head = ctx.resolve("head", child(headOp, "requestBody"));
  const required = (loc: Loc): boolean => isObject(loc.node) && loc.node.required === true;
  if (!isObject(base.node) && !isObject(head.node)) return;
  if (!isObject(head.node)) return ctx.emit(RULES.removed, base, "request body: removed");
  if (!isObject(base.node)) return ctx.emit(required(head) ? RULES.addedRequired : RULES.addedOptional, head, `request body: new ${required(head) ? "required" : "optional"} body`);
  if (required(base) !== required(head)) ctx.emit(required(head) ? RULES.becameRequired : RULES.becameOptional, head, `request body: now ${required(head) ? "required" : "optional"}`);

  const baseMedia = new Map(entriesOf(base.node.content).map(([type]) => [type.toLowerCase(), child(base, "content", type)]));
  const headMedia = new Map(entriesOf(head.node.content).map(([type]) => [type.toLowerCase(), child(head, "content", type)]));
  for (const [type, loc] of baseMedia) {
    const other = headMedia.get(type);
    if (!other) {
      ctx.emit(RULES.mediaTypeRemoved, loc, `request body: media type ${type} removed`);
      continue;
    }
    compareSchemas(ctx, { side: "request", where: "request body", path: "", errorResponse: false, errorCodeField: false }, child(loc, "schema"), child(other, "schema"));
  }
  for (const [type, loc] of headMedia) if (!baseMedia.has(type)) ctx.emit(RULES.mediaTypeAdded, loc, `request body: media type ${type} added`);
}
