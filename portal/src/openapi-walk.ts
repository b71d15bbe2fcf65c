/** Minimal helpers to read OpenAPI documents as plain JSON. */

export type JsonObject = Record<string, unknown>;

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Resolves a local JSON pointer reference (`#/components/...`); undefined when it does not resolve. */
export function resolveLocalRef(document: JsonObject, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Follows `$ref` chains until a non-reference object. */
export function deref<T = unknown>(document: JsonObject, value: unknown): T {
  let current = value;
  const seen = new Set<string>();
  while (isObject(current) && typeof current.$ref === "string" && !seen.has(current.$ref)) {
    seen.add(current.$ref);
    current = resolveLocalRef(document, current.$ref);
  }
  return current as T;
}

export interface OperationEntry {
  path: string;
  method: (typeof HTTP_METHODS)[number];
  operation: JsonObject;
  operationId: string;
  summary: string;
  tags: string[];
}

/** Operations of a document in document order. */
export function listOperations(document: JsonObject): OperationEntry[] {
  const entries: OperationEntry[] = [];
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      entries.push({
        path,
        method,
        operation,
        operationId: typeof operation.operationId === "string" ? operation.operationId : `${method} ${path}`,
        summary: typeof operation.summary === "string" ? operation.summary : "",
        tags: Array.isArray(operation.tags) ? operation.tags.map(String) : [],
      });
    }
  }
  return entries;
}

/**
 * Redoc's anchor of an operation: `tag/<Tag>/operation/<operationId>` (first tag), which
 * Redoc scrolls to on load. Tag names are slugified the way Redoc does for the simple names
 * this contract uses (letters, digits, spaces).
 */
export function redocOperationAnchor(entry: Pick<OperationEntry, "operationId" | "tags">): string {
  const tag = entry.tags[0];
  const operation = `operation/${entry.operationId}`;
  if (!tag) return operation;
  const slug = tag.trim().replace(/\s+/g, "-").replace(/[^A-Za-z0-9\-_.~]/g, "");
  return `tag/${slug}/${operation}`;
}

/** First example value of a parameter, media type or schema, as the contract gives it. */
export function exampleOf(node: unknown): { found: true; value: unknown } | { found: false } {
  if (!isObject(node)) return { found: false };
  if ("example" in node) return { found: true, value: node.example };
  if (isObject(node.examples)) {
    const first = Object.values(node.examples)[0];
    if (isObject(first) && "value" in first) return { found: true, value: first.value };
  }
  if (Array.isArray(node.examples) && node.examples.length > 0) return { found: true, value: node.examples[0] };
  return { found: false };
}
