/**
 * Strict OpenAPI 3.0 validation (issue #16, item 9). Dredd and Prism read `nullable` as
 * OpenAPI 3.0.3 defines it: it adds null only to the `type` of the same schema object and
 * does not reach into `allOf`, `$ref` or `enum`. A document that says "null if not
 * registered" through `{type, allOf: [$ref], nullable: true}` is therefore refused by them.
 * These checks validate with that strict reading (3.1 documents: the standard reading, since
 * 3.1 expresses null through `type` and `anyOf`, which every validator reads the same way):
 *
 * - `strict-examples`: every example of the document (media types, parameters, headers,
 *   schemas) validates, and every node that admits null (`nullable: true`, a `null` type or
 *   branch) accepts null;
 * - the `strictAccepts` assertion (assertions.ts): given instances validate at one node.
 */
import { asList, compileJsonSchema, inlineRefs, isObject, openApiVersionOf, toJsonSchema, describeSchemaErrors, type Json } from "../model/index.ts";
import type { OpenApiDocument, StrictExamplesCheck } from "./check-types.ts";

/** A validator of one schema node under the strict reading of its document's version. */
export function strictValidator(doc: OpenApiDocument, node: unknown): ((value: unknown) => string[]) {
  const version = openApiVersionOf(doc);
  const schema = toJsonSchema(inlineRefs(doc, node), version, { strictNullable: version === "3.0" });
  const validate = compileJsonSchema(schema, version);
  return (value) => (validate(value) ? [] : describeSchemaErrors(validate));
}

/** Whether a schema node (not following $ref) says that it admits null. */
function admitsNullByItself(node: Json): boolean {
  if (node.nullable === true) return true;
  if (node.type === "null" || (Array.isArray(node.type) && node.type.includes("null"))) return true;
  return asList(node.anyOf as unknown[]).concat(asList(node.oneOf as unknown[])).some((b) => isObject(b) && b.type === "null");
}

const MAP_OF_SCHEMAS = new Set(["properties", "patternProperties", "schemas"]);

interface Found {
  examples: Array<{ at: string; value: unknown; schema: unknown }>;
  nullable: Array<{ at: string; schema: Json }>;
}

/**
 * Every example with the schema it must satisfy, and every schema node that admits null. The
 * walk follows the document's structure, so a property named `example` (a key of a
 * `properties` map) is not taken for an example.
 */
function collect(doc: OpenApiDocument): Found {
  const found: Found = { examples: [], nullable: [] };
  const walk = (node: unknown, at: string, parentKey: string | undefined): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${at}/${i}`, undefined));
    if (!isObject(node)) return;
    const inMap = parentKey !== undefined && MAP_OF_SCHEMAS.has(parentKey);
    if (!inMap) {
      if (isObject(node.schema)) {
        // Media type, parameter or header: its example(s) against its schema.
        if ("example" in node) found.examples.push({ at: `${at}/example`, value: node.example, schema: node.schema });
        if (isObject(node.examples)) {
          for (const [name, entry] of Object.entries(node.examples)) {
            if (isObject(entry) && "value" in entry) found.examples.push({ at: `${at}/examples/${name}/value`, value: entry.value, schema: node.schema });
          }
        }
      } else if ("example" in node && (parentKey === "schema" || at.includes("/components/schemas/") || "type" in node || "properties" in node)) {
        found.examples.push({ at: `${at}/example`, value: node.example, schema: node });
      }
      if (("type" in node || "allOf" in node || "anyOf" in node || "oneOf" in node || "$ref" in node) && admitsNullByItself(node)) {
        found.nullable.push({ at, schema: node });
      }
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "example" || key === "examples" || key.startsWith("x-decided")) continue;
      walk(value, `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, inMap ? undefined : key);
    }
  };
  walk(doc, "#", undefined);
  return found;
}

export function checkStrictExamples(doc: OpenApiDocument, _c: StrictExamplesCheck): string[] {
  const { examples, nullable } = collect(doc);
  const problems: string[] = [];
  for (const example of examples) {
    const errors = strictValidator(doc, example.schema)(example.value);
    if (errors.length > 0) problems.push(`${example.at}: example refused by a strict validator: ${errors.join("; ")}`);
  }
  for (const node of nullable) {
    const errors = strictValidator(doc, node.schema)(null);
    if (errors.length > 0) problems.push(`${node.at}: admits null, but a strict validator refuses null: ${errors.join("; ")}`);
  }
  if (examples.length === 0) problems.push("the document has no examples");
  return problems;
}
