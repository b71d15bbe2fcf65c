/**
 * Rule family "responses": status codes, media types and headers of an operation's responses.
 * Anchors: issue #18 ("a changed status code or media type"), Versioning 2 (clients ignore
 * what they do not know), the common rule sets. Bodies and header values are compared as
 * response schemas (schema-* families); error bodies also go through errors.ts.
 */
import { isObject } from "../../model/json.ts";
import { child, entriesOf, type DiffContext, type Loc } from "../context.ts";
import { compareSchemas } from "../schema-walk.ts";
import { defineRule } from "../types.ts";

const F = "responses";
export const RULES = {
  // Clients branch on the status they were promised (201 -> 200 is a removal plus an addition) (issue #18; oasdiff response-success-status-removed).
  statusRemoved: defineRule(F, "response-status-removed", "breaking", "issue #18: a changed status code; oasdiff response-success-status-removed"),
  // A newly documented status: clients handle statuses by class; an added error status documents a condition, an added success status is still a success.
  statusAdded: defineRule(F, "response-status-added", "compatible", "common: oasdiff response-success-status-added / response-non-success-status-added (info)"),
  // Clients parse this Content-Type (issue #18 "a changed media type"; oasdiff response-media-type-removed).
  mediaTypeRemoved: defineRule(F, "response-media-type-removed", "breaking", "issue #18: a changed media type; oasdiff response-media-type-removed"),
  // Served only to clients that ask for it (Accept); old clients keep getting what they parse.
  mediaTypeAdded: defineRule(F, "response-media-type-added", "compatible", "common: oasdiff response-media-type-added (info)"),
  // Clients read the header (rate-limit headers, Idempotent-Replayed...) (oasdiff response-header-removed).
  headerRemoved: defineRule(F, "response-header-removed", "breaking", "common: oasdiff response-optional-header-removed / response-required-header-removed"),
  // Versioning 2: clients must ignore what they do not know.
  headerAdded: defineRule(F, "response-header-added", "compatible", "Versioning 2: additions are backward compatible"),
  // Clients that rely on the header being there meet responses without it.
  headerBecameOptional: defineRule(F, "response-header-became-optional", "breaking", "common: oasdiff response-header-became-optional"),
  headerBecameRequired: defineRule(F, "response-header-became-required", "compatible", "common: always present is a subset of maybe present"),
};

const isError = (status: string): boolean => /^[45]/.test(status) || status === "default";

export function compareResponses(ctx: DiffContext, baseOp: Loc, headOp: Loc): void {
  const base = child(baseOp, "responses");
  const head = child(headOp, "responses");
  const baseStatuses = new Set(entriesOf(base.node).map(([status]) => status.toUpperCase()));
  for (const [status] of entriesOf(base.node)) {
    const headKey = entriesOf(head.node).find(([other]) => other.toUpperCase() === status.toUpperCase())?.[0];
    if (headKey === undefined) {
      ctx.emit(RULES.statusRemoved, child(base, status), `response ${status}: removed`);
      continue;
    }
    compareResponse(ctx, status, ctx.resolve("base", child(base, status)), ctx.resolve("head", child(head, headKey)));
  }
  for (const [status] of entriesOf(head.node)) if (!baseStatuses.has(status.toUpperCase())) ctx.emit(RULES.statusAdded, child(head, status), `response ${status}: added`);
}

function compareResponse(ctx: DiffContext, status: string, base: Loc, head: Loc): void {
  const baseMedia = new Map(entriesOf((base.node as { content?: unknown })?.content).map(([type]) => [type.toLowerCase(), child(base, "content", type)]));
  const headMedia = new Map(entriesOf((head.node as { content?: unknown })?.content).map(([type]) => [type.toLowerCase(), child(head, "content", type)]));
  for (const [type, loc] of baseMedia) {
    const other = headMedia.get(type);
    if (!other) {
      ctx.emit(RULES.mediaTypeRemoved, loc, `response ${status}: media type ${type} removed`);
      continue;
    }
    compareSchemas(ctx, { side: "response", where: `response ${status} body`, path: "", errorResponse: isError(status), errorCodeField: false }, child(loc, "schema"), child(other, "schema"));
  }
  for (const [type, loc] of headMedia) if (!baseMedia.has(type)) ctx.emit(RULES.mediaTypeAdded, loc, `response ${status}: media type ${type} added`);
  compareHeaders(ctx, `response ${status}`, child(base, "headers"), child(head, "headers"));
}

/** Headers the service sends (response headers; also a webhook's headers). Names are case-insensitive. */
export function compareHeaders(ctx: DiffContext, where: string, base: Loc, head: Loc): void {
  const headers = (which: "base" | "head", loc: Loc): Map<string, { name: string; loc: Loc }> =>
    new Map(entriesOf(loc.node).map(([name]) => [name.toLowerCase(), { name, loc: ctx.resolve(which, child(loc, name)) }]));
  const before = headers("base", base);
  const after = headers("head", head);
  const required = (loc: Loc): boolean => isObject(loc.node) && loc.node.required === true;
  for (const [key, { name, loc }] of before) {
    const other = after.get(key);
    if (!other) {
      ctx.emit(RULES.headerRemoved, loc, `${where}: header \`${name}\` removed`);
      continue;
    }
    if (required(loc) !== required(other.loc)) ctx.emit(required(other.loc) ? RULES.headerBecameRequired : RULES.headerBecameOptional, other.loc, `${where}: header \`${name}\` now ${required(other.loc) ? "always sent" : "optional"}`);
    compareSchemas(ctx, { side: "response", where: `${where} header \`${name}\``, path: "", errorResponse: false, errorCodeField: false }, child(loc, "schema"), child(other.loc, "schema"));
  }
  for (const [key, { name, loc }] of after) if (!before.has(key)) ctx.emit(RULES.headerAdded, loc, `${where}: header \`${name}\` added`);
}
