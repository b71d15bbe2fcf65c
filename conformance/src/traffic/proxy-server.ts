/**
 * The validating proxy: forwards every request unchanged to its family's upstream and returns
 * every response unchanged, bodies streamed both ways, and hands each finished exchange to the
 * engine. The checks run after the response has been passed on, so they add no wait to it; a
 * body over the limit passes through whole but is not kept (counted "not validated: too large").
 * An upstream that cannot be reached gets a 502 with a JSON body saying so, recorded as an
 * upstream fault: nothing is ever answered in the upstream's place.
 */
import { createServer, request as httpRequest, Agent as HttpAgent, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest, Agent as HttpsAgent } from "node:https";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
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

export async function startTrafficProxy(options: ProxyOptions): Promise<RunningProxy> {
  const maxBody = options.maxBody ?? DEFAULT_MAX_BODY;
  const routes = options.routes.filter((r) => options.upstreams[r.family]);
  if (routes.length === 0) throw new Error("the proxy needs at least one upstream");
  const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 256 });
  const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256 });
  let counter = 0;
  let handled = 0;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const id = ++counter;
    const startedAt = now();
    const method = req.method ?? "GET";
    const path = (req.url ?? "/").split("?")[0]!;
    const routed = routeByPath(routes, method, path);
    const upstream = new URL(options.upstreams[routed.route.family]!);
    const requestTap = new BodyTap(maxBody);
    const responseTap = new BodyTap(maxBody);
    const requestHeaders = lowerCaseHeaders(Object.entries(req.headers));
    const clientUrl = `http://${req.headers.host ?? "proxy"}${req.url ?? "/"}`;
    let done = false;
    const finish = (status: number, responseHeaders: Record<string, string>, upstreamFault?: string) => {
      if (done) return;
      done = true;
      const exchange: TrafficExchange = {
        id,
        startedAt,
        endedAt: now(),
        method,
        url: clientUrl,
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
    const basePath = upstream.pathname.replace(/\/+$/, "");
    const headers = { ...req.headers, host: upstream.host };
    const send = upstream.protocol === "https:" ? httpsRequest : httpRequest;
    const forward = send(
      { protocol: upstream.protocol, hostname: upstream.hostname, port: upstream.port, method, path: `${basePath}${req.url ?? "/"}`, headers, agent: upstream.protocol === "https:" ? httpsAgent : httpAgent },
      (answer) => {
        const status = answer.statusCode ?? 502;
        res.writeHead(status, answer.statusMessage, answer.rawHeaders);
        const responseHeaders = lowerCaseHeaders(Object.entries(answer.headers));
        answer.on("data", (chunk: Buffer) => responseTap.add(chunk));
        answer.pipe(res);
        answer.once("end", () => finish(status, responseHeaders));
        answer.once("error", (error) => {
          res.destroy(error);
          finish(status, responseHeaders, `the upstream broke off its answer: ${error.message}`);
        });
      },
    );
    forward.once("error", (error) => {
      const fault = `${upstream.origin} could not be reached: ${(error as NodeJS.ErrnoException).code ?? error.message}`;
      if (!res.headersSent) {
        const body = JSON.stringify({ error: { code: "UPSTREAM_UNREACHABLE", message: fault, source: "payment-collection proxy" } });
        res.writeHead(502, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
        res.end(body);
      } else res.destroy();
      finish(502, { "content-type": "application/json" }, fault);
    });
    req.on("data", (chunk: Buffer) => requestTap.add(chunk));
    req.pipe(forward);
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
        httpAgent.destroy();
        httpsAgent.destroy();
      }),
  };
}
