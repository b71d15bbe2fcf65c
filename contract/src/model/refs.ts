/**
 * `$ref` following. The generated documents come referenced (component names visible) and
 * dereferenced; every reader that meets a `$ref` resolves it here, so there is one rule for
 * pointers, chains and cycles.
 */
import { isObject, type Json } from "./json.ts";

/** Resolves a local JSON pointer (`#/components/schemas/Charge`); undefined when it does not resolve. */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (ref === "#") return document;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

/** A value at a validator's instance path (ajv's `/data/items/0/name`: a JSON pointer without `#`, not URI-encoded). */
export function valueAtInstancePath(root: unknown, instancePath: string): unknown {
  let node = root;
  for (const raw of instancePath.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node)) node = node[key];
    else return undefined;
  }
  return node;
}

/**
 * Follows a `$ref` chain to the node it names; a node without `$ref` is returned as it is.
 * A pointer that does not resolve, leaves the document or loops gives undefined.
 */
export function deref<T = unknown>(document: unknown, node: unknown): T {
  let current = node;
  const seen = new Set<string>();
  while (isObject(current) && typeof current.$ref === "string") {
    const ref = current.$ref;
    if (seen.has(ref)) return undefined as T;
    seen.add(ref);
    current = resolvePointer(document, ref);
  }
  return current as T;
}

const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/**
 * A deep copy of a schema with every local `$ref` inlined (a cycle is cut to `{}`; a `$ref`
 * with siblings, allowed by 3.1, becomes an `allOf`). Examples are left out: they are data,
 * and a validator must not read them as schemas.
 */
export function inlineRefs(document: unknown, node: unknown, stack: string[] = []): unknown {
  if (Array.isArray(node)) return node.map((n) => inlineRefs(document, n, stack));
  if (!isObject(node)) return node;
  if (typeof node.$ref === "string") {
    const ref = node.$ref;
    if (stack.includes(ref)) return {};
    const { $ref: _ref, ...siblings } = node;
    const target = inlineRefs(document, deref(document, { $ref: ref }) ?? {}, [...stack, ref]);
    return Object.keys(siblings).length > 0 ? { allOf: [target, inlineRefs(document, siblings, stack)] } : target;
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "example" || key === "examples") continue;
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      // Property names are names, not keywords: keep every one, even one called "example".
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, inlineRefs(document, sub, stack)]));
    } else {
      out[key] = inlineRefs(document, value, stack);
    }
  }
  return out;
}

const COMPONENT_SCHEMA = "#/components/schemas/";

/**
 * Names of the component schemas a node reaches through `$ref`, transitively. Needs the
 * referenced document (a dereferenced one has no names left). Lets a statement that names a
 * schema map to the requests and responses that carry it.
 */
export function componentSchemasReachedBy(document: unknown, node: unknown): Set<string> {
  const names = new Set<string>();
  const schemas = isObject(document) && isObject(document.components) && isObject(document.components.schemas) ? document.components.schemas : {};
  const visit = (current: unknown): void => {
    if (Array.isArray(current)) {
      current.forEach(visit);
      return;
    }
    if (!isObject(current)) return;
    if (typeof current.$ref === "string" && current.$ref.startsWith(COMPONENT_SCHEMA)) {
      const name = current.$ref.slice(COMPONENT_SCHEMA.length);
      if (!names.has(name)) {
        names.add(name);
        visit(schemas[name]);
      }
      return;
    }
    for (const value of Object.values(current)) visit(value);
  };
  visit(node);
  return names;
}
