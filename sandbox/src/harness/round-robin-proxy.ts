/**
 * A round-robin HTTP proxy on loopback in front of several sandbox instances: request n goes to
 * upstream n mod count, so the requests of one scenario alternate between instances (the
 * temporary sandbox with `instances`, the PostgreSQL tests, the benchmark). Headers and bodies
 * pass through unchanged; an upstream that cannot be reached gives 502.
 */
import { createServer, request as httpRequest, Agent, type IncomingMessage } from "node:http";

export async function roundRobinProxy(upstreams: readonly string[]): Promise<{ url: string; close(): Promise<void> }> {
  let next = 0;
  // Idle upstream sockets are dropped after 1 s, well before the sandbox closes idle connections
  // (5 s): otherwise a request may go out on a socket the sandbox is closing, and come back 502.
  const agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 1_000 });
  const targets = upstreams.map((u) => new URL(u));
  const server = createServer((req, res) => {
    const upstream = targets[next++ % targets.length];
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer: IncomingMessage) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    });
    forward.once("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
      res.end();
    });
    req.pipe(forward);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
