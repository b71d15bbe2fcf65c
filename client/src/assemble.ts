/**
 * Puts one family client together on openapi-fetch. A call passes through the client's own
 * layers:
 *   1. the call layer, around the typed methods: adds the idempotency key of the operation
 *      (`POST /v1/charges`, `POST /pix`...) to the call's options, once per call;
 *   2. either a direct call (direct-call.ts: the URL, headers and body built with
 *      openapi-fetch's helpers, no `coreFetch`) when the caller added no middleware and the
 *      call's options are plain, or openapi-fetch, which builds the request and runs the
 *      caller's middleware;
 *   3. the transport: API key header and URL guard on the request as it will be sent, the
 *      retry policy, then fetch; on the way back it records the rate-limit headers. Given to
 *      openapi-fetch as its `fetch`; a direct call sets the key in its header record and
 *      uses the same guard, retry policy and record.
 * The layers are plain function wrappers rather than `client.use()` objects: openapi-fetch's
 * middleware loop (ids, frozen option objects, an await per hook) alone costs several percent
 * per call on a loopback server, more than the client's overhead budget (<= 1.05x raw fetch).
 * Both factories use this; they differ only in the contract facts and in the error and
 * envelope helpers they add.
 */
import createClient, { type Middleware } from "openapi-fetch";
import { apiKeyStep, assertKeyNotInUrl, urlGuard, validateApiKey } from "./api-key.ts";
import { ClientRequest, sendRequest, type FetchLike, type RequestLike } from "./client-request.ts";
import { directCalls } from "./direct-call.ts";
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

  // The caller's middleware, mirrored: a call may be direct only while there is none.
  const middleware: Middleware[] = [];
  const { use, eject } = client;
  client.use = (...added) => {
    // One at a time, as openapi-fetch adds them: an invalid one throws after the ones before it were added.
    for (const entry of added) {
      if (!entry) continue;
      use(entry);
      middleware.push(entry);
    }
  };
  client.eject = (...removed) => {
    eject(...removed);
    for (const entry of removed) {
      const index = middleware.indexOf(entry);
      if (index !== -1) middleware.splice(index, 1);
    }
  };
  const direct = directCalls({
    baseUrl,
    headers: options.headers,
    apiKeyHeader: facts.apiKeyHeader,
    apiKey: options.apiKey,
    guardUrl: urlGuard(options.apiKey),
    send: retrying,
    record: tracker.record,
  });

  // Call layer: the idempotency key (looked up only for methods that have a keyed
  // operation), then a direct call when possible, else openapi-fetch.
  const addKey = idempotencyStep(rules, options.idempotencyKey);
  const keyed = new Set(Object.keys(rules).map((rule) => rule.split(" ")[0]));
  /** One call: the key, then direct when possible, else `viaOpenapiFetch`. Never throws: rejects. */
  const dispatch = (method: string, path: string, callOptions: CallOptions | undefined, viaOpenapiFetch: AnyCall): Promise<unknown> => {
    try {
      const withKey = keyed.has(method) ? addKey(method, path, callOptions) : callOptions;
      if (middleware.length === 0) {
        const result = direct(method, path, withKey);
        if (result !== undefined) return result;
      }
      return viaOpenapiFetch(path, withKey);
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
  // openapi-fetch upper-cases the method of `request`; the key lookup and a direct call do too.
  untyped.request = (method, path, callOptions) =>
    dispatch(method.toUpperCase(), path, callOptions, (callPath, withKey) => request(method, callPath, withKey));
  // Same functions, stricter signatures (see strict-methods.ts).
  return { client: client as unknown as StrictClient<Paths>, rateLimit: tracker.latest };
}
