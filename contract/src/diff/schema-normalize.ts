/**
 * A schema reduced to what the compatibility rules compare. `$ref`s are followed (with the
 * contract model's deref), `allOf` members are merged into one schema, and the three ways of
 * saying "may be null" (3.1 `type: [T, "null"]` or `anyOf: [T, {type: "null"}]`, 3.0
 * `nullable: true`, `null` in an enum) become one flag. An `anyOf`/`oneOf` left with a single
 * non-null member is that member; with several, they are kept as variants.
 */
import { isObject } from "../model/json.ts";
import { child, type DiffContext, type Loc } from "./context.ts";

export const BOUND_KEYWORDS = ["minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems", "minProperties", "maxProperties"] as const;
export type BoundKeyword = (typeof BOUND_KEYWORDS)[number];

export interface NormalSchema {
  loc: Loc;
  /** Non-null types; undefined when the schema does not constrain the type. */
  types?: Set<string>;
  nullable: boolean;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  bounds: Map<BoundKeyword, { value: number; loc: Loc }>;
  properties: Map<string, Loc>;
  required: Set<string>;
  readOnly: boolean;
  writeOnly: boolean;
  items?: Loc;
  variants?: { kind: "anyOf" | "oneOf"; list: Loc[] };
  hasDefault: boolean;
  default?: unknown;
}

function empty(loc: Loc): NormalSchema {
  return { loc, nullable: false, bounds: new Map(), properties: new Map(), required: new Set(), readOnly: false, writeOnly: false, hasDefault: false };
}

const isNullOnly = (node: unknown): boolean => isObject(node) && (node.type === "null" || (Array.isArray(node.enum) && node.enum.length === 1 && node.enum[0] === null)) && Object.keys(node).every((k) => ["type", "enum", "description", "title"].includes(k));

/** Merges `part` into `into` as `allOf` does (both must hold). */
function merge(into: NormalSchema, part: NormalSchema): void {
  if (part.types) into.types = into.types ? new Set([...into.types].filter((t) => part.types!.has(t) || (t === "number" && part.types!.has("integer")))) : part.types;
  into.nullable ||= part.nullable;
  if (part.enum) into.enum = into.enum ? into.enum.filter((v) => part.enum!.some((w) => JSON.stringify(w) === JSON.stringify(v))) : part.enum;
  into.format ??= part.format;
  into.pattern ??= part.pattern;
  for (const [keyword, bound] of part.bounds) {
    const current = into.bounds.get(keyword);
    const tighter = !current || (keyword.startsWith("min") || keyword.startsWith("exclusiveMin") ? bound.value > current.value : bound.value < current.value);
    if (tighter) into.bounds.set(keyword, bound);
  }
  for (const [name, loc] of part.properties) if (!into.properties.has(name)) into.properties.set(name, loc);
  for (const name of part.required) into.required.add(name);
  into.readOnly ||= part.readOnly;
  into.writeOnly ||= part.writeOnly;
  into.items ??= part.items;
  into.variants ??= part.variants;
  if (!into.hasDefault && part.hasDefault) {
    into.hasDefault = true;
    into.default = part.default;
  }
}

export function normalizeSchema(ctx: DiffContext, which: "base" | "head", at: Loc, depth = 0): NormalSchema {
  const loc = ctx.resolve(which, at);
  const out = empty(loc);
  const node = loc.node;
  if (!isObject(node) || depth > 20) return out;

  if (typeof node.type === "string") out.types = new Set([node.type]);
  if (Array.isArray(node.type)) out.types = new Set(node.type.filter((t): t is string => typeof t === "string"));
  if (out.types?.delete("null") || node.nullable === true) out.nullable = true;
  if (out.types && out.types.size === 0) {
    out.types = undefined;
    if (out.nullable) out.types = new Set();
  }
  const values = Array.isArray(node.enum) ? node.enum : "const" in node ? [node.const] : undefined;
  if (values) {
    if (values.includes(null)) out.nullable = true;
    out.enum = values.filter((v) => v !== null);
  }
  if (typeof node.format === "string") out.format = node.format;
  if (typeof node.pattern === "string") out.pattern = node.pattern;
  for (const keyword of BOUND_KEYWORDS) if (typeof node[keyword] === "number") out.bounds.set(keyword, { value: node[keyword] as number, loc: child(loc, keyword) });
  if (isObject(node.properties)) for (const name of Object.keys(node.properties)) out.properties.set(name, child(loc, "properties", name));
  if (Array.isArray(node.required)) for (const name of node.required) if (typeof name === "string") out.required.add(name);
  out.readOnly = node.readOnly === true;
  out.writeOnly = node.writeOnly === true;
  if (node.items !== undefined && !Array.isArray(node.items)) out.items = child(loc, "items");
  if ("default" in node) {
    out.hasDefault = true;
    out.default = node.default;
  }

  if (Array.isArray(node.allOf)) node.allOf.forEach((_, i) => merge(out, normalizeSchema(ctx, which, child(loc, "allOf", i), depth + 1)));

  for (const kind of ["anyOf", "oneOf"] as const) {
    const list = node[kind];
    if (!Array.isArray(list)) continue;
    const members = list.map((_, i) => child(loc, kind, i)).filter((member) => !isNullOnly(ctx.resolve(which, member).node));
    if (members.length < list.length) out.nullable = true;
    if (members.length === 1) merge(out, normalizeSchema(ctx, which, members[0]!, depth + 1));
    else if (members.length > 1) out.variants ??= { kind, list: members };
  }
  return out;
}
