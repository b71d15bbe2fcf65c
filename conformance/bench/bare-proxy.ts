/**
 * The reference the validating proxy is measured against in `npm run bench:traffic`: a bare
 * pass-through proxy, node:http on both sides with a keep-alive agent to the upstream, bodies
 * streamed, no checks. What any Node proxy costs on this machine; the validating proxy's
 * throughput is reported as a share of it.
 *
 *   node --import tsx conformance/bench/bare-proxy.ts UPSTREAM   # prints "listening on URL" on stderr
 */
import { Agent, createServer, request } from "node:http";

const upstream = new URL(process.argv[2] ?? "");
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

const server = createServer((req, res) => {
  const headers = { ...req.headers, host: upstream.host };
  delete headers.connection;
  const forwarded = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  forwarded.once("error", (error) => {
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
    res.end(`bare proxy: ${error.message}`);
  });
  req.pipe(forwarded);
});
server.keepAliveTimeout = 5_000;
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as { port: number };
  console.error(`bare proxy listening on http://127.0.0.1:${port}`);
});
