/**
 * Rule family "parameters": path, query, header and cookie parameters of an operation.
 * Anchor: issue #18 ("a new required request ... parameter"), the common rule sets for the rest.
 * The parameter's schema is compared as a request schema (schema-* families).
 */
import { isObject } from "../../model/json.ts";
import { child, type DiffContext, type Loc } from "../context.ts";
import { compareSchemas } from "../schema-walk.ts";
import { defineRule } from "../types.ts";

const F = "parameters";
export const RULES = {
  // Old calls lack it and are refused (issue #18; oasdiff new-required-request-parameter).
  newRequired: defineRule(F, "new-required-request-parameter", "breaking", "issue #18: a new required request parameter; oasdiff new-required-request-parameter"),
  // Old calls stay valid.
  newOptional: defineRule(F, "new-optional-request-parameter", "compatible", "common: oasdiff new-optional-request-parameter (info)"),
  // The service stops honouring what clients send (a filter silently ignored, an idempotency key no longer read) (oasdiff request-parameter-removed).
  removed: defineRule(F, "request-parameter-removed", "breaking", "common: oasdiff request-parameter-removed"),
  // Old calls that omit it are refused.
  becameRequired: defineRule(F, "request-parameter-became-required", "breaking", "issue #18: a new required request parameter; oasdiff request-parameter-became-required"),
  becameOptional: defineRule(F, "request-parameter-became-optional", "compatible", "common: oasdiff request-parameter-became-optional (info)"),
};

interface Parameter {
  key: string;
  name: string;
  in: string;
  required: boolean;
  loc: Loc;
}

/** The parameters in effect for an operation: the path item's, overridden by the operation's (same name and location). */
export function parametersOf(ctx: DiffContext, which: "base" | "head", pathItem: Loc, operation: Loc): Map<string, Parameter> {
  const out = new Map<string, Parameter>();
  for (const holder of [pathItem, operation]) {
    const list = child(holder, "parameters");
    if (!Array.isArray(list.node)) continue;
    list.node.forEach((_, index) => {
      const loc = ctx.resolve(which, child(list, index));
      const node = loc.node;
      if (!isObject(node) || typeof node.name !== "string" || typeof node.in !== "string") return;
      const name = node.in === "header" ? node.name.toLowerCase() : node.name;
      const key = `${node.in}:${name}`;
      out.set(key, { key, name: node.name, in: node.in, required: node.required === true || node.in === "path", loc });
    });
  }
  return out;
}

export function compareParameters(ctx: DiffContext, base: Map<string, Parameter>, head: Map<string, Parameter>): void {
  for (const [key, before] of base) {
    const after = head.get(key);
    const label = `${before.in} parameter \`${before.name}\``;
    if (!after) {
      // A path parameter renamed with its template is the same parameter; the path matcher pairs those.
      if (before.in === "path" && [...head.values()].some((p) => p.in === "path" && !base.has(p.key))) continue;
      ctx.emit(RULES.removed, before.loc, `${label}: removed`);
      continue;
    }
    if (before.required !== after.required) ctx.emit(after.required ? RULES.becameRequired : RULES.becameOptional, after.loc, `${label}: now ${after.required ? "required" : "optional"}`);
    compareSchemas(ctx, { side: "request", where: label, path: "", errorResponse: false, errorCodeField: false }, child(before.loc, "schema"), child(after.loc, "schema"));
  }
  for (const [key, after] of head) {
    if (base.has(key)) continue;
    if (after.in === "path" && [...base.values()].some((p) => p.in === "path" && !head.has(p.key))) continue;
    ctx.emit(after.required ? RULES.newRequired : RULES.newOptional, after.loc, `${after.in} parameter \`${after.name}\`: new ${after.required ? "required" : "optional"} parameter`);
  }
}
