/**
 * Rate-limit information after each call, and family B's environments: the default base
 * URLs are the OpenAPI server variable defaults (placeholders, decision D37).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFamilyAClient, createFamilyBClient, defaultFamilyABaseUrl, readRateLimit, resolveFamilyBBaseUrl, familyBEnvironmentUrls } from "../src/index.ts";
import { loadDocument } from "./support/contract-examples.ts";
import { startScriptedServer, type ScriptedServer } from "./support/scripted-server.ts";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer({ status: 200, body: { success: true, data: {}, timestamp: "2026-11-21T00:00:00Z" } });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

describe("rate-limit information", () => {
  it("is available after each call, from the latest response", async () => {
    const familyB = createFamilyBClient({ environment: server.url, apiKey: "pcs_test_rl" });
    server.script({ status: 200, headers: { "X-RateLimit-Limit": "100", "X-RateLimit-Remaining": "99", "X-RateLimit-Reset": "1800000060" }, body: {} });
    const first = await familyB.GET("/sdk/status/health");
    expect(familyB.rateLimit).toEqual({ limit: 100, remaining: 99, reset: 1800000060 });
    expect(readRateLimit(first.response)).toEqual(familyB.rateLimit);
    server.script({ status: 200, headers: { "X-RateLimit-Limit": "100", "X-RateLimit-Remaining": "98", "X-RateLimit-Reset": "1800000060" }, body: {} });
    await familyB.GET("/sdk/status/health");
    expect(familyB.rateLimit?.remaining).toBe(98);
    await familyB.GET("/sdk/status/health"); // no rate-limit headers
    expect(familyB.rateLimit).toBeUndefined();
  });

  it("travels with the typed error of a failed call", async () => {
    const familyA = createFamilyAClient({ baseUrl: server.url, apiKey: "sk_live_rl", retry: false });
    server.script({
      status: 429,
      headers: { "Retry-After": "12", "X-RateLimit-Limit": "30", "X-RateLimit-Remaining": "0", "content-type": "application/problem+json" },
      body: { type: "about:blank", title: "Too many requests", status: 429, code: "RATE_LIMITED" },
    });
    const error = await familyA.unwrap(familyA.POST("/v1/charges", { body: { amount: 1, method: "pix" } })).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "RATE_LIMITED", status: 429, rateLimit: { limit: 30, remaining: 0, retryAfter: 12 } });
  });
});

describe("family B environments", () => {
  const variables = () => {
    const defaults: Record<string, string> = {};
    for (const serverEntry of loadDocument("family-b").servers) {
      for (const [name, variable] of Object.entries<{ default: string }>(serverEntry.variables ?? {})) defaults[name] = variable.default;
    }
    return defaults;
  };

  it("sandbox and production default to the OpenAPI server variable defaults", () => {
    expect(familyBEnvironmentUrls).toEqual({ sandbox: variables()["sdk_sandbox_url"], production: variables()["sdk_base_url"] });
    expect(resolveFamilyBBaseUrl({ environment: "sandbox" })).toBe(variables()["sdk_sandbox_url"]);
    expect(resolveFamilyBBaseUrl({ environment: "production" })).toBe(variables()["sdk_base_url"]);
  });

  it("family A defaults to its server variable default", () => {
    const [serverEntry] = loadDocument("family-a").servers;
    expect(defaultFamilyABaseUrl).toBe(serverEntry.variables.base_url.default);
  });

  it("accepts overrides and a base URL, refuses anything else", () => {
    expect(resolveFamilyBBaseUrl({ environment: "sandbox", sandboxUrl: "https://sbx.example.org" })).toBe("https://sbx.example.org");
    expect(resolveFamilyBBaseUrl({ environment: "production", productionUrl: "https://api.example.org" })).toBe("https://api.example.org");
    expect(resolveFamilyBBaseUrl({ environment: "http://127.0.0.1:4010" })).toBe("http://127.0.0.1:4010");
    expect(() => resolveFamilyBBaseUrl({ environment: "staging" })).toThrow(TypeError);
    const familyAOptions = { baseUrl: "http://127.0.0.1:4010" } as unknown as { environment: string };
    expect(() => resolveFamilyBBaseUrl(familyAOptions)).toThrow(`got undefined (baseUrl is family A's option: give family B's base URL as environment: "http://127.0.0.1:4010")`);
  });

  it("sends the calls of a sandbox client to the sandbox URL", async () => {
    const familyB = createFamilyBClient({ environment: "sandbox", sandboxUrl: `${server.url}/sbx`, apiKey: "pcs_test_env" });
    await familyB.GET("/sdk/status/health");
    expect(server.received[0]?.url).toBe("/sbx/sdk/status/health");
  });
});
