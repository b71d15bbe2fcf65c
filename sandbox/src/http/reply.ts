/** What a handler answers, and how it is written to the socket. */
import type { ServerResponse } from "node:http";

export interface Reply {
  status: number;
  /**
   * A JSON value, serialised on send (ignored when `rawBody` is set). Every answer has one: the
   * document says all bodies are JSON, and no operation answers without a body (D31, D39).
   */
  body?: unknown;
  /** A body already serialised (a replayed idempotent response). */
  rawBody?: string;
  /** Default `application/json`. */
  contentType?: string;
  headers?: Record<string, string>;
}

/** Writes a reply with extra headers (rate-limit headers) added. */
export function send(res: ServerResponse, reply: Reply, extraHeaders: Record<string, string> = {}): void {
  const payload = reply.rawBody ?? JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    ...extraHeaders,
    ...reply.headers,
    "Content-Length": Buffer.byteLength(payload),
    "Content-Type": reply.contentType ?? "application/json",
  });
  res.end(payload);
}
