/**
 * Direct calls (no caller middleware: the client builds the request itself) and calls
 * through openapi-fetch give the same `{ data, error, response }` and send the same request.
 * Each case runs once on a client without middleware and once on a client with a middleware
 * that does nothing, against a scripted loopback server; openapi-fetch is wrapped to count
 * the calls that reach it, so each case also shows which path it took. The second half
 * shows which calls are left to openapi-fetch (anything a direct call would not handle the
 * same way) and that adding or removing middleware switches between the paths.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { components } from "../../generated/types/family-b.ts";
import { createChargesClient, createSdkClient, type SdkClient } from "../src/index.ts";
import { passThroughMiddleware } from "./support/call-paths.ts";
import { exampleOf } from "./support/contract-examples.ts";
import { startScriptedServer, type ScriptedAnswer, type ScriptedServer } from "./support/scripted-server.ts";

/** Calls that reached openapi-fetch's methods. */
const openapiFetchCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock("openapi-fetch", async (importOriginal) => {
  const original = await importOriginal<typeof import("openapi-fetch")>();
  const counted = (options: Parameters<typeof original.default>[0]) => {
    const client = original.default(options) as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const name of ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE", "request"]) {
      const call = client[name]!;
      client[name] = (...args) => {
        openapiFetchCalls.count += 1;
        return call(...args);
      };
    }
    return client;
  };
  return { ...original, default: counted };
});

const API_KEY = "pcs_test_direct_0001";
/** Both clients generate the same key, so the requests they send can be compared whole. */
const FIXED_KEY = "pix-2026-11-21-00001";
type Result = { data?: unknown; error?: unknown; response: Response };
type Call = (sdk: SdkClient) => Promise<Result>;

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

const sdkClient = (extra: { use?: boolean; headers?: Record<string, string> } = {}) => {
  const sdk = createSdkClient({ environment: server.url, apiKey: API_KEY, retry: false, idempotencyKey: () => FIXED_KEY, headers: extra.headers });
  if (extra.use) sdk.use(passThroughMiddleware);
  return sdk;
};

/** One call on one client: what the caller gets, what the server got, and whether openapi-fetch ran. */
async function observe(sdk: SdkClient, call: Call, answer: ScriptedAnswer) {
  server.reset();
  server.script(answer);
  const before = openapiFetchCalls.count;
  const result = await call(sdk);
  const { data, error, response } = result;
  return {
    outcome: { keys: Object.keys(result), data, error, status: response.status },
    sent: server.received.map(({ method, url, headers, body }) => ({ method, url, headers, body })),
    viaOpenapiFetch: openapiFetchCalls.count - before,
  };
}

/** The same call through both paths; asserts they agree and returns the direct one. */
async function bothPaths(call: Call, answer: ScriptedAnswer) {
  const direct = await observe(sdkClient(), call, answer);
  const through = await observe(sdkClient({ use: true }), call, answer);
  expect(direct.viaOpenapiFetch).toBe(0);
  expect(through.viaOpenapiFetch).toBe(1);
  expect(direct.outcome).toEqual(through.outcome);
  expect(direct.sent).toEqual(through.sent);
  return direct;
}

const envelope = (data: unknown) => ({ success: true, data, timestamp: "2026-11-21T12:00:00Z" });

describe("direct calls and openapi-fetch agree", () => {
  it("success with a JSON body", async () => {
    const { outcome } = await bothPaths((sdk) => sdk.GET("/sdk/status/health"), { status: 200, body: envelope({ status: "ok", version: "v1" }) });
    expect(outcome).toMatchObject({ status: 200, data: { data: { status: "ok" } } });
  });

  it("204 No Content: data undefined", async () => {
    const id = exampleOf("family-b", "deleteCustomer").params.path["id"]!;
    const { outcome } = await bothPaths((sdk) => sdk.DELETE("/api/sdk/customers/{id}", { params: { path: { id } } }), { status: 204 });
    expect(outcome).toEqual({ keys: ["data", "response"], data: undefined, error: undefined, status: 204 });
  });

  it("an error without a body (Content-Length: 0): error undefined", async () => {
    const { outcome } = await bothPaths((sdk) => sdk.GET("/sdk/status/health"), { status: 503, headers: { "content-length": "0" } });
    expect(outcome).toEqual({ keys: ["error", "response"], data: undefined, error: undefined, status: 503 });
  });

  it("an error with a JSON body: parsed", async () => {
    const body = { version: "1.0", status: "ERROR", error: { errorCode: "ODE001", message: "Boleto not found" } };
    const { outcome } = await bothPaths((sdk) => sdk.GET("/sdk/boleto/{boletoId}", { params: { path: { boletoId: "b-404" } } }), { status: 404, body });
    expect(outcome).toEqual({ keys: ["error", "response"], data: undefined, error: body, status: 404 });
  });

  it("an error whose body is not JSON: the raw text", async () => {
    const text = "<html><body>502 Bad Gateway</body></html>";
    const answer = { status: 502, headers: { "content-type": "text/html" }, text };
    const { outcome } = await bothPaths((sdk) => sdk.GET("/sdk/status/health"), answer);
    expect(outcome).toEqual({ keys: ["error", "response"], data: undefined, error: text, status: 502 });
  });

  it("a 2xx with an empty body: data undefined", async () => {
    const { outcome } = await bothPaths((sdk) => sdk.GET("/sdk/status/health"), { status: 200, text: "" });
    expect(outcome).toMatchObject({ keys: ["data", "response"], data: undefined, status: 200 });
  });

  it("query parameters of the contract (listTransactions), with characters that need encoding", async () => {
    const query = { ...exampleOf("family-b", "listTransactions").params.query, startDate: "2026-11-01T00:00:00+03:00", page: 2, limit: 50 };
    const { sent } = await bothPaths(
      (sdk) => sdk.GET("/transactions", { params: { query: query as { page?: number } } }),
      { status: 200, body: envelope({ items: [] }) },
    );
    expect(sent[0]!.url).toContain("startDate=2026-11-01T00%3A00%3A00%2B03%3A00");
    expect(sent[0]!.url).toContain("page=2&limit=50");
  });

  it("array and object query values, serialised by openapi-fetch's default rules", async () => {
    const query = { status: ["PENDING", "COMPLETED"], range: { from: "a b", to: "c&d" } };
    const { sent } = await bothPaths(
      (sdk) => sdk.request("get", "/transactions", { params: { query } } as never) as Promise<Result>,
      { status: 200, body: envelope({ items: [] }) },
    );
    expect(sent[0]!.url).toBe("/transactions?status=PENDING&status=COMPLETED&range[from]=a%20b&range[to]=c%26d");
  });

  it("path parameters that need encoding", async () => {
    const id = "a b/c?d#é%";
    const { sent } = await bothPaths(
      (sdk) => sdk.GET("/api/v1/sdk/customers/{id}", { params: { path: { id } } }),
      { status: 200, body: envelope({ id }) },
    );
    expect(sent[0]!.url).toBe(`/api/v1/sdk/customers/${encodeURIComponent(id)}`);
  });

  it("a JSON request body (createCustomer), with its content type", async () => {
    const body = exampleOf("family-b", "createCustomer").body as components["schemas"]["CustomerCreateRequest"];
    const { sent } = await bothPaths((sdk) => sdk.POST("/api/v1/sdk/customers", { body }), { status: 201, body: envelope(body) });
    expect(JSON.parse(sent[0]!.body)).toEqual(body);
    expect(sent[0]!.headers["content-type"]).toBe("application/json");
  });

  it("a keyed POST (/pix): the idempotency key in the headers, the caller's headers merged, the API key last", async () => {
    const body = exampleOf("family-b", "createPixCharge").body as components["schemas"]["PixChargeCreateRequest"];
    const { sent } = await bothPaths(
      (sdk) => sdk.POST("/pix", { body, headers: { "X-Trace": "t-1", "x-api-key": "not-the-key" } }),
      { status: 201, body: envelope({}) },
    );
    expect(sent[0]!.headers).toMatchObject({ "x-idempotency-key": FIXED_KEY, "x-trace": "t-1", "x-api-key": API_KEY });
  });

  it("parseAs text, and a HEAD request through `request`", async () => {
    const text = await bothPaths((sdk) => sdk.GET("/sdk/status/health", { parseAs: "text" }), { status: 200, body: { ok: true } });
    expect(text.outcome.data).toBe('{"ok":true}');
    const head = await bothPaths((sdk) => sdk.request("head", "/sdk/status/health" as never) as Promise<Result>, { status: 200, body: { ok: true } });
    expect(head.outcome).toMatchObject({ keys: ["data", "response"], data: undefined, status: 200 });
  });
});

describe("calls left to openapi-fetch", () => {
  /** Options a direct call does not handle the same way; the call must reach openapi-fetch. */
  const cases: Array<[string, Record<string, unknown>]> = [
    ["a per-call fetch", { fetch: async () => new Response('{"ok":true}') }],
    ["a per-call querySerializer", { querySerializer: () => "a=1" }],
    ["a per-call bodySerializer", { body: { a: 1 }, bodySerializer: (body: unknown) => JSON.stringify(body) }],
    ["per-call middleware", { middleware: [passThroughMiddleware] }],
    ["a per-call baseUrl", { baseUrl: "(the scripted server)" }],
    ["another RequestInit member", { redirect: "error" }],
    ["headers as a Headers object", { headers: new Headers({ "X-Trace": "t-1" }) }],
    ["a header set to null (removes it)", { headers: { "X-Trace": null } }],
    ["a header with a list of values", { headers: { "X-Trace": ["t-1", "t-2"] } }],
    ["a header value with padding", { headers: { "X-Trace": " t-1 " } }],
    ["a form-urlencoded body", { body: { a: "1" }, headers: { "Content-Type": "application/x-www-form-urlencoded" } }],
    ["a FormData body", { body: new FormData() }],
  ];

  it.each(cases)("%s", async (_name, options) => {
    const sdk = sdkClient();
    const before = openapiFetchCalls.count;
    const settings = options.baseUrl === undefined ? options : { ...options, baseUrl: server.url };
    const result = (await sdk.request("post", "/pix/query", settings as never)) as Result;
    expect(openapiFetchCalls.count - before).toBe(1);
    expect(result.response.status).toBe(200);
  });

  it("every call of a client whose own headers need a real Headers merge", async () => {
    const sdk = sdkClient({ headers: { "X-Client": " padded " } });
    const before = openapiFetchCalls.count;
    await sdk.GET("/sdk/status/health");
    expect(openapiFetchCalls.count - before).toBe(1);
    expect(server.received[0]?.headers["x-client"]).toBe("padded");
  });

  it("invalid headers still fail as openapi-fetch fails them (TypeError, nothing sent)", async () => {
    await expect(sdkClient().GET("/sdk/status/health", { headers: { "X-Trace": "a\nb" } })).rejects.toBeInstanceOf(TypeError);
    expect(server.received).toHaveLength(0);
  });
});

describe("middleware switches the path", () => {
  it("calls go through openapi-fetch while a middleware is registered, and direct again after eject", async () => {
    const charges = createChargesClient({ baseUrl: server.url, apiKey: "sk_live_direct_0001" });
    const count = async () => {
      const before = openapiFetchCalls.count;
      await charges.GET("/v1/merchant");
      return openapiFetchCalls.count - before;
    };
    expect(await count()).toBe(0);
    charges.use(passThroughMiddleware);
    expect(await count()).toBe(1);
    charges.eject(passThroughMiddleware);
    expect(await count()).toBe(0);
  });

  it("a middleware added before an invalid one stays registered, as openapi-fetch keeps it", async () => {
    const charges = createChargesClient({ baseUrl: server.url, apiKey: "sk_live_direct_0001" });
    expect(() => charges.use(passThroughMiddleware, {} as never)).toThrow(/Middleware must be an object/);
    const before = openapiFetchCalls.count;
    await charges.GET("/v1/merchant");
    expect(openapiFetchCalls.count - before).toBe(1);
  });
});
