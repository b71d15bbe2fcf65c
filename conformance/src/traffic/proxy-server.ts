/**
 * The validating proxy: forwards every request unchanged to its family's upstream and returns
 * every response unchanged, bodies streamed both ways, and hands each finished exchange to the
 * engine. The checks run after the response has been passed on, so they add no wait to it; a
 * body over the limit passes through whole but is not kept (counted "not validated: too large").
 * An upstream that cannot be reached gets a 502 with a JSON body saying so, recorded as an
 * upstream fault: nothing is ever answered in the upstream's place (a request this proxy's parser
 * refuses goes to the upstream as sent, unchecked: core/raw-relay.ts). A client that goes away
 * before the answer ends the request to the upstream too; its exchange counts as unanswered.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Agent } from "undici";
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import type { TrafficEngine } from "./engine.ts";
import { ProxiedExchange, type ExchangeSink, type Upstream } from "./proxied-exchange.ts";
import type { TrafficExchange } from "./exchange.ts";
import { routeByPath, type FamilyRoute, type Routed } from "./routing.ts";
import { RELAY_TIMEOUTS, relayRefusedRequests } from "../core/raw-relay.ts";

export const DEFAULT_MAX_BODY = 1024 * 1024;
/** Far past any server's header limit (Node's is 16 KiB). */
const MAX_HEADER_SIZE = 1024 * 1024;

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

export async function startTrafficProxy(options: ProxyOptions): Promise<RunningProxy> {
  const maxBody = options.maxBody ?? DEFAULT_MAX_BODY;
  const routes = options.routes.filter((r) => options.upstreams[r.family]);
  if (routes.length === 0) throw new Error("the proxy needs at least one upstream");
  const upstreams = parsedUpstreams(routes, options.upstreams);
  // undici keeps connections to the upstreams open and reused; no timeouts: the proxy never
  // ends an exchange the client and the server are still in (a long answer streams as it comes).
  const dispatcher = new Agent({ keepAliveTimeout: 4_000, headersTimeout: 0, bodyTimeout: 0 });
  let counter = 0;
  let handled = 0;
  const checks = new CheckQueue(options.engine, () => (handled += 1));
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const target = req.url ?? "/";
    const query = target.indexOf("?");
    const routed = routeByPath(routes, req.method ?? "GET", query === -1 ? target : target.slice(0, query));
    new ProxiedExchange(++counter, req, res, routed, upstreams.get(routed.route.family)!, maxBody, checks).forward(dispatcher);
  };
  // Headers past the upstream's limit reach it, and what this parser refuses goes to it as sent:
  // the server under test answers those requests (D39), never the proxy; so does a request whose
  // headers do not all come within a second (its upstream's timeout answers it).
  const server = createServer({ maxHeaderSize: MAX_HEADER_SIZE, ...RELAY_TIMEOUTS }, handle);
  relayRefusedRequests(server, (path) => options.upstreams[routeByPath(routes, "GET", path ?? "/").route.family]!);
  server.keepAliveTimeout = 5_000;
  const url = await listen(server, options);
  return {
    url,
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

/**
 * The finished exchanges waiting for their checks, checked together in the event loop's next
 * turn: after their responses have gone out, and in one run (one immediate for all of them, and
 * the checks' code and data stay warm from one exchange to the next).
 */
class CheckQueue implements ExchangeSink {
  /** An exchange to check, or null: a client that went away before its answer. */
  private waiting: Array<{ exchange: TrafficExchange; routed: Routed } | null> = [];
  private scheduled = false;

  constructor(
    private readonly engine: TrafficEngine,
    private readonly checked: () => void,
  ) {}

  observed(exchange: TrafficExchange, routed: Routed): void {
    this.waiting.push({ exchange, routed });
    this.schedule();
  }

  unanswered(): void {
    this.waiting.push(null);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.run());
  }

  private run(): void {
    const batch = this.waiting;
    this.waiting = [];
    this.scheduled = false;
    for (let i = 0; i < batch.length; i++) {
      const item = batch[i];
      try {
        if (item) this.engine.observe(item.exchange, item.routed);
        else this.engine.unanswered();
      } catch (error) {
        // The exchanges after a failed check are still checked, in the next turn.
        this.waiting.unshift(...batch.slice(i + 1));
        if (this.waiting.length > 0) this.schedule();
        throw error;
      } finally {
        this.checked();
      }
    }
  }
}

/** Parsed once: the upstream of each family, and its base path. */
function parsedUpstreams(routes: FamilyRoute[], urls: Partial<Record<FamilyId, string>>): Map<FamilyId, Upstream> {
  return new Map(
    routes.map((route) => {
      const url = new URL(urls[route.family]!);
      return [route.family, { origin: url.origin, host: url.host, basePath: url.pathname.replace(/\/+$/, "") }];
    }),
  );
}

/** Listens where the options say (a free port on 127.0.0.1 by default); resolves with the proxy's URL. */
async function listen(server: ReturnType<typeof createServer>, options: Pick<ProxyOptions, "port" | "host">): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as { port: number; address: string };
  const host = address.address.includes(":") ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
