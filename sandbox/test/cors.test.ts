/**
 * Cross-origin access (decision D44): a page of a granted origin (the docs portal's console)
 * may call the sandbox from a browser with the keys and idempotency headers, and read the
 * rate-limit and replay headers; a page of any other origin gets no grant. Also the command
 * line: `--cors-origin` is repeatable and refuses what is not an origin.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxOptions } from "../src/cli.ts";
import { startTemporarySandbox, TEST_CORS_ORIGINS } from "../src/harness/temporary-sandbox.ts";
import { startTestSandbox, type TestSandbox } from "./support.ts";

const PORTAL = "http://localhost:8080";
const OTHER = "http://evil.example";

let t: TestSandbox;

beforeAll(async () => {
  t = await startTestSandbox({ corsOrigins: [PORTAL, "http://127.0.0.1:9000"] });
});
afterAll(async () => {
  await t?.close();
});

function preflight(origin: string, method: string, path: string, headers: string): Promise<Response> {
  return fetch(`${t.sandbox.url}${path}`, {
    method: "OPTIONS",
    headers: { Origin: origin, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers },
  });
}

function listed(value: string | null): string[] {
  return (value ?? "").split(",").map((name) => name.trim().toLowerCase()).filter(Boolean);
}

describe("CORS preflight (D44)", () => {
  it("grants a configured origin the key, idempotency and body headers", async () => {
    const family = await preflight(PORTAL, "POST", "/v1/charges", "x-api-key, idempotency-key, content-type");
    expect(family.status).toBe(204);
    expect(family.headers.get("access-control-allow-origin")).toBe(PORTAL);
    expect(listed(family.headers.get("access-control-allow-methods"))).toEqual(expect.arrayContaining(["get", "post", "delete"]));
    expect(listed(family.headers.get("access-control-allow-headers"))).toEqual(
      expect.arrayContaining(["x-api-key", "idempotency-key", "x-idempotency-key", "content-type"]),
    );
    expect(family.headers.get("access-control-max-age")).toMatch(/^\d+$/);
    expect(family.headers.get("vary")).toMatch(/origin/i);

    const sdk = await preflight("http://127.0.0.1:9000", "POST", "/api/v1/sdk/customers", "x-api-key, x-idempotency-key, content-type");
    expect(sdk.status).toBe(204);
    expect(sdk.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:9000");
  });

  it("grants no other origin", async () => {
    const refused = await preflight(OTHER, "POST", "/v1/charges", "x-api-key, content-type");
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    expect(refused.headers.get("access-control-allow-headers")).toBeNull();
    expect(refused.status).toBeGreaterThanOrEqual(400);
    // A port is part of the origin: the portal's host on another port is another origin.
    const otherPort = await preflight("http://localhost:8081", "GET", "/v1/merchant", "x-api-key");
    expect(otherPort.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("lets a granted origin read the rate-limit and replay headers of the real request", async () => {
    const headers = { Origin: PORTAL, "x-api-key": t.sandbox.keys.familyA.primary, "content-type": "application/json", "Idempotency-Key": crypto.randomUUID() };
    const response = await fetch(`${t.sandbox.url}/v1/charges`, { method: "POST", headers, body: JSON.stringify({ amount: 1990, method: "pix" }) });
    expect(response.status).toBe(201);
    expect(response.headers.get("access-control-allow-origin")).toBe(PORTAL);
    expect(listed(response.headers.get("access-control-expose-headers"))).toEqual(
      expect.arrayContaining(["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "retry-after", "idempotent-replayed"]),
    );
    const other = await fetch(`${t.sandbox.url}/v1/merchant`, { headers: { Origin: OTHER, "x-api-key": t.sandbox.keys.familyA.primary } });
    expect(other.status).toBe(200);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    expect(other.headers.get("access-control-expose-headers")).toBeNull();
  });
});

describe("a temporary sandbox (npm start, the self-test, the mutation run)", () => {
  it("grants the origins its conformance target declares for both families", async () => {
    const temporary = await startTemporarySandbox({ registeredBoletos: 1 });
    try {
      expect(temporary.target.familyA.cors).toEqual({ origins: [...TEST_CORS_ORIGINS] });
      expect(temporary.target.familyB.cors).toEqual({ origins: [...TEST_CORS_ORIGINS] });
      for (const origin of TEST_CORS_ORIGINS) {
        const answer = await fetch(`${temporary.url}/v1/merchant`, { method: "OPTIONS", headers: { Origin: origin, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-api-key" } });
        expect([answer.status, answer.headers.get("access-control-allow-origin")]).toEqual([204, origin]);
      }
    } finally {
      await temporary.close();
    }
  });
});

describe("--cors-origin", () => {
  it("is repeatable and normalises each origin", () => {
    const options = sandboxOptions(["--cors-origin", "http://localhost:8080/", "--cors-origin", "https://Docs.Example.com"], {});
    if (typeof options === "number") throw new Error(`refused with exit ${options}`);
    expect(options.corsOrigins).toEqual(["http://localhost:8080", "https://docs.example.com"]);
  });

  it("refuses what is not an origin with exit 2", () => {
    for (const bad of ["localhost:8080", "http://localhost:8080/docs", "file:///tmp/portal", "*"]) {
      expect(sandboxOptions(["--cors-origin", bad], {}), bad).toBe(2);
    }
  });
});
