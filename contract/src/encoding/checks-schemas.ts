/**
 * Checks of schemas: a property (or a body root) and its assertions, enums, and the rules
 * every body of the document must follow (media types, property names, open objects).
 */
import { isObject } from "../model/index.ts";
import { assertSchema } from "./assertions.ts";
import type { ContentTypesCheck, EnumCheck, OpenApiDocument, OpenObjectsCheck, PropertyCheck, PropertyNamesCheck } from "./check-types.ts";
import { allMediaTypes, locateRoots, walkSchemas } from "./locate.ts";
import { descend } from "./schema-view.ts";

export function checkProperty(doc: OpenApiDocument, c: PropertyCheck): string[] {
  const { roots, problems } = locateRoots(doc, c);
  for (const root of roots) {
    const label = c.path ? `${root.label} ${c.path}` : root.label;
    const found = descend(doc, root.schema, c.path);
    if (c.absent) {
      if (found.view) problems.push(`${label}: present, should be absent`);
      continue;
    }
    if (!found.view) {
      problems.push(`${label}: missing (at ${found.missingAt})`);
      continue;
    }
    if (c.required !== undefined) {
      if (!found.parent || found.name === undefined) problems.push(`${label}: required-ness needs a property path`);
      else if (found.parent.required.has(found.name) !== c.required) {
        problems.push(`${label}: ${c.required ? "not required" : "required"}, expected ${c.required ? "required" : "optional"}`);
      }
    }
    problems.push(...assertSchema(doc, found.view, c, label));
  }
  return problems;
}

export function checkEnum(doc: OpenApiDocument, c: EnumCheck): string[] {
  const { check: _k, values, exact, ...locator } = c;
  return checkProperty(doc, { check: "property", ...locator, ...(exact ? { enum: values } : { enumIncludes: values }) });
}

export function checkContentTypes(doc: OpenApiDocument, c: ContentTypesCheck): string[] {
  const pattern = new RegExp(c.matches, "i");
  const bodies = allMediaTypes(doc);
  if (bodies.length === 0) return ["the document declares no bodies"];
  return bodies.filter((b) => !pattern.test(b.mediaType)).map((b) => `${b.label}: media type ${b.mediaType} does not match ${c.matches}`);
}

export function checkPropertyNames(doc: OpenApiDocument, c: PropertyNamesCheck): string[] {
  const pattern = new RegExp(c.matches);
  const problems = new Set<string>();
  for (const body of allMediaTypes(doc)) {
    walkSchemas(
      doc,
      body.schema,
      (schema, where) => {
        if (!isObject(schema.properties)) return;
        for (const name of Object.keys(schema.properties)) if (!pattern.test(name)) problems.add(`${body.label}${where}: property ${name} does not match ${c.matches}`);
      },
      "",
      new Set(),
    );
  }
  return [...problems];
}

export function checkOpenObjects(doc: OpenApiDocument, _c: OpenObjectsCheck): string[] {
  const problems = new Set<string>();
  for (const body of allMediaTypes(doc)) {
    if (body.label.endsWith(" request")) continue;
    walkSchemas(
      doc,
      body.schema,
      (schema, where) => {
        if (schema.additionalProperties === false || schema.unevaluatedProperties === false) {
          problems.add(`${body.label}${where}: closed object (unknown fields would be invalid)`);
        }
      },
      "",
      new Set(),
    );
  }
  return [...problems];
}

