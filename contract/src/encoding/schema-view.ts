/**
 * Schema views: one schema node with `$ref`, `allOf` and null-admitting unions folded in, so
 * that a check reads "the type", "the enum", "the properties" of a node whatever way the
 * emitter wrote it. Every way of admitting null counts the same: 3.0 `nullable: true`, 3.1
 * `type: [.., "null"]`, an `anyOf`/`oneOf` branch `{type: "null"}` and `null` in an `enum`.
 */
import { asList, deref, isObject, type Json } from "../model/index.ts";
import type { OpenApiDocument } from "./check-types.ts";

export interface SchemaView {
  /** The schema node the view was built from (what instance validation uses). */
  source: unknown;
  /** Every schema object folded into this view. */
  parts: Json[];
  /** Non-null JSON types. */
  types: Set<string>;
  nullable: boolean;
  /** Admitted non-null values when an enum/const restricts them (intersection over allOf). */
  enumValues?: unknown[];
  properties: Map<string, unknown[]>;
  required: Set<string>;
  descriptions: string[];
  formats: Set<string>;
  patterns: string[];
  maxLength?: number;
  minLength?: number;
  minProperties?: number;
  items: unknown[];
}

function emptyView(source: unknown): SchemaView {
  return {
    source,
    parts: [],
    types: new Set(),
    nullable: false,
    properties: new Map(),
    required: new Set(),
    descriptions: [],
    formats: new Set(),
    patterns: [],
    items: [],
  };
}

function isNullOnly(doc: OpenApiDocument, node: unknown): boolean {
  const s = deref(doc, node);
  if (!isObject(s)) return false;
  if (s.type === "null") return true;
  if (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === "null") return true;
  if (Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null) return true;
  return "const" in s && s.const === null;
}

function restrictEnum(view: SchemaView, values: unknown[]): void {
  const nonNull = values.filter((v) => v !== null);
  if (values.length !== nonNull.length) view.nullable = true;
  view.enumValues = view.enumValues === undefined ? nonNull : view.enumValues.filter((v) => nonNull.some((n) => sameValue(n, v)));
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Folds a schema node into `view` (allOf semantics: every constraint applies). */
function fold(doc: OpenApiDocument, node: unknown, view: SchemaView, depth = 0): void {
  if (depth > 32 || !isObject(node)) return;
  if (typeof node.$ref === "string") {
    // 3.1 allows siblings next to $ref; fold both.
    const { $ref: _ref, ...siblings } = node;
    if (Object.keys(siblings).length > 0) fold(doc, siblings, view, depth + 1);
    fold(doc, deref(doc, node), view, depth + 1);
    return;
  }
  view.parts.push(node);
  for (const t of asList(node.type as string | string[] | undefined)) {
    if (t === "null") view.nullable = true;
    else view.types.add(t);
  }
  if (node.nullable === true) view.nullable = true;
  if (Array.isArray(node.enum)) restrictEnum(view, node.enum);
  if ("const" in node) restrictEnum(view, [node.const]);
  if (isObject(node.properties)) {
    for (const [name, schema] of Object.entries(node.properties)) {
      view.properties.set(name, [...(view.properties.get(name) ?? []), schema]);
    }
  }
  for (const name of asList(node.required as string[] | undefined)) view.required.add(name);
  if (typeof node.description === "string") view.descriptions.push(node.description);
  if (typeof node.format === "string") view.formats.add(node.format);
  if (typeof node.pattern === "string") view.patterns.push(node.pattern);
  if (typeof node.maxLength === "number") view.maxLength = Math.min(view.maxLength ?? Infinity, node.maxLength);
  if (typeof node.minLength === "number") view.minLength = Math.max(view.minLength ?? 0, node.minLength);
  if (typeof node.minProperties === "number") view.minProperties = Math.max(view.minProperties ?? 0, node.minProperties);
  if (node.items !== undefined) view.items.push(node.items);
  for (const member of asList(node.allOf as unknown[] | undefined)) fold(doc, member, view, depth + 1);
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = asList(node[key] as unknown[] | undefined);
    if (branches.length === 0) continue;
    const nonNull = branches.filter((b) => !isNullOnly(doc, b));
    if (nonNull.length < branches.length) view.nullable = true;
    if (nonNull.length === 1) {
      fold(doc, nonNull[0], view, depth + 1);
    } else {
      foldUnion(doc, nonNull, view, depth + 1);
    }
  }
}

/** Folds alternatives: what any branch admits is admitted (types, values, properties). */
function foldUnion(doc: OpenApiDocument, branches: unknown[], view: SchemaView, depth: number): void {
  const views = branches.map((b) => viewOf(doc, b, depth));
  for (const v of views) {
    view.parts.push(...v.parts);
    v.types.forEach((t) => view.types.add(t));
    if (v.nullable) view.nullable = true;
    for (const [name, schemas] of v.properties) view.properties.set(name, [...(view.properties.get(name) ?? []), ...schemas]);
    view.descriptions.push(...v.descriptions);
    v.formats.forEach((f) => view.formats.add(f));
    view.items.push(...v.items);
  }
  // Required and enum only hold when every branch says so.
  if (views.every((v) => v.enumValues !== undefined)) {
    restrictEnum(view, views.flatMap((v) => v.enumValues ?? []));
  }
  const [first, ...rest] = views;
  if (first) for (const name of first.required) if (rest.every((v) => v.required.has(name))) view.required.add(name);
}

export function viewOf(doc: OpenApiDocument, node: unknown, depth = 0): SchemaView {
  const view = emptyView(node);
  fold(doc, node, view, depth);
  return view;
}

function viewOfAll(doc: OpenApiDocument, nodes: unknown[]): SchemaView {
  return viewOf(doc, { allOf: nodes });
}

interface Descended {
  /** The node, or undefined when the path does not exist. */
  view?: SchemaView;
  /** The object holding the last path segment (undefined at the root). */
  parent?: SchemaView;
  name?: string;
  missingAt?: string;
}

/** Walks a dotted property path from a root schema. */
export function descend(doc: OpenApiDocument, root: unknown, path: string | undefined): Descended {
  let view = viewOf(doc, root);
  let parent: SchemaView | undefined;
  let name: string | undefined;
  const segments = (path ?? "").split(".").filter((s) => s.length > 0);
  const walked: string[] = [];
  for (const raw of segments) {
    const arraySteps = raw.endsWith("[]") ? raw.match(/\[\]/g)!.length : 0;
    const key = raw.replace(/\[\]/g, "");
    walked.push(raw);
    if (key.length > 0) {
      const schemas = view.properties.get(key);
      if (!schemas) return { parent: view, name: key, missingAt: walked.join(".") };
      parent = view;
      name = key;
      view = viewOfAll(doc, schemas);
    }
    for (let i = 0; i < arraySteps; i += 1) {
      if (view.items.length === 0) return { missingAt: `${walked.join(".")} (no items)` };
      parent = undefined;
      name = undefined;
      view = viewOfAll(doc, view.items);
    }
  }
  return { view, parent, name };
}


/** The values a body admits at a path, from enum/const only (a bare string admits no code). */
export function admittedAt(doc: OpenApiDocument, schema: unknown, path: string): unknown[] {
  return descend(doc, schema, path).view?.enumValues ?? [];
}
