/**
 * For the proxies that stand in front of a server under test (the validating proxy, the
 * self-test's): a request their own HTTP parser refuses (not valid HTTP) is passed on to the
 * upstream as the bytes it came as, and the upstream's answer back as it comes, so that the
 * server behind answers it, not the proxy (D39 says what a server answers there). The request
 * line is given the upstream's base path when it can be read.
 *
 * So is a request whose headers have not all come within a second (RELAY_TIMEOUTS): the bytes
 * that came go to the upstream, whose own request timeout then answers it (D39's 408). Only a
 * connection's first request is kept for that (the suites send such a request on a connection
 * of its own).
 */
import type { IncomingMessage, Server } from "node:http";
import { connect } from "node:net";
import type { Duplex } from "node:stream";

/** The request line a parser refused, when it reads as one. */
const REQUEST_LINE = /^([A-Za-z]+) (\/\S*) (HTTP\/1\.[01])\r?\n/;

/**
 * The options of a relaying proxy's server: how long it waits for a request's headers before
 * handing the request to the upstream, and how often it looks. Short, so that the upstream's own
 * timeout, counted from the handoff, still answers within the margin the suites give a declared
 * timeout (3 s at least).
 */
export const RELAY_TIMEOUTS = { headersTimeout: 1_000, connectionsCheckingInterval: 250 } as const;

/**
 * Relays what `server`'s parser refuses, or waits too long for (a server created with
 * RELAY_TIMEOUTS), to the base URL `upstreamOf` gives for its path (undefined: no request line).
 */
export function relayRefusedRequests(server: Server, upstreamOf: (path: string | undefined) => string): void {
  // The bytes of each connection's first request until its headers are read (a listener on
  // `data` takes the connection from the parser's fast path: only until then).
  const firstBytes = new WeakMap<Duplex, { chunks: Buffer[]; keep(chunk: Buffer): void }>();
  server.on("connection", (socket: Duplex) => {
    const chunks: Buffer[] = [];
    const keep = (chunk: Buffer) => void chunks.push(chunk);
    firstBytes.set(socket, { chunks, keep });
    socket.on("data", keep);
  });
  server.on("request", (request: IncomingMessage) => {
    const kept = firstBytes.get(request.socket);
    if (!kept) return;
    request.socket.off("data", kept.keep);
    firstBytes.delete(request.socket);
  });
  server.on("clientError", (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    // Answered already by another listener (the self-test's broken servers answer some themselves).
    if (socket.writableEnded) return;
    const kept = firstBytes.get(socket)?.chunks ?? [];
    const packet = error.rawPacket ?? (error.code === "ERR_HTTP_REQUEST_TIMEOUT" && kept.length > 0 ? Buffer.concat(kept) : undefined);
    if (!packet || !socket.writable) return void socket.destroy();
    const raw = packet.toString("latin1");
    const line = REQUEST_LINE.exec(raw);
    const base = new URL(upstreamOf(line?.[2]));
    const basePath = base.pathname.replace(/\/+$/, "");
    const bytes = line ? `${line[1]} ${basePath}${line[2]} ${line[3]}${raw.slice(line[0].length - (line[0].endsWith("\r\n") ? 2 : 1))}` : raw;
    const upstream = connect(Number(base.port || 80), base.hostname.replace(/^\[|\]$/g, ""));
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
    upstream.pipe(socket);
    upstream.write(Buffer.from(bytes, "latin1"));
  });
}
