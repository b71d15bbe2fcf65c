/**
 * A lightweight stand-in for `Request`, given to openapi-fetch as its `Request` class.
 *
 * Why: openapi-fetch builds a `Request` and then calls `fetch(request)`, and fetch builds a
 * second one from it (copying headers and chaining abort signals). On a loopback server that
 * costs about 15% per call. With this class openapi-fetch's request is a plain object; the
 * transport (see `sendRequest`) calls `fetch(url, init)` exactly as hand-written code would,
 * so only one real Request is ever made.
 *
 * Middleware receives this object: `url`, `method`, `headers` (a real Headers), `body`,
 * `signal`, `clone()`, `text()`, `json()`. A middleware may still return a real `Request`
 * to replace it: `instanceof ClientRequest` accepts real Requests too, and the transport
 * sends them as they are.
 */

const BRAND = Symbol("ClientRequest");

/** The header operations the transport uses (API key step, retry policy); a real `Headers` has them. */
export interface HeaderAccess {
  get(name: string): string | null;
  has(name: string): boolean;
  set(name: string, value: string): void;
}

/** The parts of a request the client's transport relies on. */
export interface RequestLike {
  readonly url: string;
  readonly method: string;
  readonly headers: HeaderAccess;
  readonly body: BodyInit | ReadableStream | null;
  readonly signal: AbortSignal | null;
  clone(): RequestLike;
}

export class ClientRequest implements RequestLike {
  readonly [BRAND] = true;
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  body: BodyInit | ReadableStream | null;
  readonly signal: AbortSignal | null;
  /** The remaining RequestInit fields (redirect, credentials, cache, keepalive...). */
  readonly init: RequestInit;

  constructor(input: string | URL, init: RequestInit = {}) {
    const { method, headers, body, signal, ...rest } = init;
    this.url = String(input);
    this.method = (method ?? "GET").toUpperCase();
    this.headers = headers instanceof Headers ? headers : new Headers(headers);
    this.body = body ?? null;
    this.signal = signal ?? null;
    this.init = rest;
  }

  /** True for ClientRequest objects and for real Requests (see the module comment). */
  static [Symbol.hasInstance](value: unknown): boolean {
    return (typeof value === "object" && value !== null && BRAND in value) || (typeof Request === "function" && value instanceof Request);
  }

  /** An independent copy: string and binary bodies are shared, a stream body is split in two. */
  clone(): ClientRequest {
    let body = this.body;
    if (typeof ReadableStream !== "undefined" && body instanceof ReadableStream) {
      const [mine, theirs] = body.tee();
      this.body = mine;
      body = theirs;
    }
    return new ClientRequest(this.url, { ...this.init, method: this.method, headers: new Headers(this.headers), body, signal: this.signal });
  }

  /**
   * The fetch init that sends this request. Headers go as a plain record: fetch copies a
   * `Headers` argument through its iterator (sorted, combined), measurably slower per call
   * than reading a record; the names are already lower-case and combined, so nothing changes.
   */
  toInit(): RequestInit {
    const headers: Record<string, string> = {};
    this.headers.forEach((value, name) => {
      headers[name] = value;
    });
    // `redirect: "follow"` (openapi-fetch's default, and fetch's) is left out: fetch converts
    // every member it is given (WebIDL). The method stays, for custom fetch functions that read it.
    const { redirect, ...rest } = this.init;
    const init: RequestInit & { duplex?: "half" } = { ...rest, method: this.method, headers };
    if (redirect !== undefined && redirect !== "follow") init.redirect = redirect;
    if (this.body !== null) init.body = this.body as BodyInit;
    if (this.signal !== null) init.signal = this.signal;
    if (typeof ReadableStream !== "undefined" && this.body instanceof ReadableStream) init.duplex = "half";
    return init;
  }

  text(): Promise<string> {
    return new Response(this.clone().body as BodyInit | null).text();
  }

  json(): Promise<unknown> {
    return this.text().then((text) => JSON.parse(text));
  }
}

/** The fetch signature the client uses (compatible with `globalThis.fetch`). */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A request object of the client's own (ClientRequest): sent as `fetch(url, init)`. */
interface InitSource {
  toInit(): RequestInit;
}

/** Sends the client's own request objects as `fetch(url, init)`, a real Request as `fetch(request)`. */
export function sendRequest(fetchImpl: FetchLike, request: RequestLike): Promise<Response> {
  return typeof (request as Partial<InitSource>).toInit === "function"
    ? fetchImpl(request.url, (request as unknown as InitSource).toInit())
    : fetchImpl(request as unknown as Request);
}
