/**
 * One Idempotency-Key reaching two instances at once: 100 parallel POSTs split across two
 * sandbox instances over one PostgreSQL database create exactly one charge, and every answer
 * is the same charge (the key is claimed by a unique constraint, not an in-process lock).
 * Also: shared rate-limit counters, account clocks and webhook secrets across instances, and
 * the webhook retries an account's clock brings forward.
 */
import { afterEach, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import pg from "pg";
import type { RunningSandbox } from "../../src/server.ts";
import { startWebhookReceiver } from "../webhook-receiver.ts";
import { freshSchema, pgDescribe, startInstances } from "./support.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function twoInstances(options: Parameters<typeof startInstances>[2] = {}): Promise<{ url: string; instances: RunningSandbox[] }> {
  const schema = await freshSchema();
  cleanups.push(schema.drop);
  const instances = await startInstances(2, schema.url, options);
  cleanups.push(async () => {
    await Promise.all(instances.map((i) => i.close()));
  });
  return { url: schema.url, instances };
}

pgDescribe("several instances over one PostgreSQL database", () => {
  it("100 parallel POSTs with one Idempotency-Key over two instances: one charge, one answer", async () => {
    const { url, instances } = await twoInstances();
    const key = instances[0].keys.familyA.primary;
    const body = JSON.stringify({ amount: 4321, method: "pix", reference: "one-key" });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        fetch(`${instances[i % 2].url}/v1/charges`, {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/json", "idempotency-key": "shared-key-across-instances" },
          body,
        }).then(async (r) => ({ status: r.status, text: await r.text(), replayed: r.headers.get("idempotent-replayed") })),
      ),
    );
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([201]));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers.filter((a) => a.replayed !== "true")).toHaveLength(1);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query("SELECT count(*)::int AS n FROM records WHERE kind = 'charge'");
    await client.end();
    expect(rows[0].n).toBe(1);
  });

  it("shares rate-limit counters, account clocks and webhook secrets between instances", async () => {
    // An hour's window: windows are aligned on the real clock, and a minute's could renew halfway.
    const { instances } = await twoInstances({ plan: { windowSeconds: 3600, general: 6, pixCreations: 6, transactionCreations: 6, queries: 6 } });
    const [a, b] = instances;
    const key = a.keys.familyA.primary;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await fetch(`${instances[i % 2].url}/v1/merchant`, { headers: { "x-api-key": key } })).status);
    // Six admitted in the window, whichever instance counted them; the rest refused.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);

    const other = a.keys.familyA.secondAccount;
    const advanced = await fetch(`${a.url}/_sandbox/clock/advance`, { method: "POST", headers: { "x-api-key": other, "content-type": "application/json" }, body: JSON.stringify({ seconds: 7200 }) });
    expect(advanced.status).toBe(200);
    const clock = (await (await fetch(`${b.url}/_sandbox/clock`, { headers: { "x-api-key": other } })).json()) as { offsetSeconds: number };
    expect(clock.offsetSeconds).toBe(7200);

    const rotated = (await (await fetch(`${b.url}/_sandbox/webhooks/secret/rotate`, { method: "POST", headers: { "x-api-key": other } })).json()) as { current: string };
    const seen = (await (await fetch(`${a.url}/_sandbox/webhooks/secret`, { headers: { "x-api-key": other } })).json()) as { secrets: string[] };
    expect(seen.secrets[0]).toBe(rotated.current);
  });

  it("brings an account's pending webhook retries forward when its clock moves (the schedule runs on it)", async () => {
    const receiver = await startWebhookReceiver();
    cleanups.push(receiver.close);
    receiver.script = [500];
    const { instances } = await twoInstances({ webhooks: { retryDelaysMs: [3_600_000], jitter: 0 } });
    const [a, b] = instances;
    const headers = { "x-api-key": a.keys.familyA.primary, "content-type": "application/json" };
    const created = (await (await fetch(`${a.url}/v1/charges`, { method: "POST", headers: { ...headers, "idempotency-key": randomUUID() }, body: JSON.stringify({ amount: 1000, method: "pix", webhook_url: receiver.url }) })).json()) as { id: string };
    expect((await fetch(`${a.url}/_sandbox/charges/${created.id}/pay`, { method: "POST", headers })).status).toBe(200);
    await receiver.waitFor(1);
    await new Promise((done) => setTimeout(done, 300));
    expect((await fetch(`${b.url}/_sandbox/clock/advance`, { method: "POST", headers, body: JSON.stringify({ seconds: 3601 }) })).status).toBe(200);
    const [first, retry] = await receiver.waitFor(2, 5_000);
    expect(retry!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
  });
});
