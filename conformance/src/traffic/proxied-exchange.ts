/**
 * One exchange through the validating proxy: the client's request forwarded to its family's
 * upstream and the answer passed back as it comes, each body tapped up to a limit, and the
 * finished exchange handed on once the response has gone out. An upstream that cannot be
 * reached gets a 502 saying so; a client that goes away ends the request to the upstream.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import type { Dispatcher } from "undici";
import { lowerCaseHeaders, type TrafficExchange } from "./exchange.ts";
import type { Routed } from "./routing.ts";

/** Milliseconds since the epoch with sub-millisecond steps: "ended before it started" must not tie. */
const now = () => performance.timeOrigin + performance.now();

/** A family's upstream, parsed once. */
export interface Upstream {
  origin: string;
  host: string;
  basePath: string;
}

/** Where a finished exchange goes once the response has gone out (the sink checks it later, not in the response's turn). */
export interface ExchangeSink {
  observed(exchange: TrafficExchange, routed: Routed): void;
  /** The client went away before the answer: no answer to check. */
  unanswered(): void;
}

/** Collects a stream's chunks up to a limit; past it, only counts. */
class BodyTap {
  private chunks: Buffer[] = [];
  private size = 0;
  tooLarge = false;
  constructor(private readonly limit: number) {}
  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.tooLarge) return;
    if (this.size > this.limit) {
      this.tooLarge = true;
      this.chunks = [];
      return;
    }
    this.chunks.push(chunk);
  }
  /** The body as text (decoded when the exchange compressed it); undefined when empty or too large. */
  text(encoding: string | undefined): string | undefined {
    if (this.tooLarge || this.size === 0) return undefined;
    // Most bodies come in one chunk: no copy then.
    let bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    try {
      if (encoding === "gzip" || encoding === "x-gzip") bytes = gunzipSync(bytes);
      else if (encoding === "br") bytes = brotliDecompressSync(bytes);
      else if (encoding === "deflate") bytes = inflateSync(bytes);
    } catch {
      // Left as it came: the body check then says what it is.
    }
    return bytes.toString("utf8");
  }
}

/**
 * Headers of the client's connection to the proxy, not of the request (RFC 9110, 7.6.1): the
 * proxy's own connection to the upstream has its own. `expect: 100-continue` was answered by the
 * proxy's server already.
 */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "te", "expect"]);

/** The request's headers as the client wrote them (names, order, repeats), Host naming the upstream. */
function forwardedHeaders(raw: string[], host: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name)) continue;
    out.push(raw[i]!, name === "host" ? host : raw[i + 1]!);
  }
  return out;
}

/**
 * The request's headers as node:http joined them (names in lower case), each value a string:
 * node's own object when it holds strings only (as nearly every request's does), not a copy.
 */
function requestHeadersOf(req: IncomingMessage): Record<string, string> {
  const headers = req.headers;
  for (const name in headers) if (typeof headers[name] !== "string") return lowerCaseHeaders(Object.entries(headers));
  return headers as Record<string, string>;
}

/** A request has a body when it says so (HTTP/1.1 framing): a length other than 0, or chunks. */
const hasBody = (headers: Record<string, string>) => headers["transfer-encoding"] !== undefined || (headers["content-length"] !== undefined && headers["content-length"] !== "0");

/**
 * One exchange, and the handler of its request to the upstream (undici's dispatch handler: the
 * exchange's own methods, so that no exchange makes closures of its own for them).
 */
export class ProxiedExchange implements Dispatcher.DispatchHandler {
  private readonly startedAt = now();
  private readonly method: string;
  private readonly target: string;
  private readonly requestHeaders: Record<string, string>;
  private readonly requestTap: BodyTap;
  private readonly responseTap: BodyTap;
  private status = 502;
  private responseHeaders: Record<string, string> = {};
  private done = false;
  private clientGone = false;
  private abort: ((reason?: Error) => void) | undefined;
  private resume: (() => void) | undefined;

  constructor(
    private readonly id: number,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly routed: Routed,
    private readonly upstream: Upstream,
    maxBody: number,
    private readonly sink: ExchangeSink,
  ) {
    this.method = req.method ?? "GET";
    this.target = req.url ?? "/";
    this.requestTap = new BodyTap(maxBody);
    this.responseTap = new BodyTap(maxBody);
    this.requestHeaders = requestHeadersOf(req);
  }

  /** Sends the request on to the upstream; the answer comes back through the handler's methods. */
  forward(dispatcher: Dispatcher): void {
    const { req, upstream } = this;
    const body = this.tapRequestBody();
    // A client that goes away ends the exchange with the upstream too.
    this.res.on("close", () => this.clientClosed());
    const headers = forwardedHeaders(req.rawHeaders, upstream.host);
    dispatcher.dispatch({ origin: upstream.origin, path: `${upstream.basePath}${this.target}`, method: this.method as Dispatcher.HttpMethod, headers, body }, this);
  }

  /** The request's body, tapped as it streams to the upstream; null when it has none. */
  private tapRequestBody(): IncomingMessage | null {
    const { req } = this;
    if (!hasBody(this.requestHeaders)) {
      req.resume();
      return null;
    }
    // Paused first, so the tap's listener does not start the flow: undici resumes the body
    // once its own listener is on, and both then see every chunk.
    req.pause();
    req.on("data", (chunk: Buffer) => this.requestTap.add(chunk));
    return req;
  }

  private clientClosed(): void {
    if (this.res.writableFinished) return;
    this.clientGone = true;
    this.abort?.(new Error("the client closed the connection"));
  }

  onConnect(abort: (reason?: Error) => void): void {
    this.abort = abort;
  }

  /** The status and headers go on to the client as they came (raw: names, order, repeats); a copy in lower case is kept. */
  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusMessage: string): boolean {
    this.status = statusCode;
    this.resume = resume;
    const raw = new Array<string>(rawHeaders.length);
    const headers: Record<string, string> = {};
    for (let i = 0; i < rawHeaders.length; i += 2) {
      const name = (raw[i] = rawHeaders[i]!.toString("latin1"));
      const value = (raw[i + 1] = rawHeaders[i + 1]!.toString("latin1"));
      const key = name.toLowerCase();
      // Repeated headers joined as HTTP does.
      headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
    }
    this.responseHeaders = headers;
    this.res.writeHead(statusCode, statusMessage, raw);
    return true;
  }

  /** The answer goes on as it comes; the upstream waits while the client is slower. */
  onData(chunk: Buffer): boolean {
    this.responseTap.add(chunk);
    const written = this.res.write(chunk);
    if (!written) this.res.once("drain", this.resume!);
    return written;
  }

  onComplete(): void {
    this.res.end();
    this.finish();
  }

  onError(error: Error): void {
    const { res } = this;
    if (this.done) return;
    if (this.clientGone) {
      // No fault of the upstream, and no answer to check: counted as unanswered.
      this.done = true;
      this.sink.unanswered();
      return;
    }
    if (res.headersSent) {
      res.destroy(error);
      this.finish(`the upstream broke off its answer: ${error.message}`);
      return;
    }
    this.finish(this.answerUnreachable(error));
  }

  /** Answers 502 in the proxy's own words (never in the upstream's place); returns the fault. */
  private answerUnreachable(error: Error): string {
    const { res } = this;
    const fault = `${this.upstream.origin} could not be reached: ${(error as NodeJS.ErrnoException).code ?? error.message}`;
    this.status = 502;
    this.responseHeaders = { "content-type": "application/json" };
    if (!res.destroyed) {
      const text = JSON.stringify({ error: { code: "UPSTREAM_UNREACHABLE", message: fault, source: "payment-collection proxy" } });
      res.writeHead(502, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.end(text);
    }
    return fault;
  }

  /** Hands the exchange on once the response has gone out: the sink checks it after, the client never waits for the checks. */
  private finish(upstreamFault?: string): void {
    if (this.done) return;
    this.done = true;
    this.sink.observed(this.exchange(upstreamFault), this.routed);
  }

  private exchange(upstreamFault: string | undefined): TrafficExchange {
    const { requestHeaders, responseHeaders } = this;
    return {
      id: this.id,
      startedAt: this.startedAt,
      endedAt: now(),
      method: this.method,
      url: `http://${requestHeaders.host ?? "proxy"}${this.target}`,
      requestHeaders,
      requestBody: this.requestTap.text(requestHeaders["content-encoding"]),
      requestBodyTooLarge: this.requestTap.tooLarge,
      status: this.status,
      responseHeaders,
      responseBody: this.responseTap.text(responseHeaders["content-encoding"]),
      responseBodyTooLarge: this.responseTap.tooLarge,
      upstreamFault,
    };
  }
}
