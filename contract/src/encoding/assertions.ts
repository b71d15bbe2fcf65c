/**
 * Assertions about one schema node (type, nullability, values, lengths, properties...), and
 * instance validation (accepts/rejects) through the contract's own OpenAPI -> JSON Schema path.
 */
import { asList, compileOpenApiSchema, decidedKeywordsOf, DOMAIN_FORMAT_EXTENSION, inlineRefs, isObject, openApiVersionOf } from "../model/index.ts";
import { strictValidator } from "./checks-strict.ts";
import type { OpenApiDocument, SchemaAssertions } from "./check-types.ts";
import { sameValue, type SchemaView } from "./schema-view.ts";

function validateInstances(doc: OpenApiDocument, view: SchemaView, accepts: unknown[], rejects: unknown[], label: string): string[] {
  const problems: string[] = [];
  let validate: (data: unknown) => boolean;
  try {
    validate = compileOpenApiSchema(inlineRefs(doc, view.source), openApiVersionOf(doc));
  } catch (error) {
    return [`${label}: schema does not compile (${(error as Error).message})`];
  }
  for (const value of accepts) if (!validate(value)) problems.push(`${label}: rejects ${JSON.stringify(value)}, should accept it`);
  for (const value of rejects) if (validate(value)) problems.push(`${label}: accepts ${JSON.stringify(value)}, should reject it`);
  return problems;
}

function typeLabel(view: SchemaView): string {
  return [...view.types].join("|") || "untyped";
}

/** Assertions about a node's own schema (not its presence or required-ness). */
export function assertSchema(doc: OpenApiDocument, view: SchemaView, a: SchemaAssertions, label: string): string[] {
  const p: string[] = [];
  if (a.type !== undefined) {
    const wanted = asList(a.type);
    const inferred = view.types.size > 0 ? view.types : inferTypes(view);
    if (inferred.size === 0 || ![...inferred].every((t) => wanted.includes(t) || (t === "integer" && wanted.includes("number")))) {
      p.push(`${label}: type ${typeLabel(view)}, expected ${wanted.join(" or ")}`);
    }
  }
  if (a.nullable !== undefined && view.nullable !== a.nullable) {
    p.push(`${label}: ${view.nullable ? "admits" : "does not admit"} null, expected ${a.nullable ? "nullable" : "not nullable"}`);
  }
  if (a.const !== undefined) {
    if (!view.enumValues || view.enumValues.length !== 1 || !sameValue(view.enumValues[0], a.const)) {
      p.push(`${label}: admits ${view.enumValues ? JSON.stringify(view.enumValues) : "any value"}, expected only ${JSON.stringify(a.const)}`);
    }
  }
  if (a.enum !== undefined) {
    const got = view.enumValues ?? [];
    const same = got.length === a.enum.length && a.enum.every((v) => got.some((g) => sameValue(g, v)));
    if (!same) p.push(`${label}: enum ${view.enumValues ? JSON.stringify(got) : "absent"}, expected exactly ${JSON.stringify(a.enum)}`);
  }
  for (const value of a.enumIncludes ?? []) {
    if (!view.enumValues?.some((g) => sameValue(g, value))) {
      p.push(`${label}: enum ${view.enumValues ? JSON.stringify(view.enumValues) : "absent"} lacks ${JSON.stringify(value)}`);
    }
  }
  if (a.format !== undefined) {
    const wanted = asList(a.format);
    if (![...view.formats].some((f) => wanted.includes(f))) p.push(`${label}: format ${[...view.formats].join(",") || "absent"}, expected ${wanted.join(" or ")}`);
  }
  if (a.maxLength !== undefined && view.maxLength !== a.maxLength) p.push(`${label}: maxLength ${view.maxLength ?? "absent"}, expected ${a.maxLength}`);
  if (a.minLength !== undefined && view.minLength !== a.minLength) p.push(`${label}: minLength ${view.minLength ?? "absent"}, expected ${a.minLength}`);
  if (a.minProperties !== undefined && view.minProperties !== a.minProperties) {
    p.push(`${label}: minProperties ${view.minProperties ?? "absent"}, expected ${a.minProperties}`);
  }
  if (a.pattern !== undefined && (view.patterns.length > 0) !== a.pattern) p.push(`${label}: ${view.patterns.length > 0 ? "has" : "has no"} pattern`);
  if (a.strictAccepts !== undefined) {
    const validate = strictValidator(doc, view.source);
    for (const value of a.strictAccepts) {
      const errors = validate(value);
      if (errors.length > 0) p.push(`${label}: a strict validator refuses ${JSON.stringify(value)} (${errors.join("; ")})`);
    }
  }
  for (const name of a.forbids ?? []) {
    const forbidding = view.parts.some((part) => {
      const not = part.not;
      if (!isObject(not)) return false;
      const alternatives = Array.isArray(not.anyOf) ? not.anyOf : [not];
      return alternatives.some((alt) => isObject(alt) && Array.isArray(alt.required) && alt.required.length === 1 && alt.required[0] === name);
    });
    if (!forbidding) p.push(`${label}: does not forbid ${name} (no \`not: {required: [${name}]}\`)`);
  }
  for (const name of a.propertiesInclude ?? []) if (!view.properties.has(name)) p.push(`${label}: no property ${name}`);
  for (const name of a.propertiesExclude ?? []) if (view.properties.has(name)) p.push(`${label}: has property ${name}, should not`);
  for (const name of a.requiredInclude ?? []) if (!view.required.has(name)) p.push(`${label}: ${name} is not required`);
  if (a.requiredExactly !== undefined) {
    const got = [...view.required].sort();
    const want = [...a.requiredExactly].sort();
    if (JSON.stringify(got) !== JSON.stringify(want)) p.push(`${label}: required ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  }
  if (a.requiredSubsetOf !== undefined) {
    const extra = [...view.required].filter((n) => !a.requiredSubsetOf!.includes(n));
    if (extra.length > 0) p.push(`${label}: also requires ${extra.join(", ")}`);
  }
  if (a.domainFormat !== undefined) p.push(...assertDomainFormat(view, a.domainFormat, label));
  if (a.accepts !== undefined || a.rejects !== undefined) {
    p.push(...validateInstances(doc, view, a.accepts ?? [], a.rejects ?? [], label));
  }
  return p;
}

/** The node names the domain format, and no decision marking claims the extension. */
function assertDomainFormat(view: SchemaView, format: string, label: string): string[] {
  const named = new Set(view.parts.map((part) => part[DOMAIN_FORMAT_EXTENSION]).filter((value) => value !== undefined));
  if (!named.has(format)) return [`${label}: ${DOMAIN_FORMAT_EXTENSION} ${[...named].join(",") || "absent"}, expected ${format}`];
  const deciding = view.parts.flatMap((part) => decidedKeywordsOf(part)).filter((d) => d.keywords.includes(DOMAIN_FORMAT_EXTENSION));
  return deciding.map((d) => `${label}: ${DOMAIN_FORMAT_EXTENSION} is marked decided (${d.decision}), but the statement makes it the document's word`);
}

function inferTypes(view: SchemaView): Set<string> {
  const types = new Set<string>();
  if (view.properties.size > 0) types.add("object");
  if (view.items.length > 0) types.add("array");
  for (const v of view.enumValues ?? []) {
    types.add(typeof v === "number" ? (Number.isInteger(v) ? "integer" : "number") : typeof v);
  }
  return types;
}
