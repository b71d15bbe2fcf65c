/**
 * A local HTTP proxy in front of one server under test, through which Dredd sends its
 * requests: Dredd has no notion of rate limits, so the proxy paces its requests with the same
 * Pacer as every other request of the run.
 *
 * Hooks steer the proxy with request headers that never reach the server:
 * - `x-conformance-check: <id>` names the check, for the exchange log;
 * - `x-conformance-expect-429: 1` lets a deliberate 429 through instead of waiting and retrying.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Pacer } from "./pacing.ts";

export const CHECK_HEADER = "x-conformance-check";
export const EXPECT_429_HEADER = "x-conformance-expect-429";

/** Headers that belong to one connection, or that the suites' HTTP client already dealt with (decoding). */
const NOT_FORWARDED = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
  "content-encoding",
  "te",
  "trailer",
]);

export interface PacingProxy {
  /** Base URL of the proxy, e.g. `http://127.0.0.1:41234`. */
  url: string;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/**
 * Starts a proxy that forwards `<proxy>/<path>` to `<upstream>/<path>`. `bucketFor` names the
 * rate-limit bucket of a request from its headers (the API key tells the account).
 */
export async function startPacingProxy(
  upstream: string,
  pacer: Pacer,
  bucketFor: (headers: Record<string, string>) => string | undefined,
): Promise<PacingProxy> {
  const base = upstream.replace(/\/+$/, "");
  const server: Server = createServer(async (request, response) => {
    try {
      const body = await readBody(request);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (value === undefined || NOT_FORWARDED.has(name)) continue;
        headers[name] = Array.isArray(value) ? value.join(", ") : value;
      }
      const checkId = headers[CHECK_HEADER];
      const expectRateLimited = headers[EXPECT_429_HEADER] === "1";
      delete headers[CHECK_HEADER];
      delete headers[EXPECT_429_HEADER];
      const method = request.method ?? "GET";
      const answer = await pacer.send({
        method,
        url: `${base}${request.url ?? "/"}`,
        headers,
        body: body.length > 0 || !["GET", "HEAD"].includes(method) ? body : undefined,
        bucket: bucketFor(headers),
        expectRateLimited,
        checkId,
      });
      const outHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(answer.headers)) if (!NOT_FORWARDED.has(name)) outHeaders[name] = value;
      outHeaders["content-length"] = String(Buffer.byteLength(answer.body));
      response.writeHead(answer.status, outHeaders);
      response.end(answer.body);
    } catch (error) {
      // The server could not be reached: a 502 that no contract response matches, with the cause.
      response.writeHead(502, { "content-type": "text/plain", "x-conformance-proxy-error": "1" });
      response.end(`conformance proxy: ${(error as Error).message}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
