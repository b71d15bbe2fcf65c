/**
 * A HAR recorded by a real browser (Debian's Chromium driven by playwright-core's recordHar):
 * a page on the sandbox's origin calls both families with fetch. The recording is clean; a
 * hand-edited copy with a broken br_code and an undocumented query parameter shows both, each
 * with its statement id.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTemporarySandbox, type TemporarySandbox } from "@payment-collection/sandbox/harness/temporary-sandbox.ts";
import { findOperation, loadFamilyContract } from "@payment-collection/contract/model/index.ts";
import { loadCatalogue } from "../../src/core/statement-map.ts";
import { TrafficEngine, violationLine } from "../../src/traffic/engine.ts";
import { familyRoutes } from "../../src/traffic/routing.ts";
import { checkHar } from "../../src/traffic/har-check.ts";

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);

/** The page: calls of a client application, one after the other; `window.done` when finished. */
function page(sandbox: TemporarySandbox): string {
  const calls = {
    a: sandbox.target.familyA.keys.primary,
    b: sandbox.target.familyB.keys.primary,
    charge: findOperation(loadFamilyContract("family-a"), "createCharge").requestBody!.example,
    customer: { ...(findOperation(loadFamilyContract("family-b"), "createCustomer").requestBody!.example as object), email: `browser-${Date.now()}@example.com` },
    boleto: (sandbox.target.familyB.fixtures.registeredBoletoIds as string[])[0],
  };
  return `<!doctype html><html><body><script>
const c = ${JSON.stringify(calls)};
const json = (r) => r.json();
(async () => {
  const a = { "x-api-key": c.a };
  const b = { "X-API-Key": c.b };
  const charge = await fetch("/v1/charges", { method: "POST", headers: { ...a, "Idempotency-Key": "browser-" + Date.now(), "content-type": "application/json" }, body: JSON.stringify(c.charge) }).then(json);
  await fetch("/v1/charges/" + charge.id, { headers: a }).then(json);
  await fetch("/v1/merchant", { headers: a }).then(json);
  await fetch("/sdk/status/health", { headers: b }).then(json);
  const customer = await fetch("/api/v1/sdk/customers", { method: "POST", headers: { ...b, "content-type": "application/json" }, body: JSON.stringify(c.customer) }).then(json);
  await fetch("/api/v1/sdk/customers/" + customer.data.id, { headers: b }).then(json);
  await fetch("/sdk/boleto/" + c.boleto, { headers: b }).then(json);
  window.done = true;
})().catch((e) => { window.done = String(e); });
</script></body></html>`;
}

describe.skipIf(!hasChromium)("a HAR recorded in Chromium", () => {
  let sandbox: TemporarySandbox;
  let dir: string;
  let harFile: string;

  beforeAll(async () => {
    sandbox = await startTemporarySandbox({ plan: "generous" });
    dir = mkdtempSync(join(tmpdir(), "har-chromium-"));
    harFile = join(dir, "session.har");
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"] });
    try {
      const context = await browser.newContext({ recordHar: { path: harFile, content: "embed", urlFilter: /\/(v1|sdk|api)\// } });
      const tab = await context.newPage();
      // The page is served on the sandbox's origin, so that its calls are same-origin.
      await tab.route(`${sandbox.url}/app/`, (route) => route.fulfill({ contentType: "text/html", body: page(sandbox) }));
      await tab.goto(`${sandbox.url}/app/`);
      await tab.waitForFunction(() => (window as unknown as { done?: unknown }).done !== undefined, undefined, { timeout: 30_000 });
      expect(await tab.evaluate(() => (window as unknown as { done?: unknown }).done)).toBe(true);
      await context.close();
    } finally {
      await browser.close();
    }
  }, 90_000);
  afterAll(async () => {
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const check = async (file: string) => {
    const engine = new TrafficEngine({ profile: "seed", routes: familyRoutes({ "family-a": [sandbox.url], "family-b": [sandbox.url] }) });
    await checkHar(file, engine, 1024 * 1024);
    return engine.summary();
  };

  it("is clean", async () => {
    const summary = await check(harFile);
    expect(summary.exchanges).toBe(7);
    expect(summary.violations.map(violationLine)).toEqual([]);
    expect(summary.consumerFindings.map(violationLine)).toEqual([]);
    expect(summary.coverage.responses.seen).toBe(7);
  });

  it("shows a broken br_code and an undocumented query parameter in a hand-edited copy, with their statement ids", async () => {
    const har = JSON.parse(readFileSync(harFile, "utf8"));
    const entries = har.log.entries as Array<{ request: { method: string; url: string }; response: { content: { text: string; encoding?: string } } }>;
    const creation = entries.find((e) => e.request.method === "POST" && e.request.url.endsWith("/v1/charges"))!;
    const text = creation.response.content.encoding === "base64" ? Buffer.from(creation.response.content.text, "base64").toString("utf8") : creation.response.content.text;
    const body = JSON.parse(text);
    body.pix.br_code = body.pix.br_code.replace(/.$/, (c: string) => (c === "0" ? "1" : "0"));
    creation.response.content = { ...creation.response.content, text: JSON.stringify(body), encoding: undefined } as never;
    const read = entries.find((e) => e.request.method === "GET" && /\/v1\/charges\//.test(e.request.url))!;
    read.request.url += "?include=payer";
    const edited = join(dir, "edited.har");
    writeFileSync(edited, JSON.stringify(har));
    const summary = await check(edited);
    const catalogue = loadCatalogue();
    expect(summary.violations).toHaveLength(1);
    expect(summary.violations[0]).toMatchObject({ operationId: "createCharge", naming: { kind: "statement" } });
    expect(catalogue.byId.get(summary.violations[0]!.naming.id)?.quote).toContain("br_code");
    expect(summary.consumerFindings).toMatchObject([{ operationId: "getCharge", naming: { id: "A-CHARGES-ENDPOINT-get" }, seen: "include=payer" }]);
  });
});
