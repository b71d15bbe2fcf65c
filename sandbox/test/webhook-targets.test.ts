/**
 * The webhook target guard (sandbox/src/webhooks/target-guard.ts) at charge creation: loopback,
 * private and link-local targets are refused unless the sandbox allows private targets (tests,
 * local development); other schemes and URLs longer than 2048 characters always are.
 * Delivery itself (signing, retries, the outbox) is tested in webhook-outbox.test.ts and
 * webhook-e2e.test.ts, and by the conformance scenarios family-a/events/*.
 */
import { describe, expect, it } from "vitest";
import { expectAllConformant, freshKey, startTestSandbox } from "./support.ts";

describe("webhook targets", () => {
  it("refuses loopback and private addresses at charge creation unless allowed", async () => {
    const t = await startTestSandbox({ allowPrivateWebhookTargets: false });
    try {
      for (const url of ["http://127.0.0.1:9/hooks", "http://localhost:8080/hooks", "https://10.1.2.3/hooks", "http://[::1]/hooks", "http://169.254.169.254/latest"]) {
        const created = await t.a.post("/v1/charges", { amount: 700, method: "pix", webhook_url: url }, { headers: { "Idempotency-Key": freshKey() } });
        expect(created.status, url).toBe(400);
        expect(created.json.code).toBe("VALIDATION_ERROR");
      }
      // The refusal says how to allow it, for a receiver on the sandbox's own machine.
      const loopback = await t.a.post("/v1/charges", { amount: 700, method: "pix", webhook_url: "http://127.0.0.1:9/hooks" }, { headers: { "Idempotency-Key": freshKey() } });
      expect(loopback.json.detail).toBe("body/webhook_url: 127.0.0.1 is a non-public address: refused unless the sandbox runs with --allow-private-webhooks (SANDBOX_ALLOW_PRIVATE_WEBHOOKS=1)");
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
