/**
 * Webhook delivery end to end (decisions D24 to D26) through a sandbox process: a charge paid
 * through the sandbox control, its signed `charge.paid` received on a 127.0.0.1 receiver,
 * verified with the client's `verifyWebhook` and the Standard Webhooks reference library, and
 * valid against the contract's `webhooks` entry, across retries with a configured schedule, a
 * restart between payment and delivery, and a kill -9 during an attempt. Retry timings are
 * printed, never asserted. (A first delivery, signed and verifiable, is checked by the
 * conformance scenarios family-a/events/webhook-signed and family-a/events/webhook-signature-verifies.)
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createInterface } from "node:readline";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "@payment-collection/contract/build/contract-build.ts";
import { freshKey, startTestSandbox, type TestSandbox } from "./support.ts";
import { checkDelivery as checkEvent } from "./webhook-contract.ts";
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from "./webhook-receiver.ts";

/** Everything a receiver checks on one charge.paid delivery; returns the verified event. */
const checkDelivery = (delivery: ReceivedDelivery, secret: string) => checkEvent(delivery, secret, "charge.paid");

let receiver: WebhookReceiver;
let dataDir: string;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  dataDir = mkdtempSync(join(tmpdir(), "sandbox-webhook-e2e-"));
});
afterAll(async () => {
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function createCharge(t: TestSandbox, amount: number): Promise<string> {
  const created = await t.a.post("/v1/charges", { amount, method: "pix", webhook_url: receiver.url }, { headers: { "Idempotency-Key": freshKey() } });
  expect(created.status).toBe(201);
  return created.json.id as string;
}

describe("charge.paid end to end", () => {
  it("retries a receiver that fails first, with the same id, and prints the measured gaps", async () => {
    receiver.received.length = 0;
    receiver.script = [500, 503];
    const t = await startTestSandbox({ dataDir, allowPrivateWebhookTargets: true, webhooks: { retryDelaysMs: [250, 500] } });
    try {
      const id = await createCharge(t, 2000);
      const paidAt = Date.now();
      await t.a.post(`/_sandbox/charges/${id}/pay`);
      const deliveries = await receiver.waitFor(3);
      expect(new Set(deliveries.map((d) => d.headers["webhook-id"])).size).toBe(1);
      await checkDelivery(deliveries[2], t.sandbox.keys.webhookSecrets.primary);
      const gaps = deliveries.slice(1).map((d, i) => d.receivedMs - deliveries[i].receivedMs);
      console.log(`webhook e2e: first attempt ${deliveries[0].receivedMs - paidAt} ms after payment; retry gaps ${gaps.join(" ms, ")} ms (configured 250 and 500 ms, jitter ±10 %)`);
    } finally {
      await t.close();
    }
  });

  it("delivers an event acknowledged before a restart after it, exactly once per event id", async () => {
    receiver.received.length = 0;
    const before = await startTestSandbox({ dataDir, allowPrivateWebhookTargets: true, webhooks: { paused: true } });
    const ids: string[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const id = await createCharge(before, 3000 + i);
        expect((await before.a.post(`/_sandbox/charges/${id}/pay`)).status).toBe(200);
        ids.push(id);
      }
    } finally {
      await before.close();
    }
    expect(receiver.received).toHaveLength(0);

    const restartedAt = Date.now();
    const after = await startTestSandbox({ dataDir, allowPrivateWebhookTargets: true });
    try {
      const deliveries = await receiver.waitFor(3);
      // Give a duplicate the time to show up before counting.
      await new Promise((done) => setTimeout(done, 500));
      const events = await Promise.all(deliveries.map((d) => checkDelivery(d, after.sandbox.keys.webhookSecrets.primary)));
      expect(events.map((e) => (e.data as { id: string }).id).sort()).toEqual([...ids].sort());
      const perId = new Map<string, number>();
      for (const d of receiver.received) perId.set(d.headers["webhook-id"] as string, (perId.get(d.headers["webhook-id"] as string) ?? 0) + 1);
      expect([...perId.values()]).toEqual([1, 1, 1]);
      console.log(`webhook e2e: after a restart, 3 stored events delivered ${Math.max(...deliveries.map((d) => d.receivedMs)) - restartedAt} ms after the restart began`);
    } finally {
      await after.close();
    }
  });
});

describe("charge.paid across kill -9", () => {
  it("re-sends an event whose attempt was cut short by a crash, with the same id", async () => {
    receiver.received.length = 0;
    receiver.script = ["hang"];
    const dir = join(dataDir, "kill");
    const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "sandbox/src/cli.ts"), "--port", "0", "--data-dir", dir, "--plan", "generous", "--json"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, SANDBOX_ALLOW_PRIVATE_WEBHOOKS: "1" },
    });
    const exited = new Promise<NodeJS.Signals | null>((done) => child.once("exit", (_code, signal) => done(signal)));
    const banner = await new Promise<{ url: string; keys: { familyA: { primary: string }; webhookSecrets: { primary: string } } }>((done) =>
      createInterface({ input: child.stdout! }).once("line", (line) => done(JSON.parse(line))),
    );
    const call = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
      fetch(`${banner.url}${path}`, {
        method: "POST",
        headers: { "x-api-key": banner.keys.familyA.primary, "content-type": "application/json", ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const created = await (await call("/v1/charges", { amount: 4000, method: "pix", webhook_url: receiver.url }, { "idempotency-key": freshKey() })).json();
    expect((await call(`/_sandbox/charges/${created.id}/pay`)).status).toBe(200);
    // The first attempt reaches the receiver, which never answers; the process dies meanwhile.
    const [cut] = await receiver.waitFor(1);
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");

    const restartedAt = Date.now();
    const after = await startTestSandbox({ dataDir: dir, allowPrivateWebhookTargets: true });
    try {
      const [, again] = await receiver.waitFor(2, 40_000);
      expect(again.headers["webhook-id"]).toBe(cut.headers["webhook-id"]);
      const event = await checkDelivery(again, banner.keys.webhookSecrets.primary);
      expect((event.data as { id: string }).id).toBe(created.id);
      await new Promise((done) => setTimeout(done, 500));
      expect(new Set(receiver.received.map((d) => d.headers["webhook-id"]))).toEqual(new Set([cut.headers["webhook-id"]]));
      console.log(`webhook e2e: attempt cut by kill -9 re-sent ${again.receivedMs - restartedAt} ms after the restart (lease: attempt timeout 10 s + first retry delay 5 s)`);
    } finally {
      await after.close();
    }
  }, 60_000);
});
