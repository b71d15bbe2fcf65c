/**
 * The plain-JSON view every module of the model reads documents through: OpenAPI documents
 * are parsed JSON, so an object is a string-keyed record and anything else is a value.
 */
export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A keyword that may hold one value or a list of them (`type`, `required`, `security`...), as a list. */
export function asList<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
