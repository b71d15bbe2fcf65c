/**
 * Puts one family client together on openapi-fetch. Every call goes through openapi-fetch
 * (`coreFetch`: URL, headers, body, the caller's middleware, the result), wrapped by the
 * client's own layers:
 *   1. the call layer, around the typed methods: adds the idempotency key of the operation
 *      (`POST /v1/charges`, `POST /pix`...) to the call's options, once per call;
 *   2. openapi-fetch, which builds the request (a ClientRequest, see client-request.ts) and
 *      runs the caller's middleware (`client.use()`);
 *   3. the transport, given to openapi-fetch as its `fetch`: API key header and URL guard on
 *      the request as it will be sent (after any caller middleware), the retry policy, then
 *      fetch; on the way back it records the rate-limit headers.
 * The client's own layers are plain function wrappers rather than `client.use()` objects, so
 * they cost nothing when the caller adds no middleware and always run in the same place
 * relative to the caller's middleware. Both factories use this; they differ only in the
 * contract facts and in the error and envelope helpers they add.
 */
import createClient from "openapi-fetch";
import { apiKeyStep, assertKeyNotInUrl, validateApiKey } from "./api-key.ts";
import { ClientRequest, sendRequest, type FetchLike, type RequestLike } from "./client-request.ts";
import { idempotencyStep, type CallOptions, type IdempotencyKeyRule } from "./idempotency.ts";
import type { CommonClientOptions } from "./options.ts";
import { rateLimitTracker, type RateLimitInfo } from "./rate-limit.ts";
import { withRetries } from "./retry.ts";
import type { StrictClient } from "./strict-methods.ts";

/** The run-time facts of one family's contract (the generated `contract` constant). */
export interface ContractFacts {
  readonly apiKeyHeader: string;
  readonly idempotencyKeyHeaders: Readonly<Record<string, IdempotencyKeyRule>>;
}

export interface AssembledClient<Paths extends {}> {
  client: StrictClient<Paths>;
  /** Rate-limit information of the latest response. */
  rateLimit(): RateLimitInfo | undefined;
}

type AnyCall = (path: string, options?: CallOptions) => Promise<unknown>;
const METHODS = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"] as const;

export function assembleClient<Paths extends {}>(facts: ContractFacts, baseUrl: string, options: CommonClientOptions): AssembledClient<Paths> {
  validateApiKey(options.apiKey);
  assertKeyNotInUrl(baseUrl, options.apiKey);
  const rules = facts.idempotencyKeyHeaders;
  const keyHeaders = [...new Set(Object.values(rules).map((rule) => rule.name))];

  // Transport layer. fetch is called through a local binding: browsers reject fetch called
  // as a method of another object.
  const baseFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const setApiKey = apiKeyStep(facts.apiKeyHeader, options.apiKey);
  const retrying = withRetries((request: RequestLike) => sendRequest(baseFetch, request), options.retry, keyHeaders);
  const tracker = rateLimitTracker();
  const record = (response: Response) => {
    tracker.record(response);
    return response;
  };
  const transport = (request: RequestLike): Promise<Response> => {
    try {
      setApiKey(request); // last look before sending: after any caller middleware
    } catch (error) {
      return Promise.reject(error);
    }
    return retrying(request).then(record);
  };
  const client = createClient<Paths>({
    baseUrl,
    // The key is merged into every request here already (cheap); the transport re-checks it.
    headers: { ...options.headers, [facts.apiKeyHeader]: options.apiKey },
    // A plain request object instead of a real Request: see client-request.ts.
    Request: ClientRequest as unknown as typeof Request,
    fetch: transport as unknown as (request: Request) => Promise<Response>,
  });

  // Call layer: the idempotency key, looked up only for methods that have a keyed operation.
  const addKey = idempotencyStep(rules, options.idempotencyKey);
  const keyed = new Set(Object.keys(rules).map((rule) => rule.split(" ")[0]));
  /** One call: the key, then openapi-fetch. Never throws: rejects. */
  const dispatch = (method: string, path: string, callOptions: CallOptions | undefined, viaOpenapiFetch: AnyCall): Promise<unknown> => {
    try {
      return viaOpenapiFetch(path, keyed.has(method) ? addKey(method, path, callOptions) : callOptions);
    } catch (error) {
      return Promise.reject(error);
    }
  };
  const methods = client as unknown as Record<string, AnyCall>;
  for (const method of METHODS) {
    const call = methods[method]!;
    methods[method] = (path, callOptions) => dispatch(method, path, callOptions, call);
  }
  const untyped = client as unknown as { request: (method: string, path: string, options?: CallOptions) => Promise<unknown> };
  const request = untyped.request;
  // openapi-fetch upper-cases the method of `request`; the key lookup does too.
  untyped.request = (method, path, callOptions) =>
    dispatch(method.toUpperCase(), path, callOptions, (callPath, withKey) => request(method, callPath, withKey));
  // Same functions, stricter signatures (see strict-methods.ts).
  return { client: client as unknown as StrictClient<Paths>, rateLimit: tracker.latest };
}
