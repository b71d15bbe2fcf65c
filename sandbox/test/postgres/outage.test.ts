/**
 * The network to PostgreSQL cut during traffic: a TCP proxy between the sandbox and PostgreSQL
 * is cut (every connection dropped without a word, new ones reset) and restored, on the cluster
 * other tests share. (A real restart, which PostgreSQL announces to its sessions, is
 * restart.test.ts, on a private cluster.) While it is down every
 * request gets 503 with Retry-After in its family's error format (never a 500, never a hang);
 * once it is back the same instance answers normally, without a restart.
 */
import { createServer, connect, type Server, type Socket } from "node:net";
import { afterEach, expect, it } from "vitest";
import { startSandbox } from "../../src/server.ts";
import { freshSchema, PG_URL, pgDescribe } from "./support.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A TCP proxy on loopback to `host:port` that can be cut (connections dropped and refused) and restored. */
async function cuttableProxy(host: string, port: number) {
  let cut = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = connect(port, host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.once("close", () => sockets.delete(s));
      s.on("error", () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.once("close", () => upstream.destroy());
    upstream.once("close", () => client.destroy());
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      cut = true;
      for (const s of sockets) s.destroy();
    },
    restore() {
      cut = false;
    },
    close: () => new Promise<void>((done) => {
      for (const s of sockets) s.destroy();
      server.close(() => done());
    }),
  };
}

pgDescribe("PostgreSQL unreachable during traffic", () => {
  it("answers 503 with Retry-After while it is down, then recovers by itself", { timeout: 60_000 }, async () => {
    const schema = await freshSchema();
    cleanups.push(schema.drop);
    const database = new URL(PG_URL!);
    const proxy = await cuttableProxy(database.hostname, Number(database.port || 5432));
    cleanups.push(proxy.close);
    const viaProxy = new URL(schema.url);
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    const sandbox = await startSandbox({ port: 0, store: viaProxy.toString(), plan: "generous" });
    cleanups.push(() => sandbox.close());
    const keyA = sandbox.keys.familyA.primary;
    const keyB = sandbox.keys.familyB.primary;

    let phase: "up" | "down" | "back" = "up";
    const seen: Record<string, Array<{ status: number; retryAfter: string | null; contentType: string | null; body: string; ms: number }>> = { up: [], down: [], back: [] };
    let counter = 0;
    const one = async () => {
      const at = phase;
      const started = performance.now();
      const n = counter++;
      const r =
        n % 3 === 0
          ? await fetch(`${sandbox.url}/v1/charges`, {
              method: "POST",
              headers: { "x-api-key": keyA, "content-type": "application/json", "idempotency-key": `outage-${n}` },
              body: JSON.stringify({ amount: 500, method: "pix" }),
            })
          : n % 3 === 1
            ? await fetch(`${sandbox.url}/v1/merchant`, { headers: { "x-api-key": keyA } })
            : await fetch(`${sandbox.url}/sdk/status/health`, { headers: { "x-api-key": keyB } });
      const body = await r.text();
      // A request that started before a phase change may end in either state: only those wholly within one count.
      if (at === phase) seen[at].push({ status: r.status, retryAfter: r.headers.get("retry-after"), contentType: r.headers.get("content-type"), body, ms: performance.now() - started });
    };
    const traffic = async (until: () => boolean) => {
      while (!until()) await Promise.all([one(), one(), one()]);
    };

    // Each phase lasts until it has shown enough answers (not a set time: a loaded machine answers slower).
    const until = async (enough: () => boolean) => {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && !enough()) await new Promise((done) => setTimeout(done, 50));
    };
    let stop = false;
    const running = traffic(() => stop);
    await until(() => seen.up.length >= 6);
    phase = "down";
    proxy.cut();
    await until(() => seen.down.filter((s) => s.status === 503).length >= 3);
    phase = "back";
    proxy.restore();
    // Recovered: a stretch of normal answers after the restore.
    await until(() => seen.back.filter((s) => s.status < 300).length >= 30);
    stop = true;
    await running;

    const summary = (list: typeof seen.up) => list.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s.status]: (acc[s.status] ?? 0) + 1 }), {});
    console.log(`outage: up ${JSON.stringify(summary(seen.up))}, down ${JSON.stringify(summary(seen.down))}, back ${JSON.stringify(summary(seen.back))}`);
    expect(seen.up.length).toBeGreaterThan(0);
    expect(seen.up.every((s) => s.status === 200 || s.status === 201)).toBe(true);
    // Down: only 503s with Retry-After, in the family's error format, none hanging past the timeouts.
    expect(seen.down.length).toBeGreaterThan(0);
    for (const s of seen.down.filter((x) => x.status !== 200 && x.status !== 201)) {
      expect(s.status).toBe(503);
      expect(Number(s.retryAfter)).toBeGreaterThanOrEqual(1);
      const body = JSON.parse(s.body) as Record<string, unknown>;
      if (s.contentType?.startsWith("application/problem+json")) expect(body.code).toBe("SERVICE_UNAVAILABLE");
      else expect((body.error as { code: string }).code).toBe("SERVICE_UNAVAILABLE");
    }
    expect(seen.down.filter((s) => s.status === 503).length).toBeGreaterThan(0);
    // Back: the same instance, no restart, answers normally again (after at most a few 503s while reconnecting).
    expect(seen.back.filter((s) => s.status === 200 || s.status === 201).length).toBeGreaterThanOrEqual(30);
    expect(seen.back.every((s) => [200, 201, 503].includes(s.status))).toBe(true);
    const firstOk = seen.back.findIndex((s) => s.status < 300);
    expect(seen.back.slice(firstOk).every((s) => s.status < 300)).toBe(true);
  });
});
