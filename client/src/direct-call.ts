/**
 * Direct calls: the common call made without openapi-fetch's `coreFetch`, for the per-call
 * overhead budget (<= 1.05x raw fetch on a loopback server; see docs/client.md, Overhead).
 *
 * coreFetch pays for generality on every call: it merges headers into a `Headers` object
 * (twice when there is a body), creates a query serialiser, spreads the options into a
 * request init, and builds a request object whose headers the transport then copies into a
 * record for fetch. A direct call builds the URL with openapi-fetch's own exported helpers,
 * the headers as one plain record, and hands the client's transport (URL guard, retries,
 * fetch, rate-limit record) a PlainRequest; the result comes from fetch-result.ts, the same
 * code as the end of coreFetch.
 *
 * A call is direct only when nothing in it needs coreFetch: no caller middleware (decided by
 * the caller of `directCalls`), options limited to `params`, `body`, `headers`, `parseAs`
 * (one of openapi-fetch's values) and `signal`, headers that merge as a record the way
 * `Headers` would (header-record.ts), and a body that openapi-fetch would send as JSON (not
 * FormData, no `application/x-www-form-urlencoded` content type). Anything else returns
 * undefined and the call goes through openapi-fetch unchanged.
 */
import { createFinalURL, createQuerySerializer, defaultPathSerializer, removeTrailingSlash } from "openapi-fetch";
import type { RequestLike } from "./client-request.ts";
import { PARSE_AS, readResult, type FetchResult, type ParseAs } from "./fetch-result.ts";
import { headerRecord, isPlainObject, mergeIntoRecord } from "./header-record.ts";
import type { CallOptions } from "./idempotency.ts";
import { PlainRequest } from "./plain-request.ts";

/** The call options a direct call understands; any other one sends the call through openapi-fetch. */
const DIRECT_OPTIONS: ReadonlySet<string> = new Set(["params", "body", "headers", "parseAs", "signal"]);

export interface DirectCallSetup {
  /** The client's base URL, as given to openapi-fetch. */
  baseUrl: string;
  /** The client's `headers` option. */
  headers: Record<string, string> | undefined;
  apiKeyHeader: string;
  apiKey: string;
  /** Throws when a URL carries the API key (api-key.ts). */
  guardUrl(url: string): void;
  /** The retry policy over fetch (retry.ts). */
  send(request: RequestLike): Promise<Response>;
  /** Records the rate-limit headers of the final response (rate-limit.ts). */
  record(response: Response): void;
}

/** Makes one call directly, or returns undefined when the call must go through openapi-fetch. */
export type DirectCall = (method: string, path: string, options: CallOptions | undefined) => Promise<FetchResult> | undefined;

export function directCalls(setup: DirectCallSetup): DirectCall {
  // What openapi-fetch merges first on every call (the client's headers, the API key).
  const clientHeaders = headerRecord(setup.headers, { [setup.apiKeyHeader]: setup.apiKey });
  // Client headers that need a real Headers merge: every call of this client goes through openapi-fetch.
  if (clientHeaders === undefined) return () => undefined;
  const baseUrl = removeTrailingSlash(setup.baseUrl);
  // openapi-fetch's default serialisers (the client sets none), created once instead of per call.
  const querySerializer = createQuerySerializer();
  const keyName = setup.apiKeyHeader.toLowerCase();
  const { guardUrl, send, record } = setup;

  return (method, path, options) => {
    // openapi-fetch spreads the options (`{ ...init, method }`): null and undefined mean none.
    const given = options ?? {};
    if (!isPlainObject(given)) return undefined;
    for (const key of Object.keys(given)) {
      if (!DIRECT_OPTIONS.has(key)) return undefined;
    }
    const { params = {}, body, headers } = given;
    const parseAs = (given.parseAs === undefined ? "json" : given.parseAs) as ParseAs;
    if (!isPlainObject(params) || !PARSE_AS.has(parseAs)) return undefined;

    // Later sources win, as in openapi-fetch: the client's headers, the call's, params.header.
    // Copied key by key: V8 adds keys to a spread copy (`{ ...record }`) through its slow
    // path, about a microsecond per call.
    const merged: Record<string, string> = {};
    for (const name in clientHeaders) merged[name] = clientHeaders[name]!;
    if (!mergeIntoRecord(merged, headers) || !mergeIntoRecord(merged, params.header)) return undefined;

    let serialized: string | undefined;
    if (body !== undefined) {
      // openapi-fetch's defaultBodySerializer sends these as form data; leave them to it.
      if (typeof FormData !== "undefined" && body instanceof FormData) return undefined;
      if (merged["content-type"] === "application/x-www-form-urlencoded") return undefined;
      serialized = JSON.stringify(body);
      // JSON content type unless a header already set one (openapi-fetch merges it first).
      if (serialized !== undefined && merged["content-type"] === undefined) merged["content-type"] = "application/json";
    }
    // The transport's API key step, done here: the key replaces any caller value.
    merged[keyName] = setup.apiKey;

    const url = createFinalURL(path, { baseUrl, params: params as Parameters<typeof createFinalURL>[1]["params"], querySerializer, pathSerializer: defaultPathSerializer });
    guardUrl(url);
    const signal = (given.signal ?? null) as AbortSignal | null;
    return send(new PlainRequest(url, method, merged, serialized ?? null, signal)).then((response) => {
      record(response);
      return readResult(response, method, parseAs);
    });
  };
}
