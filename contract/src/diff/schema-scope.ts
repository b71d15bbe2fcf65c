/** Where a compared schema sits: its side (request or response), for messages, and whether it is an error code. */
import type { Side } from "./types.ts";

export interface SchemaScope {
  side: Side;
  /** "request body", "response 201 body", "query parameter `status`", "response 200 header `X-RateLimit-Limit`"... */
  where: string;
  /** Dotted path of the property inside the schema ("" at the root, `pix.br_code`, `items[]`). */
  path: string;
  /** Inside the body of an error response (4xx, 5xx, default). */
  errorResponse: boolean;
  /** The property is an error response's code (`code`, `errorCode`): enum changes are error-code changes. */
  errorCodeField: boolean;
}

/** Names of the properties that carry an error code in the families' error bodies (family A problem `code`, envelope 1 `error.code`, envelope 2 `error.errorCode`). */
export const ERROR_CODE_FIELDS = new Set(["code", "errorCode"]);

export function subject(scope: SchemaScope): string {
  return scope.path ? `${scope.where}, \`${scope.path}\`` : scope.where;
}

export function childScope(scope: SchemaScope, name: string): SchemaScope {
  return { ...scope, path: scope.path ? `${scope.path}.${name}` : name, errorCodeField: scope.errorResponse && ERROR_CODE_FIELDS.has(name) };
}
