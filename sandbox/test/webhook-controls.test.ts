/**
 * The webhook sandbox controls over HTTP (spec/sandbox-controls, decisions D24 to D26):
 * reading and rotating the signing secret (two signatures during the overlap, one after the
 * account's clock passes it), and the account webhook endpoint that receives the family B
 * events `boleto.paid` and `boleto.canceled`, through the same durable outbox.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { expectAllConformant, freshKey, startTestSandbox, type TestSandbox } from "./support.ts";
import { checkDelivery, signatureEntries, verifiesWith } from "./webhook-contract.ts";
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from "./webhook-receiver.ts";

const DAY_SECONDS = 86_400;

let receiver: WebhookReceiver;
beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await receiver.close();
});

/** Pays a new charge aimed at the receiver and returns its delivery (the `index`-th received). */
async function paidChargeDelivery(t: TestSandbox, index: number): Promise<ReceivedDelivery> {
  const created = await t.a.post("/v1/charges", { amount: 1000 + index, method: "pix", webhook_url: receiver.url }, { headers: { "Idempotency-Key": freshKey() } });
  expect(created.status).toBe(201);
  expect((await t.a.post(`/_sandbox/charges/${created.json.id}/pay`)).status).toBe(200);
  return (await receiver.waitFor(index + 1))[index];
}

/** Only the delivery's signature entry `entry`, as a receiver would see a single-secret delivery. */
function withOnlyEntry(delivery: ReceivedDelivery, entry: string): ReceivedDelivery {
  return { ...delivery, headers: { ...delivery.headers, "webhook-signature": entry } };
}

describe("webhook secret controls", () => {
  let t: TestSandbox;
  beforeAll(async () => {
    t = await startTestSandbox({ allowPrivateWebhookTargets: true });
  });
  afterAll(async () => {
    expectAllConformant(t);
    await t.close();
  });

  it("rotate: both secrets sign during the overlap, each entry with its own; only the new one after the clock passes it", async () => {
    const seeded = t.sandbox.keys.webhookSecrets.primary;
    expect((await t.a.get("/_sandbox/webhooks/secret")).json).toEqual({ secrets: [seeded], previousUntil: null });

    const rotation = await t.b.post("/_sandbox/webhooks/secret/rotate");
    expect(rotation.status).toBe(200);
    const { current, previous, previousUntil } = rotation.json as { current: string; previous: string; previousUntil: string };
    expect(previous).toBe(seeded);
    expect(current).not.toBe(seeded);
    const clock = (await t.a.get("/_sandbox/clock")).json as { now: string };
    const overlapLeft = (Date.parse(previousUntil) - Date.parse(clock.now)) / 1000;
    expect(overlapLeft).toBeGreaterThan(DAY_SECONDS - 60);
    expect(overlapLeft).toBeLessThanOrEqual(DAY_SECONDS);
    expect((await t.a.get("/_sandbox/webhooks/secret")).json).toEqual({ secrets: [current, seeded], previousUntil });

    const during = await paidChargeDelivery(t, 0);
    const entries = signatureEntries(during);
    expect(entries).toHaveLength(2);
    for (const secret of [current, seeded]) {
      expect(entries.filter((entry) => verifiesWith(withOnlyEntry(during, entry), secret)), secret).toHaveLength(1);
      await checkDelivery(during, secret, "charge.paid");
    }

    // Past the overlap on the account's clock, the previous secret no longer signs.
    expect((await t.a.post("/_sandbox/clock/advance", { seconds: DAY_SECONDS + 1 })).status).toBe(200);
    expect((await t.a.get("/_sandbox/webhooks/secret")).json).toEqual({ secrets: [current], previousUntil: null });
    const after = await paidChargeDelivery(t, 1);
    expect(signatureEntries(after)).toHaveLength(1);
    await checkDelivery(after, current, "charge.paid");
    expect(verifiesWith(after, seeded)).toBe(false);
  });

  it("acts on the key's account only, and needs a key", async () => {
    const second = t.client(t.sandbox.keys.familyB.secondAccount);
    const before = (await second.get("/_sandbox/webhooks/secret")).json;
    await t.a.post("/_sandbox/webhooks/secret/rotate");
    expect((await second.get("/_sandbox/webhooks/secret")).json).toEqual(before);
    expect(before).toEqual({ secrets: [t.sandbox.keys.webhookSecrets.secondAccount], previousUntil: null });
    for (const path of ["/_sandbox/webhooks/secret/rotate", "/_sandbox/webhooks/secret"]) {
      const refused = await t.a.request(path.endsWith("rotate") ? "POST" : "GET", path, { key: null });
      expect(refused.status, path).toBe(401);
      expect(refused.json.error.code).toBe("UNAUTHORIZED");
    }
  });
});

describe("account webhook endpoint and boleto events", () => {
  let t: TestSandbox;
  beforeAll(async () => {
    t = await startTestSandbox({ allowPrivateWebhookTargets: true });
  });
  afterAll(async () => {
    expectAllConformant(t);
    await t.close();
  });

  async function registeredBoleto(client = t.b): Promise<string> {
    const created = await client.post("/_sandbox/boletos", { status: "REGISTERED", withPix: true });
    expect(created.status).toBe(201);
    return created.json.data.transactionId as string;
  }

  it("refuses URLs a charge's webhook_url could not have", async () => {
    for (const url of ["ftp://example.com/hooks", `https://example.com/${"a".repeat(2048)}`, "https://user:secret@example.com/hooks", "not a url"]) {
      const refused = await t.b.put("/_sandbox/webhooks/endpoint", { url });
      expect(refused.status, url.slice(0, 40)).toBe(400);
      expect(refused.json.error.code).toBe("VALIDATION_ERROR");
    }
    expect((await t.b.put("/_sandbox/webhooks/endpoint", {})).status).toBe(400);
    expect((await t.b.get("/_sandbox/webhooks/endpoint")).json).toEqual({ url: null });
  });

  it("sends boleto.paid and boleto.canceled there, signed, carrying the boleto as GET returns it", async () => {
    const secret = t.sandbox.keys.webhookSecrets.primary;
    expect((await t.b.put("/_sandbox/webhooks/endpoint", { url: receiver.url })).json).toEqual({ url: receiver.url });
    expect((await t.a.get("/_sandbox/webhooks/endpoint")).json).toEqual({ url: receiver.url });
    expect((await t.client(t.sandbox.keys.familyB.secondAccount).get("/_sandbox/webhooks/endpoint")).json).toEqual({ url: null });

    const latencies: number[] = [];
    const paidId = await registeredBoleto();
    let sentAt = Date.now();
    expect((await t.b.post(`/_sandbox/boletos/${paidId}/pay`)).status).toBe(200);
    const [paidDelivery] = await receiver.waitFor(1);
    latencies.push(paidDelivery.receivedMs - sentAt);
    const paid = await checkDelivery(paidDelivery, secret, "boleto.paid");
    const paidRead = await t.b.get(`/sdk/boleto/${paidId}`);
    expect(paid.data).toEqual(paidRead.json.data);
    expect(paidRead.json.data.status).toBe("CONFIRMED");

    const canceledId = await registeredBoleto();
    sentAt = Date.now();
    expect((await t.b.delete(`/api/v1/sdk/boleto/${canceledId}/cancel`, { reason: "Pedido cancelado pelo cliente" })).status).toBe(200);
    const canceledDelivery = (await receiver.waitFor(2))[1];
    latencies.push(canceledDelivery.receivedMs - sentAt);
    const canceled = await checkDelivery(canceledDelivery, secret, "boleto.canceled");
    const canceledRead = await t.b.get(`/sdk/boleto/${canceledId}`);
    expect(canceled.data).toEqual(canceledRead.json.data);
    expect(canceledRead.json.data.status).toBe("CANCELED");
    expect(canceledDelivery.headers["webhook-id"]).not.toBe(paidDelivery.headers["webhook-id"]);
    console.log(`boleto events: request -> delivery received ${latencies.join(" ms, ")} ms (boleto.paid, boleto.canceled)`);

    // A refused cancel changes nothing, so it reports nothing; without an endpoint nothing is sent.
    expect((await t.b.delete(`/api/v1/sdk/boleto/${canceledId}/cancel`, { reason: "de novo" })).status).toBe(409);
    expect((await t.b.post(`/_sandbox/boletos/${paidId}/pay`)).status).toBe(409);
    expect((await t.b.put("/_sandbox/webhooks/endpoint", { url: null })).json).toEqual({ url: null });
    expect((await t.b.delete(`/api/v1/sdk/boleto/${await registeredBoleto()}/cancel`, { reason: "sem endpoint" })).status).toBe(200);
    // Let a stray event arrive before counting.
    await new Promise((done) => setTimeout(done, 300));
    expect(receiver.received).toHaveLength(2);
    expect(t.sandbox.webhooks.attempts().filter((a) => a.type.startsWith("boleto."))).toHaveLength(2);
  });

  it("refuses loopback and private endpoints unless the sandbox allows them", async () => {
    const strict = await startTestSandbox({ allowPrivateWebhookTargets: false });
    try {
      for (const url of [receiver.url, "http://localhost:8080/hooks", "https://10.1.2.3/hooks"]) {
        expect((await strict.b.put("/_sandbox/webhooks/endpoint", { url })).status, url).toBe(400);
      }
      expect((await strict.b.put("/_sandbox/webhooks/endpoint", { url: "https://loja.example.com.br/webhooks/boletos" })).status).toBe(200);
      expectAllConformant(strict);
    } finally {
      await strict.close();
    }
  });
});

describe("boleto events across a restart", () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), "sandbox-boleto-events-"));
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps the endpoint, and delivers an event stored before the restart once", async () => {
    const before = await startTestSandbox({ dataDir, allowPrivateWebhookTargets: true, webhooks: { paused: true } });
    let boletoId: string;
    try {
      expect((await before.b.put("/_sandbox/webhooks/endpoint", { url: receiver.url })).status).toBe(200);
      boletoId = (await before.b.post("/_sandbox/boletos", { status: "REGISTERED" })).json.data.transactionId;
      expect((await before.b.delete(`/api/v1/sdk/boleto/${boletoId}/cancel`, { reason: "antes do reinício" })).status).toBe(200);
      expectAllConformant(before);
    } finally {
      await before.close();
    }
    expect(receiver.received).toHaveLength(0);

    const after = await startTestSandbox({ dataDir, allowPrivateWebhookTargets: true });
    try {
      expect((await after.b.get("/_sandbox/webhooks/endpoint")).json).toEqual({ url: receiver.url });
      const [delivery] = await receiver.waitFor(1);
      const event = await checkDelivery(delivery, after.sandbox.keys.webhookSecrets.primary, "boleto.canceled");
      expect((event.data as { transactionId: string }).transactionId).toBe(boletoId);
      await new Promise((done) => setTimeout(done, 300));
      expect(receiver.received).toHaveLength(1);
      expectAllConformant(after);
    } finally {
      await after.close();
    }
  });
});
