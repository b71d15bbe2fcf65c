/**
 * A request written byte by byte on a connection of its own, for what no HTTP client sends: a
 * request line that is not HTTP, a header line without its colon, headers past any server's
 * limit, headers that never end (answered when the server's request timeout passes: the caller
 * gives the wait, past which the exchange fails). The answer is read as HTTP/1.1 (Content-Length, chunked, or up to the close). Outside
 * the pacer: each such request is one, and recorded by the scenario that sends it.
 */
import { connect as tcpConnect } from "node:net";
import { connect as tlsConnect } from "node:tls";
import type { ObservedResponse } from "../core/validate.ts";

/** The answer to raw bytes, or undefined when the server closed the connection without one. */
export function rawExchange(baseUrl: string, bytes: string | Buffer, timeoutMs = 30_000): Promise<ObservedResponse | undefined> {
  const url = new URL(baseUrl);
  const secure = url.protocol === "https:";
  const port = Number(url.port || (secure ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return new Promise((resolve, reject) => {
    const socket = secure ? tlsConnect({ host, port, servername: host }) : tcpConnect(port, host);
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (answer: ObservedResponse | undefined, error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(answer);
    };
    const timer = setTimeout(() => settle(undefined, new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      const answer = parsed(Buffer.concat(chunks), false);
      if (answer) settle(answer);
    });
    // A server may close while the request is still being written (headers past its limit): what it answered counts.
    socket.on("error", () => settle(parsed(Buffer.concat(chunks), true)));
    socket.on("close", () => settle(parsed(Buffer.concat(chunks), true)));
    socket.write(bytes);
  });
}

/** The response in `data` once it is whole (or, at the close, as much of it as came); undefined before. */
function parsed(data: Buffer, closed: boolean): ObservedResponse | undefined {
  const end = data.indexOf("\r\n\r\n");
  if (end === -1) return undefined;
  const [statusLine = "", ...lines] = data.subarray(0, end).toString("latin1").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(statusLine.split(" ")[1]);
  let body = data.subarray(end + 4);
  if (/chunked/i.test(headers["transfer-encoding"] ?? "")) {
    const unchunked = dechunked(body);
    if (!unchunked && !closed) return undefined;
    body = unchunked ?? body;
  } else if (headers["content-length"] !== undefined) {
    if (body.length < Number(headers["content-length"]) && !closed) return undefined;
    body = body.subarray(0, Number(headers["content-length"]));
  } else if (!closed) return undefined;
  return { status, headers, body: body.toString("utf8") };
}

/** A chunked body once its last chunk came, else undefined. */
function dechunked(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd === -1) return undefined;
    const size = parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
    if (!Number.isFinite(size)) return undefined;
    if (size === 0) return Buffer.concat(parts);
    if (data.length < lineEnd + 2 + size) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
