/**
 * The validating proxy: forwards every request unchanged to its family's upstream and returns
 * every response unchanged, bodies streamed both ways, and hands each finished exchange to the
 * engine. The checks run after the response has been passed on, so they add no wait to it; a
 * body over the limit passes through whole but is not kept (counted "not validated: too large").
 * An upstream that cannot be reached gets a 502 with a JSON body saying so, recorded as an
 * upstream fault: nothing is ever answered in the upstream's place. A client that goes away
 * before the answer ends the request to the upstream too; its exchange counts as unanswered.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { Agent, type Dispatcher } from "undici";
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import type { TrafficEngine } from "./engine.ts";
import { lowerCaseHeaders, type TrafficExchange } from "./exchange.ts";
import { routeByPath, type FamilyRoute } from "./routing.ts";

export const DEFAULT_MAX_BODY = 1024 * 1024;

/** Milliseconds since the epoch with sub-millisecond steps: "ended before it started" must not tie. */
const now = () => performance.timeOrigin + performance.now();

export interface ProxyOptions {
  engine: TrafficEngine;
  /** The families the proxy serves, each with its upstream base URL. */
  routes: FamilyRoute[];
  upstreams: Partial<Record<FamilyId, string>>;
  port?: number;
  host?: string;
  maxBody?: number;
}

export interface RunningProxy {
  url: string;
  /** Exchanges whose checks are done. */
  readonly handled: number;
  close(): Promise<void>;
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
    let bytes = Buffer.concat(this.chunks);
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

/** A request has a body when it says so (HTTP/1.1 framing): a length other than 0, or chunks. */
const hasBody = (req: IncomingMessage) => req.headers["transfer-encoding"] !== undefined || (req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0");

export async function startTrafficProxy(options: ProxyOptions): Promise<RunningProxy> {
  const maxBody = options.maxBody ?? DEFAULT_MAX_BODY;
  const routes = options.routes.filter((r) => options.upstreams[r.family]);
  if (routes.length === 0) throw new Error("the proxy needs at least one upstream");
  // Parsed once: the upstream of each family, and its base path.
  const upstreams = new Map(
    routes.map((route) => {
      const url = new URL(options.upstreams[route.family]!);
      return [route.family, { origin: url.origin, host: url.host, basePath: url.pathname.replace(/\/+$/, "") }];
    }),
  );
  // undici keeps connections to the upstreams open and reused; no timeouts: the proxy never
  // ends an exchange the client and the server are still in (a long answer streams as it comes).
  const dispatcher = new Agent({ keepAliveTimeout: 4_000, headersTimeout: 0, bodyTimeout: 0 });
  let counter = 0;
  let handled = 0;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const id = ++counter;
    const startedAt = now();
    const method = req.method ?? "GET";
    const target = req.url ?? "/";
    const query = target.indexOf("?");
    const routed = routeByPath(routes, method, query === -1 ? target : target.slice(0, query));
    const upstream = upstreams.get(routed.route.family)!;
    const requestTap = new BodyTap(maxBody);
    const responseTap = new BodyTap(maxBody);
    const requestHeaders = lowerCaseHeaders(Object.entries(req.headers));
    let status = 502;
    let responseHeaders: Record<string, string> = {};
    let done = false;
    const finish = (upstreamFault?: string) => {
      if (done) return;
      done = true;
      const exchange: TrafficExchange = {
        id,
        startedAt,
        endedAt: now(),
        method,
        url: `http://${req.headers.host ?? "proxy"}${target}`,
        requestHeaders,
        requestBody: requestTap.text(requestHeaders["content-encoding"]),
        requestBodyTooLarge: requestTap.tooLarge,
        status,
        responseHeaders,
        responseBody: responseTap.text(responseHeaders["content-encoding"]),
        responseBodyTooLarge: responseTap.tooLarge,
        upstreamFault,
      };
      // After the response went out: the client never waits for the checks.
      setImmediate(() => {
        try {
          options.engine.observe(exchange, routed);
        } finally {
          handled += 1;
        }
      });
    };
    const body = hasBody(req) ? req : null;
    if (body) {
      // Paused first, so the tap's listener does not start the flow: undici resumes the body
      // once its own listener is on, and both then see every chunk.
      req.pause();
      req.on("data", (chunk: Buffer) => requestTap.add(chunk));
    } else req.resume();
    let abort: ((reason?: Error) => void) | undefined;
    let clientGone = false;
    // A client that goes away ends the exchange with the upstream too.
    res.once("close", () => {
      if (res.writableFinished) return;
      clientGone = true;
      abort?.(new Error("the client closed the connection"));
    });
    const handler: Dispatcher.DispatchHandler = {
      onConnect: (abortRequest) => {
        abort = abortRequest;
      },
      onHeaders: (statusCode, rawHeaders, resume, statusMessage) => {
        status = statusCode;
        const raw = (rawHeaders as unknown as Buffer[]).map((part) => part.toString("latin1"));
        const pairs: Array<[string, string]> = [];
        for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
        responseHeaders = lowerCaseHeaders(pairs);
        res.writeHead(statusCode, statusMessage, raw);
        res.on("drain", resume);
        return true;
      },
      // The answer goes on as it comes; the upstream waits while the client is slower.
      onData: (chunk) => {
        responseTap.add(chunk);
        return res.write(chunk);
      },
      onComplete: () => {
        res.end();
        finish();
      },
      onError: (error) => {
        if (done) return;
        if (clientGone) {
          // No fault of the upstream, and no answer to check: counted as unanswered.
          done = true;
          setImmediate(() => {
            options.engine.unanswered();
            handled += 1;
          });
          return;
        }
        if (res.headersSent) {
          res.destroy(error);
          finish(`the upstream broke off its answer: ${error.message}`);
          return;
        }
        const fault = `${upstream.origin} could not be reached: ${(error as NodeJS.ErrnoException).code ?? error.message}`;
        status = 502;
        responseHeaders = { "content-type": "application/json" };
        if (!res.destroyed) {
          const text = JSON.stringify({ error: { code: "UPSTREAM_UNREACHABLE", message: fault, source: "payment-collection proxy" } });
          res.writeHead(502, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
          res.end(text);
        }
        finish(fault);
      },
    };
    dispatcher.dispatch({ origin: upstream.origin, path: `${upstream.basePath}${target}`, method: method as Dispatcher.HttpMethod, headers: forwardedHeaders(req.rawHeaders, upstream.host), body }, handler);
  };

  const server = createServer(handle);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as { port: number; address: string };
  const host = address.address.includes(":") ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    get handled() {
      return handled;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        void dispatcher.destroy();
      }),
  };
}
