/** Shapes of openapi-fetch results, for the `unwrap` helpers of both families. */

/** What every openapi-fetch call resolves to: `{ data, response }` or `{ error, response }`. */
export interface ResultLike {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** The success body type of a result. */
export type DataOf<Result> = Result extends { data: infer Data; error?: never } ? Data : never;
