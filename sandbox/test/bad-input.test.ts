/**
 * Property test: bad input never gets a 5xx. More than 5,000 requests derived from the
 * contract's schemas and examples (see bad-requests.ts) each get a 4xx in the error body the
 * contract documents for that operation and status (or, for a method the path does not
 * have, a 405 in the family's error body), and none of them writes anything: the account
 * they use holds no record and no idempotency key afterwards. Valid bodies with unknown
 * members are accepted (clients and servers ignore unknown fields).
 */
import { join } from "node:path";
import { sqliteDriver } from "../src/store/sqlite/driver.ts";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_FILE } from "../src/store/sqlite.ts";
import {
  bodyShapeMutations,
  contractOperations,
  headerMutations,
  methodMutations,
  oversizedBodies,
  pathMutations,
  queryMutations,
  schemaBodyMutations,
  structurallyLargeBodies,
  type BadRequest,
} from "./bad-requests.ts";
import { contractValidator, expectAllConformant, freshKey, startTestSandbox, type TestSandbox } from "./support.ts";

let t: TestSandbox;
let keys: { a: string; b: string };
const facts = contractOperations();
let sent = 0;

beforeAll(async () => {
  t = await startTestSandbox();
  // A dedicated account, so that "nothing was written" can be checked exactly.
  keys = { a: t.sandbox.keys.familyA.rateLimits, b: t.sandbox.keys.familyB.rateLimits };
});
afterAll(async () => {
  await t.close();
});

function surfaceOf(path: string): "A" | "B" | "controls" {
  if (path.startsWith("/v1")) return "A";
  if (path.startsWith("/_sandbox")) return "controls";
  return "B";
}

/** Whether a path is valid percent-encoding of UTF-8 text (D50 refuses the others). */
function decodes(path: string): boolean {
  try {
    decodeURIComponent(path.split("?")[0]);
    return true;
  } catch {
    return false;
  }
}

async function sendBad(request: BadRequest): Promise<void> {
  sent += 1;
  const res = await fetch(t.sandbox.url + request.path, { method: request.method, headers: request.headers, body: request.body });
  const text = await res.text();
  const label = `${request.kind} -> ${request.method} ${request.path.slice(0, 120)} ${res.status} ${text.slice(0, 300)}`;
  expect(res.status, label).toBeGreaterThanOrEqual(400);
  expect(res.status, label).toBeLessThan(500);
  if (!decodes(request.path)) {
    // D50: refused before any operation is found, in the body its path gives.
    expect(res.status, label).toBe(400);
    const body = JSON.parse(text);
    if (surfaceOf(request.path) === "A") expect(body, label).toMatchObject({ status: 400, code: "BAD_REQUEST" });
    else expect(body, label).toMatchObject({ success: false, error: { code: "BAD_REQUEST" } });
    return;
  }
  const check = contractValidator().validate({ method: request.method, url: request.path, status: res.status, headers: res.headers, body: text });
  if (check.operation) {
    expect(check.problems, label).toEqual([]);
    return;
  }
  // No documented operation: a method the path does not have.
  expect(res.status, label).toBe(405);
  expect(res.headers.get("allow"), label).toBeTruthy();
  const body = JSON.parse(text);
  if (surfaceOf(request.path) === "A") {
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(body, label).toMatchObject({ status: 405, code: "METHOD_NOT_ALLOWED" });
    expect(typeof body.type === "string" && typeof body.title === "string").toBe(true);
  } else {
    expect(body, label).toMatchObject({ success: false, error: { code: "METHOD_NOT_ALLOWED" } });
    expect(typeof body.error.message === "string" && typeof body.error.details === "string").toBe(true);
  }
}

const RUNS = {
  schemaBody: 2300,
  bodyShape: 900,
  oversized: 12,
  structure: 60,
  path: 900,
  query: 500,
  header: 300,
  method: 300,
};

describe("bad input", () => {
  it("gets a documented 4xx error body for body members that break the schema", async () => {
    await fc.assert(fc.asyncProperty(schemaBodyMutations(facts, keys), sendBad), { numRuns: RUNS.schemaBody });
  });

  it("gets a documented 4xx for bodies that are not a JSON object of the right media type or depth", async () => {
    await fc.assert(fc.asyncProperty(bodyShapeMutations(facts, keys), sendBad), { numRuns: RUNS.bodyShape });
    await fc.assert(fc.asyncProperty(oversizedBodies(facts, keys), sendBad), { numRuns: RUNS.oversized });
  });

  it("gets a documented 4xx for bodies with large arrays, deep objects or too many values", async () => {
    await fc.assert(fc.asyncProperty(structurallyLargeBodies(facts, keys), sendBad), { numRuns: RUNS.structure });
  });

  it("gets a documented 4xx for bad path ids", async () => {
    await fc.assert(fc.asyncProperty(pathMutations(facts, keys), sendBad), { numRuns: RUNS.path });
  });

  it("gets a documented 4xx for bad query parameters and idempotency keys", async () => {
    await fc.assert(fc.asyncProperty(queryMutations(facts, keys), sendBad), { numRuns: RUNS.query });
    await fc.assert(fc.asyncProperty(headerMutations(facts, keys), sendBad), { numRuns: RUNS.header });
  });

  it("gets 405 in the family's error body for methods a path does not have", async () => {
    await fc.assert(fc.asyncProperty(methodMutations(facts, keys), sendBad), { numRuns: RUNS.method });
  });

  it("sent more than 5,000 bad requests and none of them wrote anything", async () => {
    expect(sent).toBeGreaterThanOrEqual(5000);
    const db = sqliteDriver().open(join(t.dataDir, DATABASE_FILE));
    try {
      const records = db.prepare<{ n: number }>("SELECT COUNT(*) AS n FROM records WHERE account_id = 'acc_3'").get() as { n: number };
      const keysStored = db
        .prepare<{ n: number }>("SELECT COUNT(*) AS n FROM idempotency_keys WHERE scope IN ('key_a_rate_limits', 'key_b_rate_limits')")
        .get() as { n: number };
      const clock = db.prepare("SELECT COUNT(*) AS n FROM account_clocks WHERE account_id = 'acc_3'").get() as { n: number };
      expect({ records: records.n, idempotencyKeys: keysStored.n, clock: clock.n }).toEqual({ records: 0, idempotencyKeys: 0, clock: 0 });
    } finally {
      db.close();
    }
    console.log(`bad input: ${sent} requests, no 5xx, every error body as documented, nothing written`);
  });
});

describe("unknown members", () => {
  it("are ignored in otherwise valid bodies", async () => {
    const accepting: Array<{ path: string; body: Record<string, unknown>; headers?: () => Record<string, string>; key: string }> = [
      { path: "/v1/charges", body: { amount: 100, method: "pix" }, headers: () => ({ "Idempotency-Key": freshKey() }), key: t.sandbox.keys.familyA.primary },
      { path: "/pix", body: { amount: 10 }, key: t.sandbox.keys.familyB.primary },
      { path: "/transactions", body: { amount: 10 }, key: t.sandbox.keys.familyB.primary },
      { path: "/pix/query", body: { key: "joao.pereira@example.com.br" }, key: t.sandbox.keys.familyB.primary },
      { path: "/_sandbox/boletos", body: { status: "REGISTERED" }, key: t.sandbox.keys.familyB.primary },
    ];
    const extra = fc.dictionary(
      fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !["amount", "method", "key", "status", "description", "expiresIn", "expires_in", "reference", "webhook_url", "payer", "customerId", "externalReference", "amount", "duedate", "withPix", "__proto__"].includes(k)),
      fc.jsonValue({ maxDepth: 2 }),
      { minKeys: 1, maxKeys: 4 },
    );
    const client = t.client();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...accepting), extra, async (target, members) => {
        const res = await client.post(target.path, { ...members, ...target.body }, { key: target.key, headers: target.headers?.() });
        expect(res.status, `${target.path} ${JSON.stringify(members)} -> ${res.text.slice(0, 200)}`).toBeLessThan(300);
      }),
      { numRuns: 150 },
    );
    expectAllConformant(t);
  });
});
