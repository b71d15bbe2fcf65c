/**
 * The body schema Dredd's validator (Gavel, with ajv 6 inside) is given: the contract's schema
 * under the profile, as draft-07 and without the formats ajv 6 does not know.
 */
import type { JsonSchema } from "@payment-collection/contract/model/json-schema.ts";

/** Formats ajv 6 (inside Dredd's validator, Gavel) knows; others make it throw, so they are left out. */
const GAVEL_FORMATS = new Set(["date", "time", "date-time", "uri", "uri-reference", "email", "hostname", "ipv4", "ipv6", "uuid", "regex"]);

/** The body schema as Gavel can use it: draft-07, without formats its ajv 6 does not know. */
export function gavelSchema(schema: JsonSchema): JsonSchema {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (typeof node !== "object" || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "format" && typeof value === "string" && !GAVEL_FORMATS.has(value)) continue;
      // Under "properties" the keys are property names, not keywords: copy them through strip too.
      out[key] = strip(value);
    }
    return out;
  };
  return { ...(strip(schema) as JsonSchema), $schema: "http://json-schema.org/draft-07/schema#" };
}
