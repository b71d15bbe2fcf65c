/**
 * Rule family "schema-variants": the members of an `anyOf`/`oneOf` with several non-null
 * members (a null member is nullability, see schema-types). Members are matched by the
 * component they reference, else by position, and matched members are compared in depth.
 */
import type { DiffContext, Loc } from "../context.ts";
import type { NormalSchema } from "../schema-normalize.ts";
import { subject, type SchemaScope } from "../schema-scope.ts";
import { defineRule } from "../types.ts";
import type { Recurse } from "./schema-properties.ts";

const F = "schema-variants";
export const RULES = {
  // A shape clients send is no longer accepted (oasdiff request-body-one-of-removed / request-property-any-of-removed).
  requestVariantRemoved: defineRule(F, "request-variant-removed", "breaking", "common: oasdiff request-property-one-of-removed"),
  requestVariantAdded: defineRule(F, "request-variant-added", "compatible", "common: oasdiff request-property-one-of-added (info)"),
  // Clients meet a shape they were never told about; unlike an unknown field, nothing tells them to ignore it.
  responseVariantAdded: defineRule(F, "response-variant-added", "breaking", "common: oasdiff response-property-one-of-added; Versioning 2 covers unknown fields only"),
  responseVariantRemoved: defineRule(F, "response-variant-removed", "compatible", "common: oasdiff response-property-one-of-removed (info)"),
};

const refOf = (ctx: DiffContext, which: "base" | "head", loc: Loc): string | undefined => {
  const node = loc.node as { $ref?: unknown } | undefined;
  return typeof node?.$ref === "string" ? node.$ref : ctx.resolve(which, loc).origin;
};

export function compareVariants(ctx: DiffContext, scope: SchemaScope, base: NormalSchema, head: NormalSchema, recurse: Recurse): void {
  const before = base.variants?.list ?? [];
  const after = head.variants?.list ?? [];
  if (before.length === 0 && after.length === 0) return;
  const request = scope.side === "request";
  const used = new Set<number>();
  const match = (loc: Loc, index: number): number => {
    const ref = refOf(ctx, "base", loc);
    const byRef = ref === undefined ? -1 : after.findIndex((other, i) => !used.has(i) && refOf(ctx, "head", other) === ref);
    if (byRef >= 0) return byRef;
    return index < after.length && !used.has(index) && refOf(ctx, "head", after[index]!) === undefined ? index : -1;
  };
  before.forEach((loc, index) => {
    const found = match(loc, index);
    if (found < 0) {
      ctx.emit(request ? RULES.requestVariantRemoved : RULES.responseVariantRemoved, loc, `${subject(scope)}: ${base.variants!.kind} member ${index} removed`);
      return;
    }
    used.add(found);
    recurse(scope, loc, after[found]!);
  });
  after.forEach((loc, index) => {
    if (!used.has(index)) ctx.emit(request ? RULES.requestVariantAdded : RULES.responseVariantAdded, loc, `${subject(scope)}: ${head.variants!.kind} member ${index} added`);
  });
}
