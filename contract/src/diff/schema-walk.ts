/**
 * Compares two schemas in depth, along the operation: follows `$ref`s on both sides, merges
 * `allOf`, folds nullability, and hands each aspect to its rule family. Recursion through
 * properties, items and variants stops at a pair of components already on the stack (cycles).
 */
import { child, type DiffContext, type Loc } from "./context.ts";
import { normalizeSchema } from "./schema-normalize.ts";
import type { SchemaScope } from "./schema-scope.ts";
import { compareConstraints } from "./rules/schema-constraints.ts";
import { compareEnums } from "./rules/schema-enums.ts";
import { compareProperties } from "./rules/schema-properties.ts";
import { compareTypes } from "./rules/schema-types.ts";
import { compareVariants } from "./rules/schema-variants.ts";

export function compareSchemas(ctx: DiffContext, scope: SchemaScope, base: Loc, head: Loc, stack: readonly string[] = []): void {
  if (stack.length > 40) return;
  const b = normalizeSchema(ctx, "base", base);
  const h = normalizeSchema(ctx, "head", head);
  const pair = b.loc.origin && h.loc.origin ? `${b.loc.origin}|${h.loc.origin}` : undefined;
  if (pair && stack.includes(pair)) return;
  const next = pair ? [...stack, pair] : [...stack, ""];
  const recurse = (inner: SchemaScope, baseLoc: Loc, headLoc: Loc): void => compareSchemas(ctx, inner, baseLoc, headLoc, next);

  compareTypes(ctx, scope, b, h);
  compareConstraints(ctx, scope, b, h);
  compareEnums(ctx, scope, b, h);
  compareProperties(ctx, scope, b, h, recurse);
  if (b.items && h.items) recurse({ ...scope, path: `${scope.path}[]`, errorCodeField: false }, b.items, h.items);
  compareVariants(ctx, scope, b, h, recurse);
}

/** A schema of an operation part: `{ schema }` holders (media types, parameters, headers). */
export function schemaOf(loc: Loc): Loc {
  return child(loc, "schema");
}
