/**
 * The console of the references in a real browser (Debian's Chromium driven by playwright-core):
 * the built portal served on localhost by `startPortal` next to the sandbox it starts (which
 * grants the portal's origin, decision D44), then what a reader does.
 *
 * - POST /v1/charges and POST /api/v1/sdk/customers (at both sizes below) sent from the console
 *   get their 2xx and "conforms to the contract", checked in the browser;
 * - sent to a broken server (a proxy in front of the sandbox that corrupts the BR Code's CRC),
 *   the console shows the violation with the statement it breaks;
 * - the page asks nothing of any host but the portal and the chosen server, the key is in no
 *   URL and in no storage (unless "remember for this tab" is ticked: then in sessionStorage
 *   only, and gone when unticked);
 * - opened from file://, the console says why it cannot send.
 *
 * - at a laptop's 1366x900 and at 1920x1080 the open console shares the width with the reference
 *   instead of lying over it: no decision badge of the operation is clipped or covered, the
 *   Console button covers no "Collapse all", after "Try it" the reference and the sidebar stay on
 *   the operation, and after Send the answer is in view;
 *
 * Screenshots of a console request, of a violation and of the console open at both sizes go to
 * reports/portal-console/.
 * Without Chromium the suite is skipped with a warning (under CI it fails instead).
 */
import { existsSync, mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPortal, type RunningPortal } from "../src/portal-command.ts";
import { buildFreshPortal, ROOT, type BuiltPortal } from "./support.ts";

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync"];
const SCREENSHOTS = join(ROOT, "reports", "portal-console");
const hasChromium = existsSync(CHROMIUM);

if (!hasChromium && !process.env.CI) console.warn(`\n#  SKIPPED: console browser tests (no Chromium at ${CHROMIUM})\n`);
if (!hasChromium && process.env.CI) {
  describe("console in a browser", () => {
    it("needs Chromium under CI", () => {
      expect.fail(`Chromium is required under CI at ${CHROMIUM}`);
    });
  });
}

/** A server that forwards everything to `target` and breaks the CRC of every `pix.br_code` it returns. */
async function brokenProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    // fetch sets the length itself: a forwarded Content-Length (0 on a preflight) is refused
    // when the process's fetch runs through the undici package's Agent, which the suites load.
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string" && name !== "host" && name !== "connection" && name !== "content-length") headers[name] = value;
    let upstream: Response;
    try {
      upstream = await fetch(`${target}${request.url}`, { method: request.method, headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined });
    } catch (error) {
      response.writeHead(502, { "content-type": "text/plain" });
      response.end(String(error));
      return;
    }
    let text = await upstream.text();
    try {
      const body = JSON.parse(text) as { pix?: { br_code?: string } };
      if (typeof body.pix?.br_code === "string") {
        const code = body.pix.br_code;
        body.pix.br_code = code.slice(0, -1) + (code.endsWith("0") ? "1" : "0");
        text = JSON.stringify(body);
      }
    } catch {
      /* not JSON: forwarded as it is */
    }
    const out: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (name !== "content-length" && name !== "content-encoding" && name !== "connection" && name !== "keep-alive") out[name] = value;
    });
    response.writeHead(upstream.status, out);
    response.end(text);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the proxy has no port");
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

describe.skipIf(!hasChromium)("console in a browser", () => {
  let built: BuiltPortal;
  let portal: RunningPortal;
  let proxy: Awaited<ReturnType<typeof brokenProxy>>;
  let browser: Browser;

  beforeAll(async () => {
    built = await buildFreshPortal();
    portal = await startPortal({ host: "127.0.0.1", port: 0, sandboxPort: 0, dir: built.dir, json: false });
    proxy = await brokenProxy(portal.server);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    await portal?.close();
    built?.remove();
  });

  interface Session {
    page: Page;
    requests: string[];
    errors: string[];
  }

  async function openReference(url: string, viewport = { width: 1500, height: 950 }): Promise<Session> {
    const page = await browser.newPage({ viewport });
    const session: Session = { page, requests: [], errors: [] };
    page.on("request", (request) => session.requests.push(request.url()));
    page.on("pageerror", (error) => session.errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") session.errors.push(message.text());
    });
    await page.goto(url);
    await page.waitForSelector('html[data-console-ready="yes"]', { timeout: 60_000 });
    return session;
  }

  /** Opens the console on an operation with its "Try it" button, and gives the key. */
  async function tryOperation(page: Page, operationId: string, key: string): Promise<void> {
    await page.locator(`button.console-try[data-operation="${operationId}"]`).click();
    await expect.poll(() => page.locator("#console-operation").inputValue()).toBe(operationId);
    await page.locator("#console-key").fill(key);
  }

  async function expectKeyNowhere(session: Session, key: string, allowedOrigins: string[]): Promise<void> {
    expect(session.requests.filter((url) => url.includes(key)), "requests with the key in their URL").toEqual([]);
    const outside = session.requests.filter((url) => !allowedOrigins.some((origin) => url.startsWith(origin)) && !url.startsWith("data:") && !url.startsWith("blob:"));
    expect(outside, "requests to another host").toEqual([]);
    const stored = await session.page.evaluate(() => [...Object.values(localStorage), ...Object.values(sessionStorage)].join("\n"));
    expect(stored.includes(key), "the key in web storage").toBe(false);
    expect(session.page.url().includes(key)).toBe(false);
  }

  function portalOrigin(): string {
    return portal.url.replace(/\/$/, "");
  }

  it("sends POST /v1/charges to the sandbox and shows that the answer conforms", async () => {
    const session = await openReference(`${portal.url}reference-family-a.html#tag/Charges/operation/createCharge`);
    const { page } = session;
    const key = await page.evaluate(() => (window as unknown as { PORTAL_CONSOLE_CONFIG: { sandboxKeys: Record<string, string> } }).PORTAL_CONSOLE_CONFIG.sandboxKeys["family-a"]!);
    await tryOperation(page, "createCharge", key);
    // The body starts from the contract's example; the curl shows the key as $API_KEY.
    expect(JSON.parse(await page.locator("#console-body").inputValue())).toHaveProperty("amount");
    const curl = await page.locator("#console-curl").innerText();
    expect(curl).toContain(`curl -X POST '${portal.server}/v1/charges'`);
    expect(curl).toContain('"x-api-key: $API_KEY"');
    expect(curl).not.toContain(key);

    await page.locator("#console-send").click();
    await page.waitForSelector("#console-outcome.console-conforms, #console-outcome.console-violates");
    expect(await page.locator("#console-outcome").innerText()).toContain("conforms to the contract");
    expect(await page.locator("#console-response").innerText()).toMatch(/^HTTP 201/);
    expect(await page.locator("#console-response").innerText()).toMatch(/x-ratelimit-remaining: \d+/);
    await page.locator("#console-outcome").evaluate((node) => node.scrollIntoView({ block: "center" }));
    await page.screenshot({ path: join(SCREENSHOTS, "console-createCharge.png") });

    await expectKeyNowhere(session, key, [portalOrigin(), portal.server]);
    expect(session.errors).toEqual([]);
    await page.close();
  });

  it("shows the violation of a broken server with the statement it breaks", async () => {
    const session = await openReference(`${portal.url}reference-family-a.html`);
    const { page } = session;
    const key = await page.evaluate(() => (window as unknown as { PORTAL_CONSOLE_CONFIG: { sandboxKeys: Record<string, string> } }).PORTAL_CONSOLE_CONFIG.sandboxKeys["family-a"]!);
    await tryOperation(page, "createCharge", key);
    await page.locator("#console-server").selectOption("other");
    await page.locator("#console-server-url").fill(proxy.url);
    // A new idempotency key: the proxy's sandbox has seen the example's already.
    await page.locator('#portal-console input[data-name="Idempotency-Key"]').fill(`console-violation-${Date.now()}`);
    await page.locator("#console-send").click();
    await page.waitForSelector("#console-outcome.console-conforms, #console-outcome.console-violates");
    const outcome = await page.locator("#console-outcome").innerText();
    expect(outcome).toContain("does not conform to the contract");
    expect(outcome).toContain("/pix/br_code");
    const statement = page.locator('#console-outcome a.console-id-statement:text-is("A-CHARGE-PRINCIPLE-br-code")');
    expect(await statement.count()).toBe(1);
    expect(await statement.getAttribute("href")).toBe("statements.html#A-CHARGE-PRINCIPLE-br-code");
    await page.locator("#console-outcome").evaluate((node) => node.scrollIntoView({ block: "center" }));
    await page.screenshot({ path: join(SCREENSHOTS, "console-violation.png") });

    await expectKeyNowhere(session, key, [portalOrigin(), proxy.url]);
    expect(session.errors).toEqual([]);
    await page.close();
  });

  /** What of the page a reader sees at a point: the element there, or null outside the viewport. */
  const seenAt = (page: Page, selector: string, index: number, where: "center" | "right") =>
    page.locator(selector).nth(index).evaluate((node, side) => {
      const box = node.getBoundingClientRect();
      const x = side === "center" ? box.left + box.width / 2 : box.right - 2;
      const hit = document.elementFromPoint(x, box.top + box.height / 2);
      return hit !== null && (hit === node || node.contains(hit));
    }, where);

  const intersects = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  for (const viewport of [{ width: 1366, height: 900 }, { width: 1920, height: 1080 }]) {
    const size = `${viewport.width}x${viewport.height}`;
    it(`at ${size}: sends POST /api/v1/sdk/customers, sharing the width, on the operation, the conforming answer in view`, async () => {
      const session = await openReference(`${portal.url}reference-family-b.html#tag/Customers/operation/createCustomer`, viewport);
      const { page } = session;
      const activeItem = () => page.locator(".menu-content li[data-item-id] > label.active").evaluateAll((labels) => labels.map((label) => label.parentElement!.getAttribute("data-item-id")));
      const key = await page.evaluate(() => (window as unknown as { PORTAL_CONSOLE_CONFIG: { sandboxKeys: Record<string, string> } }).PORTAL_CONSOLE_CONFIG.sandboxKeys["family-b"]!);
      await tryOperation(page, "createCustomer", key);

      // The reference ends where the panel starts.
      const panel = (await page.locator("#portal-console").boundingBox())!;
      const reference = (await page.locator("#redoc-container").boundingBox())!;
      expect(reference.x + reference.width).toBeLessThanOrEqual(panel.x + 1);
      // The reference and its sidebar are on the operation.
      await expect.poll(activeItem).toEqual(["tag/Customers/operation/createCustomer"]);
      const heading = (await page.locator('[id="operation/createCustomer"] h2').boundingBox())!;
      expect(heading.y).toBeGreaterThanOrEqual(52);
      expect(heading.y + heading.height).toBeLessThanOrEqual(viewport.height);
      // Every decision badge of the operation in view is seen whole: nothing lies over it.
      const badges = '[id="operation/createCustomer"] a.decision-badge';
      const inView = await page.locator(badges).evaluateAll((nodes, height) => nodes.map((node) => node.getBoundingClientRect()).map((box) => box.top >= 52 && box.bottom <= height), viewport.height);
      expect(inView.filter(Boolean).length).toBeGreaterThan(0);
      for (const [index, visible] of inView.entries()) {
        if (!visible) continue;
        expect(await seenAt(page, badges, index, "center"), `badge ${index} at its middle`).toBe(true);
        expect(await seenAt(page, badges, index, "right"), `badge ${index} at its right end`).toBe(true);
      }
      await page.screenshot({ path: join(SCREENSHOTS, `console-open-${size}.png`) });

      // After Send the answer is in view, and the sidebar still on the operation.
      await page.locator("#console-send").click();
      await page.waitForSelector("#console-outcome.console-conforms, #console-outcome.console-violates");
      expect(await page.locator("#console-outcome").innerText()).toContain("conforms to the contract");
      expect(await page.locator("#console-response").innerText()).toMatch(/^HTTP 2\d\d/);
      const answer = (await page.locator("#console-outcome").boundingBox())!;
      expect(answer.y).toBeGreaterThanOrEqual(52);
      expect(answer.y + answer.height).toBeLessThanOrEqual(viewport.height);
      expect(await seenAt(page, "#console-outcome", 0, "center")).toBe(true);
      expect(await activeItem()).toEqual(["tag/Customers/operation/createCustomer"]);
      await page.screenshot({ path: join(SCREENSHOTS, `console-answer-${size}.png`) });
      // The Console button covers no "Collapse all", each scrolled into view.
      const toggle = (await page.locator("#console-toggle").boundingBox())!;
      const collapse = page.locator('[id="operation/createCustomer"] button:text-is("Collapse all")');
      expect(await collapse.count()).toBeGreaterThan(0);
      for (let index = 0; index < (await collapse.count()); index++) {
        await collapse.nth(index).evaluate((node) => node.scrollIntoView({ block: "end" }));
        expect(intersects(toggle, (await collapse.nth(index).boundingBox())!), `"Collapse all" ${index} under the Console button`).toBe(false);
        expect(await seenAt(page, '[id="operation/createCustomer"] button:text-is("Collapse all")', index, "center")).toBe(true);
      }

      // Remembering is the reader's choice, for this tab only, and undone by unticking.
      await page.locator("#console-remember").check();
      expect(await page.evaluate(() => Object.values(sessionStorage).join("\n"))).toContain(key);
      expect(await page.evaluate(() => Object.values(localStorage).join("\n"))).not.toContain(key);
      await page.locator("#console-remember").uncheck();
      await expectKeyNowhere(session, key, [portalOrigin(), portal.server]);
      expect(session.errors).toEqual([]);
      await page.close();
    });
  }

  it("says why it cannot send when the portal is opened from file://", async () => {
    const page = await browser.newPage();
    const outside: string[] = [];
    page.on("request", (request) => {
      if (!/^(file|data|blob):/.test(request.url())) outside.push(request.url());
    });
    await page.goto(pathToFileURL(join(built.dir, "reference-family-a.html")).href);
    await page.waitForSelector('html[data-console-ready="yes"]', { timeout: 60_000 });
    await page.locator("#console-toggle").click();
    expect(await page.locator("#console-note").innerText()).toMatch(/file:\/\/.*http:\/\/localhost/s);
    expect(await page.locator("#console-send").isDisabled()).toBe(true);
    expect(outside).toEqual([]);
    await page.close();
  });
});
