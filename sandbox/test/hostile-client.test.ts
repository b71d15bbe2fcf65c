/**
 * Issue #17, the sandbox under a hostile client: bounded work per request, no lost event, every
 * account stays usable. One case per rule; each failed before its fix.
 *
 * Name resolution is scripted (every sandbox here gets the resolver below through its webhook
 * options), so no test resolves a name on the network: every connection goes to 127.0.0.1.
 */
import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { createTargetGuard, type Resolver } from "../src/webhooks/target-guard.ts";
import { customerBody, freshKey, startTestSandbox, type TestSandbox } from "./support.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.ts";

/** Scripted answers of the resolver: per name, the next outcomes (addresses, or an error code). */
const dns = { answers: new Map<string, Array<string[] | string>>(), calls: [] as string[] };
const scriptedResolver: Resolver = async (host) => {
  dns.calls.push(host);
  const next = dns.answers.get(host)?.shift() ?? "ENOTFOUND";
  if (typeof next === "string") throw Object.assign(new Error(`getaddrinfo ${next} ${host}`), { code: next });
  return next;
};

// Windows are aligned to multiples of their length on the real clock: with an hour's window a
// test that spends one does not cross a boundary (which renews every count) halfway, even slowed down.
const SMALL_PLAN = { windowSeconds: 3600, general: 6, pixCreations: 6, transactionCreations: 6, queries: 6 };
const MIB = 1024 * 1024;

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
  dns.answers.clear();
  dns.calls.length = 0;
});

async function sandbox(options: Parameters<typeof startTestSandbox>[0] = {}): Promise<TestSandbox> {
  const t = await startTestSandbox({ ...options, webhooks: { resolve: scriptedResolver, ...options.webhooks } });
  opened.push(t);
  return t;
}

async function receiver(): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver();
  opened.push(r);
  return r;
}

async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Writes raw bytes on a new connection and returns everything the server answers. */
function rawExchange(url: string, bytes: string | Buffer, waitMs = 5_000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("no answer"));
    }, waitMs);
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString("utf8"));
    });
    socket.write(bytes);
  });
}

function parseRaw(text: string): { status: number; headers: Record<string, string>; body: any } {
  const [head, ...rest] = text.split("\r\n\r\n");
  const [statusLine, ...lines] = head.split("\r\n");
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
  return { status: Number(statusLine.split(" ")[1]), headers, body: JSON.parse(rest.join("\r\n")) };
}

/** A body of about 1 MiB that is valid for the boleto control except for its padding. */
function hugeBodies(): Record<string, string> {
  const size = MIB - 200;
  return {
    "one large array": `{"status":"REGISTERED","x":[${"0,".repeat(size / 2 - 20)}0]}`,
    "many small objects": `{"status":"REGISTERED","x":[${"{},".repeat(size / 3 - 20)}{}]}`,
    "many members": `{"status":"REGISTERED","x":{${Array.from({ length: 60_000 }, (_, i) => `"m${i}":1`).join(",")}}}`,
  };
}

describe("the sandbox under a hostile client (issue #17)", () => {
  it("1. refuses 1 MiB bodies of every hostile shape with a 400 (array sizes and values capped before any canonicalisation), stays usable for another account under ten of them, and rate-limits controls against the account", async () => {
    const t = await sandbox({ plan: { ...SMALL_PLAN, general: 1_000 } });
    const key = t.sandbox.keys.familyB.primary;
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(t.sandbox.url + path, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json", ...headers }, body });

    // Each shape is refused with the operation's 400 in the family's error body.
    for (const [shape, body] of Object.entries(hugeBodies())) {
      expect(body.length, shape).toBeLessThanOrEqual(MIB);
      const control = await post("/_sandbox/boletos", body);
      expect(control.status, shape).toBe(400);
      expect(await control.json(), shape).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR" } });
      const charge = await fetch(`${t.sandbox.url}/v1/charges`, {
        method: "POST",
        headers: { "x-api-key": t.sandbox.keys.familyA.primary, "content-type": "application/json", "Idempotency-Key": freshKey() },
        body: body.replace('"status":"REGISTERED"', '"amount":100,"method":"pix"'),
      });
      expect(charge.status, shape).toBe(400);
      expect(await charge.json(), shape).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    }

    // How long such a body blocks the event loop is a figure, not a test: the soak benchmark
    // (bench/soak-hostile.ts) prints a well-behaved client's latency under these bodies.

    // Ten such bodies in parallel leave another account usable.
    const flood = Array.from({ length: 10 }, () => post("/_sandbox/boletos", hugeBodies()["one large array"]).then((r) => r.status));
    const other = await fetch(`${t.sandbox.url}/v1/merchant`, { headers: { "x-api-key": t.sandbox.keys.familyA.secondAccount } });
    expect(other.status).toBe(200);
    expect(await Promise.all(flood)).toEqual(Array(10).fill(400));

    // Controls count against the account: a spent account gets 429 from a control too. The
    // base clock stands still, so no window boundary falls between the requests.
    const small = await sandbox({ plan: SMALL_PLAN, now: () => new Date("2026-11-21T14:30:10.250Z") });
    const client = small.client(small.sandbox.keys.familyB.rateLimits);
    for (let i = 0; i < SMALL_PLAN.general; i++) expect((await client.get("/_sandbox/clock")).status).toBe(200);
    const refused = await client.post("/_sandbox/boletos", { status: "REGISTERED" });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ success: false, error: { code: "RATE_LIMITED" } });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("2. reads at most a few KiB of a webhook receiver's answer, then stops reading", async () => {
    // The receiver answers 200, then a body that never ends: 64 KiB every 5 ms, for as long
    // as the connection stays open.
    let written = 0;
    let closed = false;
    const endless: Server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "application/octet-stream" });
      const chunk = Buffer.alloc(64 * 1024, 120);
      const timer = setInterval(() => {
        if (closed) return;
        res.write(chunk);
        written += chunk.length;
      }, 5);
      res.on("close", () => {
        closed = true;
        clearInterval(timer);
      });
    });
    await new Promise<void>((done) => endless.listen(0, "127.0.0.1", () => done()));
    opened.push({ close: () => new Promise<void>((done) => (endless.closeAllConnections(), endless.close(() => done()))) });
    const port = (endless.address() as { port: number }).port;

    const t = await sandbox({ webhooks: { retryDelaysMs: [60_000], timeoutMs: 3_000, jitter: 0 } });
    const created = await t.a.post("/v1/charges", { amount: 900, method: "pix", webhook_url: `http://127.0.0.1:${port}/hooks` }, { headers: { "Idempotency-Key": freshKey() } });
    expect((await t.a.post(`/_sandbox/charges/${created.json.id}/pay`)).status).toBe(200);
    await waitUntil("the attempt", () => t.sandbox.webhooks.attempts().length > 0);
    const [attempt] = t.sandbox.webhooks.attempts();
    expect(attempt).toMatchObject({ outcome: "delivered", detail: "HTTP 200" });
    await waitUntil("the receiver to see the connection closed", () => closed);
    // The sandbox dropped the connection after the first bytes, not at the attempt's timeout.
    expect(written).toBeLessThan(MIB);
  });

  it("3. runs rate-limit windows on real time: advancing an account's clock renews no window", async () => {
    const t = await sandbox({ plan: SMALL_PLAN });
    const client = t.client(t.sandbox.keys.familyB.rateLimits);
    for (let i = 0; i < SMALL_PLAN.general - 2; i++) expect((await client.get("/sdk/status/health")).status).toBe(200);
    expect((await client.post("/_sandbox/clock/advance", { seconds: 120 })).status).toBe(200);
    expect((await client.get("/sdk/status/health")).status).toBe(200);
    const refused = await client.get("/sdk/status/health");
    expect(refused.status).toBe(429);
    // The reset is on the real clock, within a window of now.
    const reset = Number(refused.headers.get("x-ratelimit-reset"));
    expect(reset * 1000).toBeGreaterThan(Date.now() - 1_000);
    expect(reset * 1000).toBeLessThanOrEqual(Date.now() + SMALL_PLAN.windowSeconds * 1000 + 1_000);
  });

  it("4. retries a delivery whose name does not resolve now (EAI_AGAIN, ENOTFOUND) on the normal schedule", async () => {
    const t = await sandbox({ allowPrivateWebhookTargets: false, webhooks: { retryDelaysMs: [50, 50, 50], jitter: 0 } });
    dns.answers.set("hooks.flaky.example", ["EAI_AGAIN", "ENOTFOUND", ["127.0.0.1"]]);
    const created = await t.a.post("/v1/charges", { amount: 901, method: "pix", webhook_url: "https://hooks.flaky.example/hooks" }, { headers: { "Idempotency-Key": freshKey() } });
    expect(created.status).toBe(201);
    expect((await t.a.post(`/_sandbox/charges/${created.json.id}/pay`)).status).toBe(200);
    await waitUntil("three attempts", () => t.sandbox.webhooks.attempts().length >= 3);
    const attempts = t.sandbox.webhooks.attempts().map((a) => ({ attempt: a.attempt, outcome: a.outcome }));
    // Two transient failures retried; the third attempt resolves to a loopback address: refused, never connected.
    expect(attempts).toEqual([
      { attempt: 1, outcome: "failed" },
      { attempt: 2, outcome: "failed" },
      { attempt: 3, outcome: "refused" },
    ]);
    expect(t.sandbox.webhooks.attempts()[0].detail).toMatch(/EAI_AGAIN/);
  });

  it("5. bounds clock advances to what RFC 3339 can write: a clear 400, never a 500, never a stored bad value", async () => {
    const t = await sandbox();
    const seen = new Set<number>();
    let last: { now: string; offsetSeconds: number } | undefined;
    for (let i = 0; i < 1_000; i++) {
      const res = await t.b.post("/_sandbox/clock/advance", { seconds: 315_360_000 });
      seen.add(res.status);
      if (res.status !== 200) {
        expect(res.status).toBe(400);
        expect(res.json).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR" } });
        break;
      }
      last = res.json;
    }
    expect([...seen].sort()).toEqual([200, 400]);
    const clock = await t.b.get("/_sandbox/clock");
    expect(clock.status).toBe(200);
    expect(clock.json).toEqual({ now: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/), offsetSeconds: last!.offsetSeconds });
    const health = await t.b.get("/sdk/status/health");
    expect(health.status).toBe(200);
    expect(health.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
    const pix = await t.b.post("/pix", { amount: 1 });
    expect(pix.status).toBe(201);
    expect(pix.json.timestamp).toMatch(/^9\d{3}-/);
  });

  it("6. refuses every non-public webhook target (ipaddr.js ranges) and connects to the address it checked", async () => {
    const guard = createTargetGuard(false);
    for (const url of [
      "http://[::127.0.0.1]/h",
      "http://[64:ff9b::7f00:1]/h",
      "http://[2002:7f00:1::]/h",
      "http://[fec0::1]/h",
      "http://192.0.2.10/h",
      "http://198.51.100.10/h",
      "http://203.0.113.10/h",
      "http://localhost./h",
      "http://LOCALHOST/h",
      "http://[::ffff:10.0.0.1]/h",
    ]) {
      expect(guard.urlProblem(url), url).not.toBeNull();
    }
    expect(guard.urlProblem("https://8.8.8.8/h")).toBeNull();
    expect(guard.urlProblem("https://[2606:4700::1]/h")).toBeNull();

    // Resolved once; the connection goes to that address, with the URL's Host.
    const r = await receiver();
    const port = new URL(r.url).port;
    dns.answers.set("hooks.rebind.example", [["127.0.0.1"], ["10.0.0.1"]]);
    const t = await sandbox({ allowPrivateWebhookTargets: true, webhooks: { retryDelaysMs: [60_000], jitter: 0 } });
    const created = await t.a.post("/v1/charges", { amount: 902, method: "pix", webhook_url: `http://hooks.rebind.example:${port}/hooks` }, { headers: { "Idempotency-Key": freshKey() } });
    expect((await t.a.post(`/_sandbox/charges/${created.json.id}/pay`)).status).toBe(200);
    const [delivery] = await r.waitFor(1);
    expect(delivery.headers.host).toBe(`hooks.rebind.example:${port}`);
    expect(dns.calls.filter((h) => h === "hooks.rebind.example")).toHaveLength(1);
  });

  it("7. keeps family B amounts to two decimals, exactly (D03)", async () => {
    const t = await sandbox();
    for (const amount of [10.000000001, 0.30000000000000004, 1.005]) {
      for (const path of ["/pix", "/transactions", "/_sandbox/boletos"]) {
        const body = path === "/_sandbox/boletos" ? { status: "REGISTERED", amount } : { amount };
        const res = await t.b.post(path, body);
        expect(res.status, `${path} ${amount}`).toBe(400);
        expect(res.json, `${path} ${amount}`).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR" } });
      }
    }
    // Two decimals pass, although 0.29 * 100 is not a whole number in floating point.
    for (const amount of [0.29, 0.3, 10, 1234.56]) {
      const res = await t.b.post("/transactions", { amount });
      expect(res.status, String(amount)).toBe(201);
      expect(res.json.data.amount).toBe(amount);
    }
  });

  it("8. refuses a leap-second date in the list filter with 400 instead of filtering out every record", async () => {
    const t = await sandbox();
    expect((await t.b.post("/transactions", { amount: 5 })).status).toBe(201);
    for (const query of ["startDate=2016-12-31T23:59:60Z", "endDate=2016-12-31T23:59:60.5Z"]) {
      const res = await t.b.get(`/transactions?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json, query).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR" } });
    }
    expect((await t.b.get("/transactions?startDate=2016-12-31T23:59:59Z")).json.data.total).toBe(1);
  });

  it("9. requires merchant:read for the webhook secret controls, and two rotations keep the secret before last signing", async () => {
    const t = await sandbox({ webhooks: { retryDelaysMs: [60_000], jitter: 0 } });
    const noScope = t.client(t.sandbox.keys.familyA.noMerchantRead);
    for (const [method, path] of [["GET", "/_sandbox/webhooks/secret"], ["POST", "/_sandbox/webhooks/secret/rotate"]] as const) {
      const res = await noScope.request(method, path);
      expect(res.status, path).toBe(403);
      expect(res.json).toMatchObject({ success: false, error: { code: "INSUFFICIENT_SCOPE" } });
    }
    const seeded = t.sandbox.keys.webhookSecrets.primary;
    expect((await t.a.get("/_sandbox/webhooks/secret")).json.secrets).toEqual([seeded]);

    const first = (await t.a.post("/_sandbox/webhooks/secret/rotate")).json;
    const second = (await t.a.post("/_sandbox/webhooks/secret/rotate")).json;
    expect(second.previous).toBe(first.current);
    expect((await t.a.get("/_sandbox/webhooks/secret")).json.secrets).toEqual([second.current, first.current, seeded]);

    const r = await receiver();
    const created = await t.a.post("/v1/charges", { amount: 903, method: "pix", webhook_url: r.url }, { headers: { "Idempotency-Key": freshKey() } });
    expect((await t.a.post(`/_sandbox/charges/${created.json.id}/pay`)).status).toBe(200);
    const [delivery] = await r.waitFor(1);
    for (const secret of [seeded, first.current, second.current]) {
      expect(() => new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>)).not.toThrow();
    }
    t.clients.forEach((c) => c.expectConformant());
  });

  it("10. keeps the customer invariant: the status control cannot leave a PENDING transaction on a deleted customer (409)", async () => {
    const t = await sandbox();
    const customer = await t.b.post("/api/v1/sdk/customers", customerBody("52998224725"));
    expect(customer.status).toBe(201);
    const customerId = customer.json.data.id;
    const transaction = await t.b.post("/transactions", { amount: 10, customerId });
    expect(transaction.status).toBe(201);
    const id = transaction.json.data.id;
    expect((await t.b.post(`/_sandbox/transactions/${id}/status`, { status: "COMPLETED" })).status).toBe(200);
    expect((await t.b.delete(`/api/sdk/customers/${customerId}`)).status).toBeLessThan(300);
    for (const status of ["PENDING", "PROCESSING"]) {
      const res = await t.b.post(`/_sandbox/transactions/${id}/status`, { status });
      expect(res.status, status).toBe(409);
      expect(res.json).toMatchObject({ success: false, error: { code: "INVALID_STATE" } });
    }
    expect((await t.b.get(`/transactions/${id}`)).json.data.status).toBe("COMPLETED");
    expect((await t.b.post(`/_sandbox/transactions/${id}/status`, { status: "FAILED" })).status).toBe(200);
  });

  it("11. counts a valid key of the other family, and /V1 paths, against the key's account", async () => {
    const t = await sandbox({ plan: SMALL_PLAN });
    const anonymous = t.client();
    for (let i = 0; i < SMALL_PLAN.general; i++) expect((await anonymous.get("/sdk/status/health", { key: null })).status).toBe(401);
    expect((await anonymous.get("/sdk/status/health", { key: null })).status).toBe(429);
    // A family A key on a family B path: 401 counted against its account, not the spent anonymous bucket.
    const wrongFamily = await anonymous.get("/sdk/status/health", { key: t.sandbox.keys.familyA.primary });
    expect(wrongFamily.status).toBe(401);
    expect(Number(wrongFamily.headers.get("x-ratelimit-remaining"))).toBe(SMALL_PLAN.general - 1);

    const spent = t.client(t.sandbox.keys.familyA.rateLimits);
    for (let i = 0; i < SMALL_PLAN.general; i++) expect((await spent.get("/v1/merchant")).status).toBe(200);
    const upper = await spent.get("/V1/merchant");
    expect(upper.status).toBe(429);
    expect(upper.json).toMatchObject({ status: 429, code: "RATE_LIMITED" });
  });

  it("12. answers the errors Node writes itself (431, 408, 400) in the family's error format", async () => {
    const t = await sandbox({ timeouts: { headersMs: 300, requestMs: 300, checkIntervalMs: 50 } });
    const tooLarge = parseRaw(await rawExchange(t.sandbox.url, `GET /v1/merchant HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(40_000)}\r\n\r\n`));
    expect(tooLarge.status).toBe(431);
    expect(tooLarge.body).toMatchObject({ status: 431, code: "REQUEST_HEADER_FIELDS_TOO_LARGE" });

    const badHeaderB = parseRaw(await rawExchange(t.sandbox.url, "GET /sdk/status/health HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n"));
    expect(badHeaderB.status).toBe(400);
    expect(badHeaderB.body).toMatchObject({ success: false, error: { code: "BAD_REQUEST" } });
    const badHeaderA = parseRaw(await rawExchange(t.sandbox.url, "GET /v1/merchant HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n"));
    expect(badHeaderA.headers["content-type"]).toBe("application/problem+json");
    expect(badHeaderA.body).toMatchObject({ status: 400, code: "BAD_REQUEST" });

    const garbage = parseRaw(await rawExchange(t.sandbox.url, "\u0001\u0002 nonsense\r\n\r\n"));
    expect(garbage.status).toBe(400);
    expect(garbage.body).toMatchObject({ status: 400, code: "BAD_REQUEST" });

    const slow = parseRaw(await rawExchange(t.sandbox.url, "GET /sdk/status/health HTTP/1.1\r\nHost: x\r\n"));
    expect(slow.status).toBe(408);
    expect(slow.body).toMatchObject({ code: "REQUEST_TIMEOUT" });
  });

  it("13. refuses every key-bearing query parameter, whatever its case, even next to a valid header", async () => {
    const t = await sandbox();
    for (const name of ["key", "access_token", "token", "api_key", "apikey", "x-api-key", "API_KEY", "Access-Token", "X_Api_Key", "auth", "apiKey"]) {
      const b = await t.b.get(`/sdk/status/health?${name}=x`);
      expect(b.status, name).toBe(401);
      const a = await t.a.get(`/v1/merchant?${name}=x`);
      expect(a.status, name).toBe(401);
    }
    expect((await t.b.get("/transactions?page=1&limit=5")).status).toBe(200);
  });

  it("14. counts Idempotency-Key length in characters, not bytes", async () => {
    const t = await sandbox();
    // What a client sends for a UTF-8 header value: the bytes, which Node reads as Latin-1.
    const utf8 = (text: string) => Buffer.from(text, "utf8").toString("latin1");
    const accepted = await t.a.post("/v1/charges", { amount: 904, method: "pix" }, { headers: { "Idempotency-Key": utf8("é".repeat(200)) } });
    expect(accepted.status).toBe(201);
    const tooLong = await t.a.post("/v1/charges", { amount: 904, method: "pix" }, { headers: { "Idempotency-Key": utf8("é".repeat(256)) } });
    expect(tooLong.status).toBe(400);
    const familyB = await t.b.post("/pix", { amount: 9.04 }, { headers: { "X-Idempotency-Key": utf8("ç".repeat(200)) } });
    expect(familyB.status).toBe(201);
  });

  it("writes one access-log line per request when asked (method, path, status, milliseconds, account)", async () => {
    const lines: string[] = [];
    const t = await sandbox({ accessLog: (line) => lines.push(line) });
    await t.b.get("/sdk/status/health?page=1");
    await t.a.get("/v1/merchant", { key: null });
    await waitUntil("two lines", () => lines.length >= 2);
    expect(lines[0]).toMatch(/^GET \/sdk\/status\/health 200 \d+\.\dms acc_1$/);
    expect(lines[1]).toMatch(/^GET \/v1\/merchant 401 \d+\.\dms -$/);
  });
});
