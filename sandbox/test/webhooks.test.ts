/**
 * The `charge.paid` webhook (D24 to D26): sent to the charge's webhook_url when the payment
 * control pays it, signed per Standard Webhooks with the account's secret, retried with the
 * same webhook-id until a 2xx; loopback targets refused unless allowed.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAllConformant, freshKey, startTestSandbox, type TestSandbox } from "./support.ts";

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** Statuses the receiver answers, in order; 204 once exhausted. */
let script: number[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(script.shift() ?? 204).end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, "127.0.0.1", () => done()));
  const address = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hooks`;
});
afterAll(async () => {
  await new Promise<void>((done) => receiver.close(() => done()));
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe("charge.paid", () => {
  let t: TestSandbox;
  beforeAll(async () => {
    t = await startTestSandbox({ allowPrivateWebhookTargets: true, webhooks: { retryDelaysMs: [20, 20] } });
  });
  afterAll(async () => {
    expectAllConformant(t);
    await t.close();
  });

  it("is delivered, signed with the account's secret, carrying the paid charge", async () => {
    received.length = 0;
    const created = await t.a.post("/v1/charges", { amount: 500, method: "pix", webhook_url: receiverUrl }, { headers: { "Idempotency-Key": freshKey() } });
    const paid = await t.a.post(`/_sandbox/charges/${created.json.id}/pay`);
    await until(() => received.length > 0);
    expect(received).toHaveLength(1);
    const [delivery] = received;
    const payload = new Webhook(t.sandbox.keys.webhookSecrets.primary).verify(delivery.body, delivery.headers as Record<string, string>) as {
      type: string;
      timestamp: string;
      data: unknown;
    };
    expect(payload.type).toBe("charge.paid");
    expect(payload.data).toEqual(paid.json);
    expect(delivery.headers["content-type"]).toBe("application/json");
    expect(() => new Webhook(t.sandbox.keys.webhookSecrets.secondAccount).verify(delivery.body, delivery.headers as Record<string, string>)).toThrow();
  });

  it("is retried after a failure with the same webhook-id", async () => {
    received.length = 0;
    script = [500];
    const created = await t.a.post("/v1/charges", { amount: 600, method: "pix", webhook_url: receiverUrl }, { headers: { "Idempotency-Key": freshKey() } });
    await t.a.post(`/_sandbox/charges/${created.json.id}/pay`);
    await until(() => received.length >= 2);
    expect(received).toHaveLength(2);
    expect(received[1].headers["webhook-id"]).toBe(received[0].headers["webhook-id"]);
    const attempts = () => t.sandbox.webhooks.attempts().filter((a) => a.eventId === received[0].headers["webhook-id"]);
    await until(() => attempts().length >= 2);
    expect(attempts().map((a) => a.outcome)).toEqual(["failed", "delivered"]);
  });
});

describe("webhook targets", () => {
  it("refuses loopback and private addresses at charge creation unless allowed", async () => {
    const t = await startTestSandbox({ allowPrivateWebhookTargets: false });
    try {
      for (const url of [receiverUrl, "http://localhost:8080/hooks", "https://10.1.2.3/hooks", "http://[::1]/hooks", "http://169.254.169.254/latest"]) {
        const created = await t.a.post("/v1/charges", { amount: 700, method: "pix", webhook_url: url }, { headers: { "Idempotency-Key": freshKey() } });
        expect(created.status, url).toBe(400);
        expect(created.json.code).toBe("VALIDATION_ERROR");
      }
      const publicTarget = await t.a.post("/v1/charges", { amount: 700, method: "pix", webhook_url: "https://loja.example.com.br/webhooks" }, { headers: { "Idempotency-Key": freshKey() } });
      expect(publicTarget.status).toBe(201);
      expectAllConformant(t);
    } finally {
      await t.close();
    }
  });

  it("refuses other schemes and URLs longer than 2048 characters", async () => {
    const t = await startTestSandbox({ allowPrivateWebhookTargets: true });
    try {
      for (const url of ["ftp://example.com/hooks", `https://example.com/${"a".repeat(2048)}`]) {
        const created = await t.a.post("/v1/charges", { amount: 700, method: "pix", webhook_url: url }, { headers: { "Idempotency-Key": freshKey() } });
        expect(created.status, url.slice(0, 30)).toBe(400);
      }
      expectAllConformant(t);
    } finally {
      await t.close();
    }
  });
});
