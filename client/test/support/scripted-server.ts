/**
 * A loopback node:http server that answers from a script and records what it received:
 * for what a stateless mock cannot show (retry schedules, idempotency keys across retries,
 * dropped connections). Binds 127.0.0.1 on a free port; the test that starts it stops it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One scripted answer: a response (`body` is sent as JSON, `text` as it is), or `drop` to
 * cut the connection without answering.
 */
export type ScriptedAnswer =
  | { status: number; headers?: Record<string, string>; body?: unknown; text?: string }
  | "drop";

export interface ScriptedServer {
  url: string;
  received: ReceivedRequest[];
  /** Queues answers; when the queue is empty, `fallback` answers. */
  script(...answers: ScriptedAnswer[]): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startScriptedServer(fallback: ScriptedAnswer = { status: 200, body: { ok: true } }): Promise<ScriptedServer> {
  const received: ReceivedRequest[] = [];
  let queue: ScriptedAnswer[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString() });
      const answer = queue.shift() ?? fallback;
      if (answer === "drop") {
        request.socket.destroy();
        return;
      }
      const payload = answer.text ?? (answer.body === undefined ? "" : JSON.stringify(answer.body));
      response.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      response.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    script: (...answers) => queue.push(...answers),
    reset: () => {
      queue = [];
      received.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
