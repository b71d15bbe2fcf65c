/**
 * The validating proxy on bad input and faulty servers: an unreachable upstream gets a 502 with
 * a JSON body and is recorded as an upstream fault (never answered in its place), and a request
 * the proxy's parser refuses goes to the upstream as it came; a body over
 * --max-body passes through byte for byte and is counted as not validated; a server that breaks
 * a statement is flagged with that statement while its answer reaches the client unchanged;
 * the command prints each violation on stderr and a summary on its stop, exit 1.
 */
import { createServer, request, type Server } from "node:http";
import { EventEmitter } from "node:events";
import { connect, createServer as createNetServer } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TrafficEngine } from "../../src/traffic/engine.ts";
import { familyRoutes } from "../../src/traffic/routing.ts";
import { startTrafficProxy } from "../../src/traffic/proxy-server.ts";
import { proxyCommand } from "../../src/traffic/traffic-cli.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A server on a free loopback port answering every request with `answer`. */
async function upstream(answer: (path: string) => { status: number; headers: Record<string, string>; body: string | Buffer }): Promise<string> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const { status, headers, body } = answer(req.url ?? "/");
      res.writeHead(status, headers);
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** A port nothing listens on: a server bound, then closed. */
async function deadPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

async function proxyTo(upstreams: { "family-a"?: string; "family-b"?: string }, maxBody?: number) {
  const routes = familyRoutes({}).filter((r) => upstreams[r.family]);
  const engine = new TrafficEngine({ profile: "seed", routes });
  const proxy = await startTrafficProxy({ engine, routes, upstreams, maxBody });
  cleanups.push(proxy.close);
  const settled = async (count: number) => {
    while (proxy.handled < count) await new Promise((resolve) => setImmediate(resolve));
    return engine.summary();
  };
  return { url: proxy.url, settled };
}

const health = (version = "v1") => JSON.stringify({ success: true, data: { status: "ok", timestamp: "2026-11-26T10:00:00Z", version } });

describe("the validating proxy", () => {
  it("relays a request its parser refuses to the upstream as it came, and the upstream's answer back (D39: the server answers it)", async () => {
    let received = "";
    const raw = createNetServer((socket) => {
      socket.on("data", (chunk) => {
        received += chunk.toString("latin1");
        if (received.includes("\r\n\r\n")) socket.end('HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: 16\r\nConnection: close\r\n\r\n{"upstream":400}');
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => raw.close(() => resolve())));
    const { url } = await proxyTo({ "family-b": `http://127.0.0.1:${(raw.address() as { port: number }).port}` });
    const sent = "GET /sdk/status/health HTTP/1.1\r\nHost: x\r\nA header line without its colon\r\n\r\n";
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(url).port), "127.0.0.1");
      let text = "";
      socket.on("data", (chunk) => (text += chunk.toString("latin1")));
      socket.on("close", () => resolve(text));
      socket.write(sent);
    });
    expect(received).toBe(sent);
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*\{"upstream":400\}$/);
  });

  it("answers 502 with a JSON body when the upstream cannot be reached, and records an upstream fault", async () => {
    const { url, settled } = await proxyTo({ "family-b": await deadPort() });
    const response = await fetch(`${url}/sdk/status/health`, { headers: { "X-API-Key": "pk_test_abc" } });
    expect(response.status).toBe(502);
    expect(response.headers.get("content-type")).toBe("application/json");
    const body = await response.json();
    expect(body.error.code).toBe("UPSTREAM_UNREACHABLE");
    expect(body.error.message).toMatch(/could not be reached: ECONNREFUSED/);
    const summary = await settled(1);
    expect(summary.upstreamFaults).toBe(1);
    expect(summary.violations).toMatchObject([{ side: "upstream", status: 502 }]);
  });

  it("passes a body over --max-body through unchanged and counts it as not validated", async () => {
    const big = Buffer.from(JSON.stringify({ success: true, data: { status: "ok", timestamp: "2026-11-26T10:00:00Z", version: "v1", padding: "x".repeat(300_000) } }));
    const { url, settled } = await proxyTo({ "family-b": await upstream(() => ({ status: 200, headers: { "content-type": "application/json" }, body: big })) }, 100_000);
    const response = await fetch(`${url}/sdk/status/health`, { headers: { "X-API-Key": "pk_test_abc" } });
    expect(Buffer.from(await response.arrayBuffer()).equals(big)).toBe(true);
    const summary = await settled(1);
    expect(summary.notValidated.tooLarge).toBe(1);
    expect(summary.violations).toEqual([]);
  });

  it("forwards the request unchanged: method, path and query, headers (Host names the upstream), body bytes", async () => {
    let seen: { method?: string; url?: string; headers?: Record<string, unknown>; body?: Buffer } = {};
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        seen = { method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks) };
        res.writeHead(201, { "content-type": "application/json" });
        res.end("{}");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    const { url } = await proxyTo({ "family-a": `http://127.0.0.1:${(server.address() as { port: number }).port}` });
    const body = Buffer.from('{"amount": 1500,  "method":"pix", "note":"ção"}');
    await fetch(`${url}/v1/charges?x=1&x=2`, { method: "POST", headers: { "x-api-key": "sk_live_k", "Idempotency-Key": "abcdefgh-1", "content-type": "application/json", "x-custom": "a b" }, body });
    expect(seen.method).toBe("POST");
    expect(seen.url).toBe("/v1/charges?x=1&x=2");
    expect(seen.body!.equals(body)).toBe(true);
    expect(seen.headers).toMatchObject({ "x-api-key": "sk_live_k", "idempotency-key": "abcdefgh-1", "content-type": "application/json", "x-custom": "a b", "content-length": String(body.length) });
  });

  it("streams a chunked request body through whole, adds no body to a GET, and keeps the answer's header names as written", async () => {
    const seen: Array<{ method?: string; headers: Record<string, unknown>; body: string }> = [];
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        seen.push({ method: req.method, headers: req.headers, body: Buffer.concat(chunks).toString() });
        res.writeHead(201, ["Content-Type", "application/json", "X-Mixed-Case", "Kept"]);
        res.end("{}");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    const { url } = await proxyTo({ "family-a": `http://127.0.0.1:${(server.address() as { port: number }).port}` });
    const parts = ['{"amount": 1500,', ' "method":"pix",', ' "reference":"chunks"}'];
    const answer = await new Promise<{ rawHeaders: string[] }>((resolve, reject) => {
      const req = request(`${url}/v1/charges`, { method: "POST", headers: { "x-api-key": "sk_live_k", "content-type": "application/json" } }, (res) => {
        res.resume();
        res.on("end", () => resolve({ rawHeaders: res.rawHeaders }));
      });
      req.on("error", reject);
      // Written part by part with pauses: the proxy forwards a body it has not seen whole yet.
      void (async () => {
        for (const part of parts) {
          req.write(part);
          await new Promise((r) => setTimeout(r, 20));
        }
        req.end();
      })();
    });
    await fetch(`${url}/v1/charges/ch_1`, { headers: { "x-api-key": "sk_live_k" } });
    expect(seen[0]).toMatchObject({ method: "POST", body: parts.join("") });
    expect(seen[0]!.headers["transfer-encoding"]).toBe("chunked");
    expect(seen[1]).toMatchObject({ method: "GET", body: "" });
    expect(seen[1]!.headers["transfer-encoding"]).toBeUndefined();
    expect(seen[1]!.headers["content-length"]).toBeUndefined();
    expect(answer.rawHeaders).toEqual(expect.arrayContaining(["X-Mixed-Case", "Kept"]));
  });

  it("counts an exchange the client left before the answer as unanswered, not as an upstream fault", async () => {
    // The client leaves once the request has reached the server (an abort on a timer could come
    // before the proxy even sees the request on a loaded machine, and then there is no exchange).
    const client = new AbortController();
    const slow: Server = createServer((req, res) => {
      req.resume();
      client.abort();
      setTimeout(() => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(health());
      }, 300);
    });
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => { slow.closeAllConnections(); slow.close(() => resolve()); }));
    const { url, settled } = await proxyTo({ "family-b": `http://127.0.0.1:${(slow.address() as { port: number }).port}` });
    await expect(fetch(`${url}/sdk/status/health`, { headers: { "X-API-Key": "pk_test_abc" }, signal: client.signal })).rejects.toThrow();
    const summary = await settled(1);
    expect(summary.upstreamFaults).toBe(0);
    expect(summary.notValidated.noResponse).toBe(1);
    expect(summary.violations).toEqual([]);
  });

  it("flags a server that breaks a statement, and passes its answer on unchanged", async () => {
    const wrong = health("v2");
    const { url, settled } = await proxyTo({ "family-b": await upstream(() => ({ status: 200, headers: { "content-type": "application/json", "x-extra": "kept" }, body: wrong })) });
    const response = await fetch(`${url}/sdk/status/health`, { headers: { "X-API-Key": "pk_test_abc" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-extra")).toBe("kept");
    expect(await response.text()).toBe(wrong);
    const summary = await settled(1);
    expect(summary.violations).toMatchObject([{ side: "server", operationId: "getHealth", naming: { kind: "statement" }, seen: '"v2"' }]);
  });

  it("as a command: one stderr line per violation as it happens, a summary when stopped, exit 1", async () => {
    const target = await upstream(() => ({ status: 500, headers: { "content-type": "text/plain" }, body: "boom" }));
    const err: string[] = [];
    const out: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args) => void err.push(args.join(" ")));
    vi.spyOn(console, "log").mockImplementation((...args) => void out.push(args.join(" ")));
    const signals = new EventEmitter();
    const running = proxyCommand(["--family-b-upstream", target, "--port", "0"], signals);
    while (!err.some((l) => l.includes("listening on"))) await new Promise((resolve) => setTimeout(resolve, 10));
    const address = /listening on (\S+)/.exec(err.join("\n"))![1]!;
    const response = await fetch(`${address}/sdk/status/health`, { headers: { "X-API-Key": "pk_test_secret123" } });
    expect(await response.text()).toBe("boom");
    while (err.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    signals.emit("SIGINT");
    expect(await running).toBe(1);
    expect(err[1]).toMatch(/^violation #1 family-b getHealth 500 \[.+\]: expected a documented status \(.+\); seen 500 \| curl -i -X GET '.*\/sdk\/status\/health' -H "X-API-Key: \$API_KEY"/);
    expect(err.join("\n")).not.toContain("pk_test_secret123");
    expect(out.join("\n")).toMatch(/violations: 1;[\s\S]*result: FAIL/);
  });
});
