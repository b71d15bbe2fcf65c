/**
 * For the proxies that stand in front of a server under test (the validating proxy, the
 * self-test's): a request their own HTTP parser refuses (not valid HTTP) is passed on to the
 * upstream as the bytes it came as, and the upstream's answer back as it comes, so that the
 * server behind answers it, not the proxy (D39 says what a server answers there). The request
 * line is given the upstream's base path when it can be read.
 */
import type { Server } from "node:http";
import { connect } from "node:net";
import type { Duplex } from "node:stream";

/** The request line a parser refused, when it reads as one. */
const REQUEST_LINE = /^([A-Za-z]+) (\/\S*) (HTTP\/1\.[01])\r?\n/;

/** Relays what `server`'s parser refuses to the base URL `upstreamOf` gives for its path (undefined: no request line). */
export function relayRefusedRequests(server: Server, upstreamOf: (path: string | undefined) => string): void {
  server.on("clientError", (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (!error.rawPacket || !socket.writable) return void socket.destroy();
    const raw = error.rawPacket.toString("latin1");
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
