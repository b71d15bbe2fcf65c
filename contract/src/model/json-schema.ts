/**
 * OpenAPI Schema Objects -> JSON Schema, and ajv validators for them.
 *
 * OpenAPI 3.0 schemas are a dialect of draft-07 (`nullable`, boolean `exclusiveMinimum`,
 * `example`, `discriminator`, vendor extensions); OpenAPI 3.1 schemas are JSON Schema 2020-12
 * plus a few OpenAPI keywords. `toJsonSchema` turns either into plain JSON Schema of the
 * matching draft so that ajv validates exactly what the contract says. It expects a
 * dereferenced schema (generated/openapi/<v>/<family>.dereferenced.json): a `$ref` left in the
 * input is copied unchanged.
 */
import { Ajv as Ajv07, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { addDomainFormats, DOMAIN_FORMATS, DOMAIN_NUMBER_FORMATS, DOMAIN_OBJECT_FORMATS, DOMAIN_OBJECT_KEYWORD } from "./domain-formats.ts";
import type { OpenApiVersionId } from "./layout.ts";

/** The vendor extension naming a domain format (`x-domain-format: br-code`, or `boleto-bank-slip` on an object). */
export const DOMAIN_FORMAT_EXTENSION = "x-domain-format";

export type JsonSchema = Record<string, unknown>;
type AjvInstance = Ajv07 | Ajv2020;

/** The JSON Schema dialect each OpenAPI version's schemas are converted to. */
export const JSON_SCHEMA_DIALECT: Record<OpenApiVersionId, string> = {
  "3.0": "http://json-schema.org/draft-07/schema#",
  "3.1": "https://json-schema.org/draft/2020-12/schema",
};

/** Keywords whose value is one schema. */
const SCHEMA_KEYWORDS = new Set([
  "items",
  "additionalItems",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
]);
/** Keywords whose value is an array of schemas. */
const SCHEMA_ARRAY_KEYWORDS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS = new Set(["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"]);
/**
 * OpenAPI-only keywords and annotations that are not validation: dropped so that ajv in strict
 * mode accepts the schema and nothing about them is mistaken for a constraint. `readOnly` and
 * `writeOnly` say in which direction a property travels; callers that care read them from the
 * OpenAPI schema itself.
 */
const DROPPED_KEYWORDS = new Set([
  "nullable",
  "example",
  "discriminator",
  "xml",
  "externalDocs",
  "readOnly",
  "writeOnly",
  "deprecated",
]);
/** Keywords whose presence means `nullable` cannot be expressed by widening `type`. */
const NULLABLE_NEEDS_WRAPPER = ["allOf", "anyOf", "oneOf", "not", "$ref", "enum", "const"];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The subschemas directly inside a schema, each with the path segments that lead to it
 * (`["properties", "amount"]`, `["allOf", "0"]`, `["items"]`). Lets callers walk a schema tree
 * without mistaking a property named like a keyword for the keyword.
 */
export function subschemas(schema: unknown): Array<{ segments: string[]; schema: unknown }> {
  if (!isObject(schema)) return [];
  const found: Array<{ segments: string[]; schema: unknown }> = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (SCHEMA_KEYWORDS.has(keyword) && isObject(value)) found.push({ segments: [keyword], schema: value });
    else if ((SCHEMA_ARRAY_KEYWORDS.has(keyword) || keyword === "items") && Array.isArray(value)) {
      value.forEach((item, index) => found.push({ segments: [keyword, String(index)], schema: item }));
    } else if (SCHEMA_MAP_KEYWORDS.has(keyword) && isObject(value)) {
      for (const [name, item] of Object.entries(value)) found.push({ segments: [keyword, name], schema: item });
    }
  }
  return found;
}

/** Options of the conversion. */
export interface ConversionOptions {
  /**
   * Read `nullable` as OpenAPI 3.0.3 strictly defines it, as Dredd and Prism do: it adds null
   * only to a `type` of the same schema object; next to `enum`, `allOf`, `$ref` or without
   * `type` it admits nothing (the other keywords keep rejecting null). The default reading
   * (false) is the lenient one the contract's validators use: null becomes an alternative.
   */
  strictNullable?: boolean;
}

function convert(schema: unknown, version: OpenApiVersionId, options: ConversionOptions = {}): unknown {
  if (typeof schema === "boolean") return schema;
  if (!isObject(schema)) return schema;
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    // A value the domain defines (a BR Code, a CPF/CNPJ, a boleto line) is checked by its
    // domain rules: the extension becomes the model's ajv format of that name.
    if (keyword === DOMAIN_FORMAT_EXTENSION && typeof value === "string" && (value in DOMAIN_FORMATS || value in DOMAIN_NUMBER_FORMATS)) {
      out.format = value;
      continue;
    }
    // On an object, the rule relating its members (a boleto's barcode and typed line).
    if (keyword === DOMAIN_FORMAT_EXTENSION && typeof value === "string" && value in DOMAIN_OBJECT_FORMATS) {
      out[DOMAIN_OBJECT_KEYWORD] = value;
      continue;
    }
    if (keyword.startsWith("x-") || DROPPED_KEYWORDS.has(keyword)) continue;
    if (SCHEMA_KEYWORDS.has(keyword)) {
      out[keyword] = Array.isArray(value) ? value.map((s) => convert(s, version, options)) : convert(value, version, options);
    } else if (SCHEMA_ARRAY_KEYWORDS.has(keyword) && Array.isArray(value)) {
      out[keyword] = value.map((s) => convert(s, version, options));
    } else if (SCHEMA_MAP_KEYWORDS.has(keyword) && isObject(value)) {
      out[keyword] = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, convert(s, version, options)]));
    } else {
      // Values (enum, const, default, examples, required, ...) are copied as they are.
      out[keyword] = value;
    }
  }
  // OpenAPI 3.0 writes exclusive bounds as booleans next to minimum/maximum; draft-07 wants numbers.
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof out[flag] === "boolean") {
      if (out[flag] === true && typeof out[bound] === "number") {
        out[flag] = out[bound];
        delete out[bound];
      } else {
        delete out[flag];
      }
    }
  }
  // `nullable: true` (OpenAPI 3.0; tolerated in 3.1 input) also admits null.
  if (schema.nullable === true) return options.strictNullable ? admitNullStrictly(out) : admitNull(out);
  return out;
}

/** OpenAPI 3.0.3 `nullable`: widens a same-level `type`, nothing else. */
function admitNullStrictly(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === "string") return { ...schema, type: [schema.type, "null"] };
  if (Array.isArray(schema.type) && !schema.type.includes("null")) return { ...schema, type: [...schema.type, "null"] };
  return schema;
}

function admitNull(schema: JsonSchema): JsonSchema {
  const needsWrapper = NULLABLE_NEEDS_WRAPPER.some((keyword) => keyword in schema);
  if (!needsWrapper && typeof schema.type === "string") return { ...schema, type: [schema.type, "null"] };
  if (!needsWrapper && Array.isArray(schema.type)) {
    return schema.type.includes("null") ? schema : { ...schema, type: [...schema.type, "null"] };
  }
  if (!needsWrapper && schema.type === undefined) return schema; // no type: null is already valid
  // enum/const/composition constrain the value itself: null becomes a separate alternative.
  return { anyOf: [{ type: "null" }, schema] };
}

/**
 * Converts an OpenAPI Schema Object (dereferenced) of the given OpenAPI version into a JSON
 * Schema of the matching dialect, with `$schema` set on the root. The input is not modified.
 */
export function toJsonSchema(openapiSchema: unknown, version: OpenApiVersionId, options: ConversionOptions = {}): JsonSchema {
  const converted = convert(openapiSchema, version, options);
  if (typeof converted === "boolean") return converted ? {} : { not: {} };
  if (!isObject(converted)) throw new TypeError("toJsonSchema: a schema must be an object or a boolean");
  return { $schema: JSON_SCHEMA_DIALECT[version], ...converted };
}

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

/**
 * Registers the string formats of ajv-formats, the numeric formats OpenAPI defines and the
 * contract's domain formats (check digits and CRCs: domain-formats.ts).
 */
function addOpenApiFormats(ajv: AjvInstance): void {
  // ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
  const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
    ajv: AjvInstance,
  ) => AjvInstance;
  addFormats(ajv);
  ajv.addFormat("int32", {
    type: "number",
    validate: (n: number) => Number.isInteger(n) && n >= INT32.min && n <= INT32.max,
  });
  ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat("float", { type: "number", validate: (n: number) => Number.isFinite(n) });
  ajv.addFormat("double", { type: "number", validate: (n: number) => Number.isFinite(n) });
  addDomainFormats(ajv);
}

/**
 * An ajv instance for schemas converted from the given OpenAPI version: draft-07 for 3.0,
 * 2020-12 for 3.1, all errors reported, formats checked, unknown keywords and formats refused
 * (so a keyword the conversion missed shows up instead of being silently ignored).
 */
export function createSchemaValidator(version: OpenApiVersionId): AjvInstance {
  const options = {
    allErrors: true,
    strict: true,
    // TypeSpec emits `properties` without `type: object` in places, and unions without a
    // shared type; these are valid JSON Schema, only ajv's style checks object to them.
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    validateFormats: true,
  } as const;
  const ajv = version === "3.0" ? new Ajv07(options) : new Ajv2020(options);
  addOpenApiFormats(ajv);
  return ajv;
}

const validators: Partial<Record<OpenApiVersionId, AjvInstance>> = {};
/** Compiled validators by schema object, so a schema read once is compiled once per version. */
const compiledOpenApi: Record<OpenApiVersionId, WeakMap<object, ValidateFunction>> = { "3.0": new WeakMap(), "3.1": new WeakMap() };
const compiledJsonSchema: Record<OpenApiVersionId, WeakMap<object, ValidateFunction>> = { "3.0": new WeakMap(), "3.1": new WeakMap() };

function sharedValidator(version: OpenApiVersionId): AjvInstance {
  validators[version] ??= createSchemaValidator(version);
  return validators[version];
}

/**
 * Compiles a validator for an OpenAPI schema (shared ajv instance per OpenAPI version; cached
 * per schema object, so do not mutate a schema after compiling it).
 */
export function compileOpenApiSchema(openapiSchema: unknown, version: OpenApiVersionId): ValidateFunction {
  const cache = compiledOpenApi[version];
  const cached = isObject(openapiSchema) ? cache.get(openapiSchema) : undefined;
  if (cached) return cached;
  const validate = sharedValidator(version).compile(toJsonSchema(openapiSchema, version));
  if (isObject(openapiSchema)) cache.set(openapiSchema, validate);
  return validate;
}

/**
 * Compiles a validator for a schema already converted by `toJsonSchema` (callers that adjust
 * the JSON Schema before validating, e.g. per conformance profile). Cached per schema object.
 */
export function compileJsonSchema(jsonSchema: JsonSchema, version: OpenApiVersionId): ValidateFunction {
  const cache = compiledJsonSchema[version];
  let validate = cache.get(jsonSchema);
  if (!validate) {
    validate = sharedValidator(version).compile(jsonSchema);
    cache.set(jsonSchema, validate);
  }
  return validate;
}

/** ajv's errors as short lines: `<instance path> <message>`. */
export function describeSchemaErrors(validate: ValidateFunction): string[] {
  return (validate.errors ?? []).map((error) => {
    const params = Object.keys(error.params ?? {}).length > 0 ? ` ${JSON.stringify(error.params)}` : "";
    return `${error.instancePath || "(root)"} ${error.message ?? error.keyword}${params}`;
  });
}
