/**
 * Types derived from the generated `paths`/`operations` of a family. Everything here is
 * computed from the OpenAPI-generated types, so a change in the contract flows into the
 * client's types without anyone editing a list.
 */

/** Response status keys that openapi-fetch treats as success (2xx). */
type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 205 | 206 | 207 | 208 | 226 | "2XX";

/** Union of the bodies of every non-2xx response of one operation. */
export type ErrorBodyOf<Operation> = Operation extends { responses: infer Responses }
  ? {
      [Status in keyof Responses]: Status extends SuccessStatus
        ? never
        : Responses[Status] extends { content: infer Content }
          ? Content[keyof Content]
          : never;
    }[keyof Responses]
  : never;

/** Union of the error bodies of every operation of a family. */
export type ErrorBodies<Operations> = { [Id in keyof Operations]: ErrorBodyOf<Operations[Id]> }[keyof Operations];

/** Idempotency key header names the client fills in by itself. */
type IdempotencyHeaderName = "Idempotency-Key" | "X-Idempotency-Key";

/** The operation with its idempotency key header made optional (the client generates one). */
type WithOptionalIdempotencyKey<Operation> = Operation extends { parameters: { header?: infer Header } }
  ? [Extract<keyof NonNullable<Header>, IdempotencyHeaderName>] extends [never]
    ? Operation
    : {
        [Key in keyof Operation]: Key extends "parameters"
          ? {
              [Where in keyof Operation["parameters"] as Where extends "header" ? never : Where]: Operation["parameters"][Where];
            } & {
              header?: {
                [Name in keyof NonNullable<Header> as Name extends IdempotencyHeaderName ? never : Name]: NonNullable<Header>[Name];
              } & {
                [Name in keyof NonNullable<Header> as Name extends IdempotencyHeaderName ? Name : never]?: NonNullable<Header>[Name];
              };
            }
          : Operation[Key];
      }
  : Operation;

/**
 * The paths a client accepts: the generated `paths`, except that an idempotency key header
 * the contract requires becomes optional, because the client supplies one when the caller
 * does not.
 */
export type ClientPaths<Paths> = {
  [Path in keyof Paths]: {
    [Method in keyof Paths[Path]]: Method extends "parameters" ? Paths[Path][Method] : WithOptionalIdempotencyKey<Paths[Path][Method]>;
  };
};
