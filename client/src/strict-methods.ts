/**
 * Method signatures for the family clients that keep TypeScript's excess-property check on
 * request bodies and parameters.
 *
 * openapi-fetch infers its `init` argument as a generic type parameter; an inferred argument
 * is not "fresh", so a misspelt OPTIONAL field (`{ documnt: "..." }` in an update body)
 * compiles silently. Here `init` is typed from the path and method alone, so the object
 * literal is checked against the contract's exact shape. Same run-time functions; only the
 * types differ. (Per-call `parseAs` still works at run time but the result stays typed as
 * JSON; use `client.request` when you need parseAs typing.)
 */
import type { Client, FetchOptions, FetchResponse, HeadersOptions, Middleware } from "openapi-fetch";

type LowerMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";

/** Paths of `Paths` that have an operation for `Method`. */
export type PathsWith<Paths, Method extends LowerMethod> = {
  [Path in keyof Paths]: Paths[Path] extends { [Key in Method]: {} } ? Path : never;
}[keyof Paths];

type OperationAt<Paths, Path extends keyof Paths, Method extends LowerMethod> = Paths[Path] extends { [Key in Method]: infer Operation }
  ? Operation & Record<string | number, any>
  : never;

/** What a call accepts: the operation's params and body, plus per-call headers and fetch settings. */
export type CallInit<Operation> = FetchOptions<Operation> & {
  headers?: HeadersOptions;
  middleware?: Middleware[];
  fetch?: (request: Request) => Promise<Response>;
};

type RequiredKeysOf<T> = { [Key in keyof T]-?: {} extends Pick<T, Key> ? never : Key }[keyof T];

/** `init` is optional exactly when nothing in it is required (no body, no required parameter). */
type InitArguments<Init> = [RequiredKeysOf<Init>] extends [never] ? [init?: Init] : [init: Init];

export type StrictMethod<Paths, Method extends LowerMethod> = <Path extends PathsWith<Paths, Method>>(
  url: Path,
  ...init: InitArguments<CallInit<OperationAt<Paths, Path, Method>>>
) => Promise<FetchResponse<OperationAt<Paths, Path, Method>, {}, `${string}/${string}`>>;

/** An openapi-fetch client whose HTTP methods use the strict signatures. */
export type StrictClient<Paths extends {}> = Omit<Client<Paths>, Uppercase<LowerMethod>> & {
  [Method in LowerMethod as Uppercase<Method>]: StrictMethod<Paths, Method>;
};
