/**
 * The webhook outbox (decisions D24 to D26): an acknowledged payment's event survives a
 * restart; failed attempts are retried with the same webhook-id on the configured schedule;
 * redirects and timeouts are failures; a rotated secret signs alongside the previous one
 * during the overlap. Timings are printed, never asserted.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../src/store/sqlite.ts";
import { expectAllConformant, freshKey, startTestSandbox, type TestSandbox } from "./support.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.ts";

let receiver: WebhookReceiver;
let dataDir: string;
const running: TestSandbox[] = [];

beforeEach(async () => {
  receiver = await startWebhookReceiver();
  dataDir = mkdtempSync(join(tmpdir(), "sandbox-outbox-"));
});
afterEach(async () => {
  for (const t of running.splice(0)) await t.close();
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(webhooks: Parameters<typeof startTestSandbox>[0] extends infer O ? (O extends { webhooks?: infer W } ? W : never) : never) {
  const t = await startTestSandbox({ dataDir, allowPrivateWebhookTargets: true, webhooks });
  running.push(t);
  return t;
}

async function stop(t: TestSandbox) {
  running.splice(running.indexOf(t), 1);
  await t.close();
}

/** Creates a charge aimed at the receiver and pays it through the sandbox control. */
async function createAndPay(t: TestSandbox, amount = 1000) {
  const created = await t.a.post("/v1/charges", { amount, method: "pix", webhook_url: receiver.url }, { headers: { "Idempotency-Key": freshKey() } });
  expect(created.status).toBe(201);
  const paid = await t.a.post(`/_sandbox/charges/${created.json.id}/pay`);
  expect(paid.status).toBe(200);
  return paid.json;
}

/** Waits until the sandbox has recorded `count` attempts (the receiver sees a delivery before the sandbox logs it). */
async function attemptsOf(t: TestSandbox, count: number) {
  for (let i = 0; i < 500 && t.sandbox.webhooks.attempts().length < count; i++) await new Promise((done) => setTimeout(done, 10));
  return t.sandbox.webhooks.attempts();
}

/** The event ids in the outbox of a stopped sandbox, with their state. */
function outboxOf(dir: string, id: string) {
  const store = openSqliteStore({ dataDir: dir });
  return store.outboxGet(id).finally(() => store.close());
}

describe("durable outbox", () => {
  it("delivers an acknowledged payment's event after a restart, once, with its id", async () => {
    const first = await start({ paused: true });
    const charge = await createAndPay(first);
    expectAllConformant(first);
    await stop(first);
    expect(receiver.received).toHaveLength(0);

    const restartedMs = Date.now();
    const second = await start({});
    const [delivery] = await receiver.waitFor(1);
    const event = new Webhook(second.sandbox.keys.webhookSecrets.primary).verify(delivery.body, delivery.headers as Record<string, string>) as {
      type: string;
      data: { id: string };
    };
    expect(event.type).toBe("charge.paid");
    expect(event.data.id).toBe(charge.id);
    // Let any stray duplicate arrive before counting.
    await new Promise((done) => setTimeout(done, 300));
    await stop(second);
    expect(receiver.received.map((d) => d.headers["webhook-id"])).toEqual([delivery.headers["webhook-id"]]);
    expect(await outboxOf(dataDir, delivery.headers["webhook-id"] as string)).toMatchObject({ state: "delivered", attempts: 1 });
    console.log(`outbox: restart -> delivery ${delivery.receivedMs - restartedMs} ms (includes the sandbox start)`);
  });

  it("retries failures with the same webhook-id until a 2xx, spacing attempts by the schedule", async () => {
    const t = await start({ retryDelaysMs: [100, 200, 400], jitter: 0.1 });
    receiver.script = [500, 503, 429];
    await createAndPay(t);
    const deliveries = await receiver.waitFor(4);
    expect(new Set(deliveries.map((d) => d.headers["webhook-id"])).size).toBe(1);
    const attempts = (await attemptsOf(t, 4)).filter((a) => a.eventId === deliveries[0].headers["webhook-id"]);
    expect(attempts.map((a) => a.outcome)).toEqual(["failed", "failed", "failed", "delivered"]);
    const gaps = deliveries.slice(1).map((d, i) => d.receivedMs - deliveries[i].receivedMs);
    console.log(`outbox: retry gaps with delays 100/200/400 ms ±10 %: ${gaps.join(", ")} ms`);
  });

  it("gives the event up after the last retry", async () => {
    const t = await start({ retryDelaysMs: [20, 20] });
    receiver.script = [500, 500, 500, 500];
    await createAndPay(t);
    const deliveries = await receiver.waitFor(3);
    const id = deliveries[0].headers["webhook-id"] as string;
    await new Promise((done) => setTimeout(done, 200));
    expect(receiver.received).toHaveLength(3);
    await stop(t);
    expect(await outboxOf(dataDir, id)).toMatchObject({ state: "failed", attempts: 3, lastError: "HTTP 500" });
  });

  it("does not follow redirects: a 3xx is a failed attempt", async () => {
    const other = await startWebhookReceiver("/elsewhere");
    try {
      const t = await start({ retryDelaysMs: [50] });
      receiver.script = [{ redirectTo: other.url }];
      await createAndPay(t);
      await receiver.waitFor(2);
      expect(other.received).toHaveLength(0);
      const attempts = await attemptsOf(t, 2);
      expect(attempts.map((a) => [a.outcome, a.detail])).toEqual([
        ["failed", "HTTP 302"],
        ["delivered", "HTTP 204"],
      ]);
    } finally {
      await other.close();
    }
  });

  it("fails an attempt that gets no answer within the timeout, then retries", async () => {
    const t = await start({ retryDelaysMs: [50], timeoutMs: 300 });
    receiver.script = ["hang"];
    await createAndPay(t);
    await receiver.waitFor(2);
    const attempts = await attemptsOf(t, 2);
    expect(attempts.map((a) => a.outcome)).toEqual(["failed", "delivered"]);
    expect(attempts[0].detail).toMatch(/within 300 ms/);
    console.log(`outbox: timed-out attempt lasted ${attempts[0].endedMs - attempts[0].startedMs} ms (timeout 300 ms)`);
  });
});

describe("secret rotation", () => {
  it("signs with the new and the previous secret during the overlap, and only the new one after", async () => {
    const t = await start({ rotationOverlapMs: 60_000 });
    const previous = t.sandbox.keys.webhookSecrets.primary;
    const rotated = await t.sandbox.webhooks.rotateSecret("acc_1");
    expect(rotated.current).toMatch(/^whsec_/);
    expect(rotated.previous).toBe(previous);
    await createAndPay(t);
    const [delivery] = await receiver.waitFor(1);
    expect((delivery.headers["webhook-signature"] as string).split(" ")).toHaveLength(2);
    const headers = delivery.headers as Record<string, string>;
    expect(() => new Webhook(previous).verify(delivery.body, headers)).not.toThrow();
    expect(() => new Webhook(rotated.current).verify(delivery.body, headers)).not.toThrow();
    await stop(t);

    // The rotation is stored, overlap included; a rotation with no overlap signs with the new secret only.
    const after = await start({ rotationOverlapMs: 0 });
    expect(await after.sandbox.webhooks.secrets("acc_1")).toEqual([rotated.current, previous]);
    await after.sandbox.webhooks.rotateSecret("acc_1");
    const [newest] = await after.sandbox.webhooks.secrets("acc_1");
    await createAndPay(after);
    const [second] = (await receiver.waitFor(2)).slice(1);
    expect((second.headers["webhook-signature"] as string).split(" ")).toHaveLength(1);
    expect(() => new Webhook(newest).verify(second.body, second.headers as Record<string, string>)).not.toThrow();
    expect(() => new Webhook(rotated.current).verify(second.body, second.headers as Record<string, string>)).toThrow();
  });

  it("keeps one secret per merchant: rotating one account leaves the others alone", async () => {
    const t = await start({});
    await t.sandbox.webhooks.rotateSecret("acc_1");
    expect(await t.sandbox.webhooks.secrets("acc_2")).toEqual([t.sandbox.keys.webhookSecrets.secondAccount]);
  });
});
