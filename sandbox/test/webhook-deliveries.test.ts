/**
 * The delivery log control (`GET /_sandbox/webhooks/deliveries`) on the embedded SQLite store:
 * the account's events, newest first, paginated, each with its state and every attempt (time,
 * instance, outcome, error, next attempt); another account's events are not listed. The same
 * control over PostgreSQL runs in test/postgres/ (kill.test.ts reads it across instances).
 */
import { afterEach, expect, it } from "vitest";
import { expectAllConformant, freshKey, startTestSandbox, type TestSandbox } from "./support.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.ts";

let t: TestSandbox | undefined;
let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await t?.close();
  await receiver?.close();
});

type Log = {
  items: Array<{ id: string; type: string; state: string; nextAttemptAt: string | null; attempts: Array<{ attempt: number; instance: string; outcome: string; error: string | null; nextAttemptAt: string | null }> }>;
  page: number;
  limit: number;
  total: number;
  totalPages: number;
};

it("lists each event with its state and every attempt, newest first, paginated, per account", async () => {
  receiver = await startWebhookReceiver();
  receiver.script = [500];
  t = await startTestSandbox({ instanceId: "sandbox-under-test", webhooks: { retryDelaysMs: [100, 100], jitter: 0 } });
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    const created = await t.a.post("/v1/charges", { amount: 1000 + i, method: "pix", webhook_url: receiver.url }, { headers: { "idempotency-key": freshKey() } });
    ids.push((created.json as { id: string }).id);
  }
  for (const id of ids) expect((await t.a.post(`/_sandbox/charges/${id}/pay`)).status).toBe(200);
  await receiver.waitFor(3);

  let log: Log | undefined;
  for (let tries = 0; tries < 100; tries++) {
    log = (await t.a.get("/_sandbox/webhooks/deliveries")).json as Log;
    if (log.items.every((e) => e.state === "delivered")) break;
    await new Promise((done) => setTimeout(done, 50));
  }
  expect(log!.total).toBe(2);
  expect(log!.items.map((e) => e.state)).toEqual(["delivered", "delivered"]);
  const attempts = log!.items.flatMap((e) => e.attempts);
  expect(attempts).toHaveLength(3);
  expect(attempts.every((a) => a.instance === "sandbox-under-test")).toBe(true);
  const failedFirst = log!.items.find((e) => e.attempts.length === 2)!;
  expect(failedFirst.attempts[0]).toMatchObject({ attempt: 1, outcome: "failed", error: "HTTP 500" });
  expect(failedFirst.attempts[0].nextAttemptAt).not.toBeNull();
  expect(failedFirst.attempts[1]).toMatchObject({ attempt: 2, outcome: "delivered", error: null, nextAttemptAt: null });

  const page = (await t.a.get("/_sandbox/webhooks/deliveries?limit=1&page=2")).json as Log;
  expect(page).toMatchObject({ page: 2, limit: 1, total: 2, totalPages: 2 });
  expect(page.items.map((e) => e.id)).toEqual([log!.items[1].id]);

  const other = (await t.client(t.sandbox.keys.familyA.secondAccount).get("/_sandbox/webhooks/deliveries")).json as Log;
  expect(other.total).toBe(0);
  expect((await t.a.get("/_sandbox/webhooks/deliveries?limit=101")).status).toBe(400);
  expectAllConformant(t);
});

it("runs the retry schedule on the account's clock: advancing it past a retry's delay sends the retry at once", async () => {
  receiver = await startWebhookReceiver();
  receiver.script = [500, 500, 500];
  t = await startTestSandbox({ webhooks: { retryDelaysMs: [3_600_000, 3_600_000], jitter: 0 } });
  const created = await t.a.post("/v1/charges", { amount: 1000, method: "pix", webhook_url: receiver.url }, { headers: { "idempotency-key": freshKey() } });
  expect((await t.a.post(`/_sandbox/charges/${(created.json as { id: string }).id}/pay`)).status).toBe(200);
  await receiver.waitFor(1);
  // Another account's clock leaves the retry where it was.
  await new Promise((done) => setTimeout(done, 200));
  expect((await t.client(t.sandbox.keys.familyA.secondAccount).post("/_sandbox/clock/advance", { seconds: 7200 })).status).toBe(200);
  await new Promise((done) => setTimeout(done, 300));
  expect(receiver.received).toHaveLength(1);
  expect((await t.a.post("/_sandbox/clock/advance", { seconds: 3601 })).status).toBe(200);
  await receiver.waitFor(2);
  // The schedule's last retry failed too: the event is given up, however far the clock moves.
  await new Promise((done) => setTimeout(done, 200));
  expect((await t.a.post("/_sandbox/clock/advance", { seconds: 3601 })).status).toBe(200);
  await receiver.waitFor(3);
  await new Promise((done) => setTimeout(done, 200));
  expect((await t.a.post("/_sandbox/clock/advance", { seconds: 86_400 })).status).toBe(200);
  await new Promise((done) => setTimeout(done, 300));
  expect(receiver.received).toHaveLength(3);
  const log = (await t.a.get("/_sandbox/webhooks/deliveries")).json as Log;
  expect(log.items[0]).toMatchObject({ state: "failed" });
  expect(log.items[0].attempts).toHaveLength(3);
});
