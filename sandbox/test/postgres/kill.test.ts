/**
 * kill -9 of one instance during 200 acknowledged writes and 50 pending webhook deliveries:
 * nothing acknowledged is lost, and every event is delivered by the other instance (the killed
 * instance's leases expire and the survivor claims the events).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import { createInterface } from "node:readline";
import { afterEach, expect, it } from "vitest";
import { freshSchema, pgDescribe } from "./support.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

interface Child {
  child: ChildProcess;
  url: string;
  keys: { familyA: { primary: string } };
}

async function spawnInstance(store: string, name: string): Promise<Child> {
  const child = spawn(process.execPath, ["--import", "tsx", new URL("./instance-child.ts", import.meta.url).pathname, store, name], { stdio: ["ignore", "pipe", "inherit"] });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await new Promise((done) => child.once("exit", done));
    }
  });
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`instance ${name} exited with ${code}`)));
  });
  return { child, ...(JSON.parse(line) as Omit<Child, "child">) };
}

pgDescribe("an instance killed with kill -9", () => {
  it("loses nothing acknowledged, and the other instance delivers every event", { timeout: 60_000 }, async () => {
    const schema = await freshSchema();
    cleanups.push(schema.drop);
    // The receiver answers slowly, so that the killed instance has attempts in flight.
    const received = new Map<string, number>();
    const receiver: Server = createServer((req, res) => {
      const id = String(req.headers["webhook-id"]);
      req.resume();
      req.on("end", () =>
        setTimeout(() => {
          received.set(id, (received.get(id) ?? 0) + 1);
          res.writeHead(204).end();
        }, 800),
      );
    });
    await new Promise<void>((done) => receiver.listen(0, "127.0.0.1", done));
    cleanups.push(() => new Promise<void>((done) => { receiver.close(() => done()); receiver.closeAllConnections(); }));
    const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;

    const [a, b] = await Promise.all([spawnInstance(schema.url, "doomed"), spawnInstance(schema.url, "survivor")]);
    const key = a.keys.familyA.primary;
    const headers = { "x-api-key": key, "content-type": "application/json" };
    const post = (base: string, i: number) =>
      fetch(`${base}/v1/charges`, { method: "POST", headers: { ...headers, "idempotency-key": `kill-test-${i}` }, body: JSON.stringify({ amount: 100 + i, method: "pix", webhook_url: hook }) });

    // 50 charges, then their payments through the instance about to die: 50 events in the
    // outbox, which it claims at once (its attempts wait 0.8 s for the receiver's answer).
    const charges = await Promise.all(Array.from({ length: 50 }, async (_, i) => ((await (await post(b.url, i)).json()) as { id: string }).id));
    const paying = Promise.all(charges.map((id) => fetch(`${a.url}/_sandbox/charges/${id}/pay`, { method: "POST", headers: { "x-api-key": key } }).then((r) => r.status)));

    // 200 writes to the doomed instance, 20 at a time; kill -9 once some are acknowledged.
    const acknowledged: string[] = [];
    let sent = 0;
    const writer = async () => {
      while (sent < 200) {
        const i = 1000 + sent++;
        try {
          const r = await post(a.url, i);
          if (r.status === 201) acknowledged.push(((await r.json()) as { id: string }).id);
        } catch {
          // The instance died under this request: not acknowledged.
        }
      }
    };
    const writers = Promise.all(Array.from({ length: 20 }, writer));
    const paid = await paying;
    // The statuses of any payment not answered 200 (seen once under a heavily loaded machine).
    expect(paid.filter((s) => s !== 200)).toEqual([]);
    while (acknowledged.length < 60) await new Promise((done) => setTimeout(done, 5));
    a.child.kill("SIGKILL");
    await writers;
    console.log(`kill -9: ${acknowledged.length} of 200 writes acknowledged before the kill; ${received.size} of 50 events received then`);

    // Every acknowledged charge is there, read through the survivor.
    for (const id of acknowledged) expect((await fetch(`${b.url}/v1/charges/${id}`, { headers: { "x-api-key": key } })).status).toBe(200);

    // Every event is delivered (the doomed instance's leases expire; the survivor claims them).
    type Log = { items: Array<{ id: string; state: string; attempts: Array<{ instance: string; outcome: string }> }>; total: number };
    let log: Log = { items: [], total: 0 };
    for (let tries = 0; tries < 200; tries++) {
      log = (await (await fetch(`${b.url}/_sandbox/webhooks/deliveries?limit=100`, { headers: { "x-api-key": key } })).json()) as Log;
      if (log.total === 50 && log.items.every((e) => e.state === "delivered")) break;
      await new Promise((done) => setTimeout(done, 100));
    }
    expect(log.total).toBe(50);
    expect(log.items.filter((e) => e.state !== "delivered")).toEqual([]);
    for (const event of log.items) expect(received.get(event.id) ?? 0).toBeGreaterThanOrEqual(1);
    const bySurvivor = log.items.filter((e) => e.attempts.some((x) => x.instance === "survivor" && x.outcome === "delivered")).length;
    console.log(`kill -9: all 50 events delivered; ${bySurvivor} by the survivor`);
    expect(bySurvivor).toBeGreaterThan(0);
  });
});
