/**
 * Evaluates the encoding checks of the statement catalogue (spec/statements.yaml) against a
 * generated OpenAPI document (3.0 or 3.1, the plain JSON with `$ref`s; the dereferenced
 * variant works too). Each check kind is one function returning the problems it found; an
 * empty list means the document encodes the checked element. Nothing here knows the
 * contract's schema names: checks locate elements by operation id, status, media type and
 * property path, through the contract model.
 *
 *   check-types.ts        the check shapes
 *   locate.ts             operations, responses, bodies, schemes and servers a check names
 *   schema-view.ts        schema nodes folded ($ref, allOf, null-admitting unions)
 *   assertions.ts         assertions about one schema node, instance validation
 *   checks-operations.ts  operation, parameter, request-body, response, response-header
 *   checks-schemas.ts     property, enum, content-types, property-names, open-objects
 *   checks-document.ts    security-scheme, required-scope, server, description, paths
 *   checks-strict.ts      strict-examples (and the strictAccepts assertion): strict 3.0 nullable
 *   checks-extensions.ts  rate-limits (`x-rate-limits`)
 *   provenance.ts         provenance: every element is the document's word or marked
 */
import type { CheckKind, EncodingCheck, OpenApiDocument } from "./check-types.ts";
import { checkDescription, checkPaths, checkRequiredScope, checkSecurityScheme, checkServer } from "./checks-document.ts";
import { checkOperation, checkParameter, checkRequestBody, checkResponse, checkResponseHeader } from "./checks-operations.ts";
import { checkContentTypes, checkEnum, checkOpenObjects, checkProperty, checkPropertyNames } from "./checks-schemas.ts";
import { checkStrictExamples } from "./checks-strict.ts";
import { checkRateLimits } from "./checks-extensions.ts";
import { checkProvenance, PROVENANCE_EXCEPTIONS } from "./provenance.ts";

export type * from "./check-types.ts";
export { normalisePhrase } from "./checks-document.ts";
export { viewOf, type SchemaView } from "./schema-view.ts";
export {
  checkContentTypes,
  checkDescription,
  checkEnum,
  checkOpenObjects,
  checkOperation,
  checkParameter,
  checkPaths,
  checkProperty,
  checkPropertyNames,
  checkRequestBody,
  checkRequiredScope,
  checkResponse,
  checkResponseHeader,
  checkSecurityScheme,
  checkServer,
  checkStrictExamples,
  checkRateLimits,
  checkProvenance,
  PROVENANCE_EXCEPTIONS,
};

type Evaluator<C> = (doc: OpenApiDocument, check: C) => string[];

export const CHECK_EVALUATORS: { [K in CheckKind]: Evaluator<Extract<EncodingCheck, { check: K }>> } = {
  operation: checkOperation,
  parameter: checkParameter,
  "request-body": checkRequestBody,
  property: checkProperty,
  enum: checkEnum,
  response: checkResponse,
  "response-header": checkResponseHeader,
  "security-scheme": checkSecurityScheme,
  "required-scope": checkRequiredScope,
  server: checkServer,
  description: checkDescription,
  "content-types": checkContentTypes,
  "property-names": checkPropertyNames,
  paths: checkPaths,
  "open-objects": checkOpenObjects,
  "strict-examples": checkStrictExamples,
  "rate-limits": checkRateLimits,
  provenance: checkProvenance,
};

export const CHECK_KINDS = Object.keys(CHECK_EVALUATORS) as CheckKind[];

/** Evaluates one check; returns its problems (empty: the document encodes the element). */
export function evaluateCheck(doc: OpenApiDocument, check: EncodingCheck): string[] {
  const evaluator = CHECK_EVALUATORS[check.check] as Evaluator<EncodingCheck> | undefined;
  if (!evaluator) return [`unknown check kind ${String((check as { check: unknown }).check)}`];
  return evaluator(doc, check);
}
