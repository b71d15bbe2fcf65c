/**
 * A webhook receiver for tests: an HTTP server on 127.0.0.1 (free port) that records every
 * delivery and answers from a script (a status, a redirect, or no answer at all).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  /** The exact body bytes, as text. */
  body: string;
  receivedMs: number;
  path: string;
}

/** What the receiver does with one delivery: answer a status, redirect, or never answer. */
export type ReceiverAnswer = number | { redirectTo: string } | "hang";

export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** Answers for the next deliveries, in order; 204 once exhausted. */
  script: ReceiverAnswer[];
  /** Resolves once `count` deliveries arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = "/hooks"): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const hanging: ServerResponse[] = [];
  const waiters: Array<() => boolean> = [];
  const receiver: WebhookReceiver = {
    url: "",
    received,
    script: [],
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return false;
          clearTimeout(timer);
          resolve(received.slice(0, count));
          return true;
        };
        const timer = setTimeout(() => reject(new Error(`${received.length} of ${count} deliveries arrived within ${timeoutMs} ms`)), timeoutMs);
        if (!check()) waiters.push(check);
      });
    },
    close: () =>
      new Promise<void>((done) => {
        for (const res of hanging) res.destroy();
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), receivedMs: Date.now(), path: req.url ?? "" });
      const answer = receiver.script.shift() ?? 204;
      if (answer === "hang") hanging.push(res);
      else if (typeof answer === "number") res.writeHead(answer).end();
      else res.writeHead(302, { location: answer.redirectTo }).end();
      for (const waiter of waiters.splice(0)) if (!waiter()) waiters.push(waiter);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()));
  const address = server.address();
  receiver.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}${path}`;
  return receiver;
}
