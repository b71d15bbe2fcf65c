/**
 * A response member that gives back a request member as it was sent: the extension
 * `x-echoes: <request member>` on the response member's schema names the member of the
 * operation's request body it echoes (a dotted path). Family A's `payer_request` echoes the
 * charge request's `payer` (decision D01): a server returns there the value it was sent.
 */
import { isObject } from "./json.ts";

export const ECHOES_EXTENSION = "x-echoes";

/** The request member a response member's schema echoes (`x-echoes`), or undefined. */
export function echoedMemberOf(schema: unknown): string | undefined {
  const value = isObject(schema) ? schema[ECHOES_EXTENSION] : undefined;
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A response member that echoes a request member: where it is in the body, which it echoes, its schema. */
export interface Echo {
  /** Dotted path of the response member in the body. */
  member: string;
  /** Dotted path of the request member it echoes. */
  echoes: string;
  schema: Record<string, unknown>;
}

/** Every member of a (dereferenced) response body schema that echoes a request member (through `allOf`, `anyOf`, `oneOf` and properties). */
export function echoesOf(schema: unknown, path = ""): Echo[] {
  if (!isObject(schema)) return [];
  const echoes = echoedMemberOf(schema);
  const own: Echo[] = echoes && path ? [{ member: path, echoes, schema }] : [];
  const parts = ["allOf", "anyOf", "oneOf"].flatMap((k) => (Array.isArray(schema[k]) ? (schema[k] as unknown[]) : []));
  const inner = parts.flatMap((part) => echoesOf(part, path));
  const members = Object.entries(isObject(schema.properties) ? schema.properties : {}).flatMap(([name, sub]) => echoesOf(sub, path ? `${path}.${name}` : name));
  return [...own, ...inner, ...members];
}
