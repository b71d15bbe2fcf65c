/**
 * Rule family "security": who may call an operation. Anchors: Authentication (family A:
 * `x-api-key` on every request, `merchant:read` for GET /v1/merchant; family B: `X-API-Key`
 * with a chosen set of scopes) and issue #18 ("a change to security or scope").
 *
 * A security requirement list is a choice of alternatives; an empty list means anonymous
 * calls are accepted (an alternative of its own). Scopes come from the requirement and from
 * the `x-required-scopes` extension the contract uses.
 */
import { isObject } from "../../model/json.ts";
import { child, entriesOf, type DiffContext, type Loc } from "../context.ts";
import { defineRule } from "../types.ts";

const F = "security";
export const RULES = {
  // Clients authenticating that way (or anonymously) are refused (oasdiff api-security-removed; issue #18).
  requirementRemoved: defineRule(F, "api-security-requirement-removed", "breaking", "Authentication + issue #18: a change to security; oasdiff api-security-removed"),
  // A further way to authenticate; the old ones still work.
  requirementAdded: defineRule(F, "api-security-requirement-added", "compatible", "common: an added alternative keeps old calls valid (oasdiff api-security-added is about a new mandatory scheme, see requirement-removed)"),
  // Existing keys lack the scope and are refused with 403 (Authentication: `merchant:read`; oasdiff api-security-scope-added).
  scopeAdded: defineRule(F, "api-scope-added", "breaking", "Authentication: GET /v1/merchant requires merchant:read; issue #18: a change to scope; oasdiff api-security-scope-added"),
  scopeRemoved: defineRule(F, "api-scope-removed", "compatible", "common: oasdiff api-security-scope-removed (info)"),
  // Clients send the key where the scheme said (header name, location, type) (oasdiff api-security-component-*-changed).
  schemeChanged: defineRule(F, "security-scheme-changed", "breaking", "Authentication: the key travels in the named header; oasdiff api-security-component-changed"),
  schemeAdded: defineRule(F, "security-scheme-added", "compatible", "common: a new scheme is unused until a requirement names it"),
};

type Alternatives = Map<string, { schemes: Record<string, string[]>; loc: Loc }>;

function alternatives(document: unknown, operation: Loc): Alternatives {
  const own = child(operation, "security");
  const holder = Array.isArray(own.node) ? own : { node: isObject(document) ? document.security : undefined, pointer: "/security" };
  const list = Array.isArray(holder.node) ? holder.node : [];
  const out: Alternatives = new Map();
  if (list.length === 0) out.set("(anonymous)", { schemes: {}, loc: holder });
  list.forEach((requirement, index) => {
    if (!isObject(requirement)) return;
    const schemes = Object.fromEntries(Object.entries(requirement).map(([name, scopes]) => [name, Array.isArray(scopes) ? scopes.map(String) : []]));
    const key = Object.keys(schemes).sort().join(" + ") || "(anonymous)";
    out.set(key, { schemes, loc: { node: requirement, pointer: `${holder.pointer}/${index}` } });
  });
  return out;
}

function extensionScopes(operation: Loc): string[] {
  const node = isObject(operation.node) ? operation.node["x-required-scopes"] : undefined;
  return Array.isArray(node) ? node.map(String) : [];
}

export function compareSecurity(ctx: DiffContext, baseOp: Loc, headOp: Loc): void {
  const before = alternatives(ctx.base, baseOp);
  const after = alternatives(ctx.head, headOp);
  for (const [key, alt] of before) {
    const other = after.get(key);
    if (!other) {
      ctx.emit(RULES.requirementRemoved, alt.loc, key === "(anonymous)" ? "security: authentication now required" : `security: ${key} no longer accepted`);
      continue;
    }
    for (const [scheme, scopes] of Object.entries(alt.schemes)) compareScopes(ctx, other.loc, `${scheme} scopes`, scopes, other.schemes[scheme] ?? []);
  }
  for (const [key, alt] of after) if (!before.has(key)) ctx.emit(RULES.requirementAdded, alt.loc, `security: ${key} now accepted`);
  compareScopes(ctx, child(headOp, "x-required-scopes"), "required scopes", extensionScopes(baseOp), extensionScopes(headOp));
}

function compareScopes(ctx: DiffContext, at: Loc, label: string, before: string[], after: string[]): void {
  const added = after.filter((s) => !before.includes(s));
  const removed = before.filter((s) => !after.includes(s));
  if (added.length > 0) ctx.emit(RULES.scopeAdded, at, `security: ${label}: ${added.map((s) => `\`${s}\``).join(", ")} now required`);
  if (removed.length > 0) ctx.emit(RULES.scopeRemoved, at, `security: ${label}: ${removed.map((s) => `\`${s}\``).join(", ")} no longer required`);
}

/** Security schemes of the document (components.securitySchemes): what a key looks like and where it travels. */
export function compareSecuritySchemes(ctx: DiffContext): void {
  const schemes = (doc: unknown): Loc => ({ node: isObject(doc) && isObject(doc.components) ? doc.components.securitySchemes : undefined, pointer: "/components/securitySchemes" });
  const base = schemes(ctx.base);
  const head = schemes(ctx.head);
  const headNames = new Map(entriesOf(head.node));
  for (const [name] of entriesOf(base.node)) {
    const before = ctx.resolve("base", child(base, name)).node;
    const after = ctx.resolve("head", child(head, name)).node;
    if (!isObject(before) || !isObject(after)) continue; // removal surfaces as a requirement no longer accepted
    const wire = (s: Record<string, unknown>): string =>
      JSON.stringify([s.type, s.in, s.in === "header" && typeof s.name === "string" ? s.name.toLowerCase() : s.name, typeof s.scheme === "string" ? s.scheme.toLowerCase() : s.scheme, s.bearerFormat, s.openIdConnectUrl]);
    if (wire(before) !== wire(after)) {
      const show = (s: Record<string, unknown>): string => [s.type, s.in, s.name, s.scheme].filter((v) => v !== undefined).join(" ");
      ctx.emit(RULES.schemeChanged, child(head, name), `security scheme ${name}: ${show(before)} -> ${show(after)}`);
    }
  }
  for (const [name] of headNames) if (!isObject(base.node) || !(name in base.node)) ctx.emit(RULES.schemeAdded, child(head, name), `security scheme ${name}: added`);
}
