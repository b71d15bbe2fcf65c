/**
 * The suites' HTTP client: one request sent, its whole answer read. Built on undici's
 * `request`, not on `fetch`: fetch's WHATWG streams, Headers and abort plumbing cost four times
 * the CPU of the exchange itself (on loopback, client and server in one process: 420-680 µs a
 * request through fetch, 80-160 through `request`); the self-test's CPU fell by a third when
 * its requests and its broken servers' proxies moved off fetch.
 *
 * What a server sees and what a check reads are fetch's, so that a server meets the same
 * requests as it did when the suites used fetch:
 * - header values without leading and trailing whitespace; one header per name whatever its
 *   case, the values of names that differ only in case joined with ", "; the headers fetch adds
 *   when the request has none of the name (`FETCH_DEFAULTS`); the method names fetch spells in
 *   capitals (`NORMALIZED_METHODS`); a GET or HEAD with a body refused;
 * - redirects are not followed (fetch's `redirect: "manual"`);
 * - a body in a content coding fetch decodes (gzip, deflate, br) is decoded; the response's
 *   Content-Encoding header stays, as fetch keeps it;
 * - the response's header names in lower case, in alphabetical order, a repeated header's
 *   values joined with ", " (what iterating fetch's Headers gives).
 * A request with no answer within `timeoutMs` (headers and body) is aborted with a TimeoutError.
 * The requests go through an Agent of the client's own, not the process's default dispatcher,
 * which stays Node's fetch's (node-fetch-first.ts).
 */
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from "node:zlib";
import "./node-fetch-first.ts";
import { Agent, request as undiciRequest } from "undici";

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export interface HttpAnswer {
  status: number;
  /** Lower-case names, alphabetical order. */
  headers: Record<string, string>;
  /** The body as received, decoded from its content coding. */
  bytes: Uint8Array;
}

/** The headers fetch sends when the request has none of the name (Node's fetch, checked on the wire). */
const FETCH_DEFAULTS: ReadonlyArray<[string, string]> = [
  ["accept", "*/*"],
  ["accept-language", "*"],
  ["sec-fetch-mode", "cors"],
  ["user-agent", "node"],
  ["accept-encoding", "gzip, deflate"],
];

/** The methods fetch sends in capitals whatever their case (the Fetch standard's "normalize"). */
const NORMALIZED_METHODS = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"]);

/** The client's connections, kept alive between requests to the same origin. */
const AGENT = new Agent();

export async function sendHttp(request: HttpRequest, timeoutMs?: number): Promise<HttpAnswer> {
  const headers = combinedHeaders(request.headers);
  const upper = request.method.toUpperCase();
  const method = NORMALIZED_METHODS.has(upper) ? upper : request.method;
  if ((method === "GET" || method === "HEAD") && request.body !== undefined) throw new TypeError(`a ${method} request cannot have a body`);
  const answer = await undiciRequest(request.url, { dispatcher: AGENT, method, headers, body: request.body, signal: timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs) });
  const bytes = decoded(new Uint8Array(await answer.body.arrayBuffer()), answer.headers["content-encoding"]);
  return { status: answer.statusCode, headers: joinedHeaders(answer.headers), bytes };
}

/**
 * The request's headers as fetch sends them: each value without its leading and trailing
 * whitespace; names that differ only in case are one header, their values joined with ", " in
 * the order given (a check that adds `User-Agent` to a context's `user-agent` sends both
 * values); then fetch's defaults for the names not given.
 */
function combinedHeaders(given: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const nameOf = new Map<string, string>();
  for (const [name, raw] of Object.entries(given)) {
    const value = raw.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
    const first = nameOf.get(name.toLowerCase());
    if (first === undefined) {
      nameOf.set(name.toLowerCase(), name);
      out[name] = value;
    } else out[first] = `${out[first]}, ${value}`;
  }
  for (const [name, value] of FETCH_DEFAULTS) if (!nameOf.has(name)) out[name] = value;
  return out;
}

/** Header values as one string each, names sorted: a repeated header's values joined with ", ". */
function joinedHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(raw).sort()) {
    const value = raw[name];
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

const DECODERS: Record<string, (bytes: Uint8Array) => Uint8Array> = {
  gzip: (bytes) => gunzipSync(bytes),
  "x-gzip": (bytes) => gunzipSync(bytes),
  // fetch takes a deflate body with or without its zlib wrapper, as browsers do.
  deflate: (bytes) => ((bytes[0]! & 0x0f) === 8 ? inflateSync(bytes) : inflateRawSync(bytes)),
  br: (bytes) => brotliDecompressSync(bytes),
};

/** The body decoded from the codings fetch decodes, the last applied first; any other coding is left as is. */
function decoded(bytes: Uint8Array, encoding: string | string[] | undefined): Uint8Array {
  if (encoding === undefined || bytes.length === 0) return bytes;
  const codings = [encoding].flat().join(",").split(",").map((c) => c.trim().toLowerCase()).filter((c) => c !== "" && c !== "identity");
  if (!codings.every((c) => DECODERS[c])) return bytes;
  let body = bytes;
  for (const coding of codings.reverse()) {
    try {
      body = new Uint8Array(DECODERS[coding]!(body));
    } catch (error) {
      throw new TypeError(`the body does not decode as ${coding}`, { cause: error });
    }
  }
  return body;
}
