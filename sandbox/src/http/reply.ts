/** What a handler answers, and how it is written to the socket. */
import type { ServerResponse } from "node:http";

export interface Reply {
  status: number;
  /** A JSON value, serialised on send (ignored when `rawBody` is set). */
  body?: unknown;
  /** A body already serialised (a replayed idempotent response). */
  rawBody?: string;
  /** Default `application/json`. */
  contentType?: string;
  headers?: Record<string, string>;
}

/** Writes a reply with extra headers (rate-limit headers) added. */
export function send(res: ServerResponse, reply: Reply, extraHeaders: Record<string, string> = {}): void {
  const payload = reply.rawBody ?? (reply.body === undefined ? "" : JSON.stringify(reply.body));
  const headers: Record<string, string | number> = {
    ...extraHeaders,
    ...reply.headers,
    "Content-Length": Buffer.byteLength(payload),
  };
  if (payload.length > 0) headers["Content-Type"] = reply.contentType ?? "application/json";
  res.writeHead(reply.status, headers);
  res.end(payload);
}
