/**
 * Caller's own middleware and fetch: openapi-fetch middleware added with `client.use` sees
 * the request with its idempotency key already set (the API key is added after all
 * middleware, at sending time) and may replace it with a real Request; a custom fetch is
 * called like `globalThis.fetch`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFamilyAClient, createFamilyBClient } from "../src/index.ts";
import { startScriptedServer, type ScriptedServer } from "./support/scripted-server.ts";

const API_KEY = "sk_live_middleware_0001";
let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer({ status: 201, body: { ok: true } });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

describe("caller middleware and fetch", () => {
  it("a caller's middleware sees the idempotency key the client set and can read the body", async () => {
    const familyA = createFamilyAClient({ baseUrl: server.url, apiKey: API_KEY });
    const seen: Array<{ idempotencyKey: string | null; body: unknown }> = [];
    familyA.use({
      async onRequest({ request }) {
        seen.push({ idempotencyKey: request.headers.get("Idempotency-Key"), body: await request.json() });
      },
    });
    await familyA.POST("/v1/charges", { body: { amount: 500, method: "pix" } });
    expect(seen).toEqual([{ idempotencyKey: expect.any(String), body: { amount: 500, method: "pix" } }]);
    expect(server.received[0]?.headers["idempotency-key"]).toBe(seen[0]?.idempotencyKey);
    expect(JSON.parse(server.received[0]!.body)).toEqual({ amount: 500, method: "pix" });
  });

  it("a caller's middleware may return a real Request, which is sent as it is", async () => {
    const familyB = createFamilyBClient({ environment: server.url, apiKey: API_KEY });
    familyB.use({
      onRequest({ request }) {
        return new Request(request.url, { method: request.method, headers: { "X-Trace": "t-1" } });
      },
    });
    await familyB.GET("/sdk/status/health");
    expect(server.received[0]?.headers["x-trace"]).toBe("t-1");
    expect(server.received[0]?.headers["x-api-key"]).toBe(API_KEY);
  });
});

describe("custom fetch", () => {
  it("a custom fetch is called as fetch(url, init) with the client's headers", async () => {
    const calls: Array<{ url: string; method: string | undefined; key: string | null }> = [];
    const familyB = createFamilyBClient({
      environment: "https://sdk.invalid",
      apiKey: API_KEY,
      fetch: async (input, init) => {
        calls.push({ url: String(input), method: init?.method, key: new Headers(init?.headers).get("X-API-Key") });
        return new Response(JSON.stringify({ success: true, data: { status: "ok", timestamp: "2026-11-21T00:00:00Z", version: "v1" } }), {
          headers: { "content-type": "application/json" },
        });
      },
    });
    const health = await familyB.unwrap(familyB.GET("/sdk/status/health"));
    expect(health.version).toBe("v1");
    expect(calls).toEqual([{ url: "https://sdk.invalid/sdk/status/health", method: "GET", key: API_KEY }]);
  });
});
