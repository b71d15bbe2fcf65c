/**
 * The request body schema of an operation as a profile sees it (profiles/schema-profile.ts):
 * under seed only the document's own constraints remain (decision elements and `x-decided`
 * keywords dropped), under full the contract's. Object schemas are read with their `allOf`
 * members merged, so that nested and composed bodies expose one list of members.
 */
import type { ContractOperation } from "@payment-collection/contract/model/index.ts";
import { profileSchema, type Profile } from "../core/profiles/schema-profile.ts";
import { isObject, type Json } from "./shared.ts";

export interface ObjectView {
  properties: Record<string, Json>;
  required: string[];
}

/** A schema's type, looking through `allOf`. */
export function typeOf(schema: Json): string | undefined {
  if (typeof schema.type === "string") return schema.type;
  for (const member of Array.isArray(schema.allOf) ? schema.allOf : []) if (isObject(member) && typeof member.type === "string") return member.type;
  return undefined;
}

/** A keyword's value, looking through `allOf`. */
export function keywordOf(schema: Json, keyword: string): unknown {
  if (keyword in schema) return schema[keyword];
  for (const member of Array.isArray(schema.allOf) ? schema.allOf : []) if (isObject(member) && keyword in member) return member[keyword];
  return undefined;
}

/** Members and required names of an object schema (allOf merged); undefined for other schemas. */
export function objectView(schema: unknown): ObjectView | undefined {
  if (!isObject(schema)) return undefined;
  const parts = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf.filter(isObject) : [])];
  const properties: Record<string, Json> = {};
  const required = new Set<string>();
  for (const part of parts) {
    for (const [name, sub] of Object.entries(isObject(part.properties) ? part.properties : {})) if (isObject(sub)) properties[name] = sub;
    for (const name of Array.isArray(part.required) ? part.required : []) required.add(String(name));
  }
  return Object.keys(properties).length > 0 || required.size > 0 ? { properties, required: [...required] } : undefined;
}

/** The profile's view of an operation's request body schema. */
export function requestSchema(op: ContractOperation, profile: Profile): Json | undefined {
  return op.requestBody ? profileSchema(op.requestBody.schema, profile) : undefined;
}
