/**
 * The API key travels in its header on every request and never in a URL: the client refuses
 * to send a request whose URL carries the key, and never echoes the key in the error.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiKeyInUrlError, createFamilyAClient, createFamilyBClient } from "../src/index.ts";
import { loadDocument } from "./support/contract-examples.ts";
import { startScriptedServer, type ScriptedServer } from "./support/scripted-server.ts";

const API_KEY = "sk_live_url_guard_0001";
let server: ScriptedServer;

beforeAll(async () => {
  server = await startScriptedServer({ status: 200, body: {} });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

/** The API key header name each family's security scheme declares. */
function apiKeyHeader(family: "family-a" | "family-b"): string {
  const schemes = Object.values<{ in: string; name: string }>(loadDocument(family).components.securitySchemes);
  return schemes.find((scheme) => scheme.in === "header")!.name.toLowerCase();
}

describe("API key handling", () => {
  it("sends the key in the family's header on every request, and in no URL", async () => {
    const familyA = createFamilyAClient({ baseUrl: server.url, apiKey: API_KEY });
    const familyB = createFamilyBClient({ environment: server.url, apiKey: API_KEY });
    await familyA.GET("/v1/merchant");
    await familyA.POST("/v1/charges", { body: { amount: 100, method: "pix" } });
    await familyB.GET("/sdk/status/health");
    await familyB.DELETE("/api/sdk/customers/{id}", { params: { path: { id: "3f2b8c1e-7d4a-4e9b-9c61-2a5d8e0f1b47" } } });
    await familyB.GET("/transactions", { params: { query: { page: 2, limit: 50 } } });
    expect(server.received).toHaveLength(5);
    const [a1, a2, ...b] = server.received;
    for (const request of [a1!, a2!]) expect(request.headers[apiKeyHeader("family-a")]).toBe(API_KEY);
    for (const request of b) expect(request.headers[apiKeyHeader("family-b")]).toBe(API_KEY);
    for (const request of server.received) expect(request.url).not.toContain(API_KEY);
  });

  it("a caller's header cannot replace the key", async () => {
    const familyB = createFamilyBClient({ environment: server.url, apiKey: API_KEY, headers: { "X-API-Key": "other" } });
    await familyB.GET("/sdk/status/health", { headers: { "X-API-Key": "another" } });
    expect(server.received[0]?.headers["x-api-key"]).toBe(API_KEY);
  });

  it("refuses a request whose path carries the key, with a typed error that does not repeat the key", async () => {
    const familyB = createFamilyBClient({ environment: server.url, apiKey: API_KEY });
    const error = await familyB.GET("/api/v1/sdk/customers/{id}", { params: { path: { id: API_KEY } } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiKeyInUrlError);
    expect((error as ApiKeyInUrlError).message).not.toContain(API_KEY);
    expect((error as ApiKeyInUrlError).url).toContain("[redacted]");
    expect(server.received).toHaveLength(0);
  });

  it("refuses a request whose query carries the key, raw or percent-encoded", async () => {
    const key = "pcs_test_a/b+c=d";
    const familyB = createFamilyBClient({ environment: server.url, apiKey: key });
    await expect(familyB.GET("/transactions", { params: { query: { startDate: key } } })).rejects.toBeInstanceOf(ApiKeyInUrlError);
    await expect(familyB.GET("/transactions", { querySerializer: () => `api_key=${key}` })).rejects.toBeInstanceOf(ApiKeyInUrlError);
    expect(server.received).toHaveLength(0);
  });

  it("checks the request as sent: a caller middleware can neither drop the header nor put the key in the URL", async () => {
    const familyB = createFamilyBClient({ environment: server.url, apiKey: API_KEY });
    familyB.use({
      onRequest({ request }) {
        request.headers.delete("X-API-Key");
      },
    });
    await familyB.GET("/sdk/status/health");
    expect(server.received[0]?.headers["x-api-key"]).toBe(API_KEY);
    const leaking = createFamilyBClient({ environment: server.url, apiKey: API_KEY });
    leaking.use({
      onRequest({ request }) {
        return new Request(`${request.url}?api_key=${API_KEY}`, { headers: request.headers });
      },
    });
    await expect(leaking.GET("/sdk/status/health")).rejects.toBeInstanceOf(ApiKeyInUrlError);
    expect(server.received).toHaveLength(1);
  });

  it("refuses a base URL that carries the key when the client is created", () => {
    expect(() => createFamilyAClient({ baseUrl: `${server.url}/?key=${API_KEY}`, apiKey: API_KEY })).toThrow(ApiKeyInUrlError);
  });

  it("refuses an empty key", () => {
    expect(() => createFamilyAClient({ baseUrl: server.url, apiKey: "" })).toThrow(TypeError);
  });
});
