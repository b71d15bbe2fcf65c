/**
 * The docs portal in a real browser (Debian's Chromium driven by playwright-core): a fresh
 * build served on 127.0.0.1, then what a reader does. Each reference renders every operation
 * of its OpenAPI document; the portal search finds error codes across references and pages;
 * the conformance guide link works; the site also works from file://; no page logs a console
 * error, fails a request or asks for anything outside the portal. Screenshots of each
 * reference are written to reports/docs/ for a human to look at.
 *
 * Without Chromium the suite is skipped with a loud warning; under CI it fails instead.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFreshPortal, expectedReferences, operationsOf, renderedOperationsOf, ROOT, serveStatic, type BuiltPortal, type StaticServer } from "./support.ts";

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-quic",
  "--no-first-run",
  "--disable-component-update",
  "--disable-sync",
];
const SCREENSHOTS = join(ROOT, "reports", "docs");
const hasChromium = existsSync(CHROMIUM);

if (!hasChromium && !process.env.CI) {
  console.warn(
    [
      "",
      "#".repeat(78),
      "#  SKIPPED: docs portal browser tests",
      `#  Chromium was not found at ${CHROMIUM}. Install Debian's chromium package to run them.`,
      "#  (Under CI this is a failure, not a skip.)",
      "#".repeat(78),
      "",
    ].join("\n"),
  );
}

if (!hasChromium && process.env.CI) {
  describe("docs portal in a browser", () => {
    it("needs Chromium under CI", () => {
      expect.fail(`Chromium is required under CI at ${CHROMIUM}; the docs portal browser tests cannot be skipped there`);
    });
  });
}

/** Everything that went wrong while a page was open. */
interface PageProblems {
  consoleErrors: string[];
  failedRequests: string[];
  outsideRequests: string[];
}

describe.skipIf(!hasChromium)("docs portal in a browser", () => {
  let portal: BuiltPortal;
  let server: StaticServer;
  let browser: Browser;
  const references = expectedReferences();

  beforeAll(async () => {
    portal = await buildFreshPortal();
    server = await serveStatic(portal.dir);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    portal?.remove();
  });

  /** Opens a page that records console errors, failed requests and requests leaving the portal. */
  async function open(url: string): Promise<{ page: Page; problems: PageProblems }> {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const problems: PageProblems = { consoleErrors: [], failedRequests: [], outsideRequests: [] };
    const portalOrigin = url.startsWith("file:") ? "file://" : server.origin;
    page.on("console", (message) => {
      if (message.type() === "error") problems.consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => problems.consoleErrors.push(`uncaught: ${error.message}`));
    page.on("requestfailed", (request) => problems.failedRequests.push(`${request.url()}: ${request.failure()?.errorText ?? "failed"}`));
    page.on("response", (response) => {
      if (response.status() >= 400) problems.failedRequests.push(`${response.url()}: HTTP ${response.status()}`);
    });
    page.on("request", (request) => {
      const target = request.url();
      if (!target.startsWith(portalOrigin) && !target.startsWith("data:") && !target.startsWith("blob:")) problems.outsideRequests.push(target);
    });
    await page.goto(url);
    return { page, problems };
  }

  async function closeClean(page: Page, problems: PageProblems): Promise<void> {
    await page.close();
    expect(problems.consoleErrors, "console errors").toEqual([]);
    expect(problems.failedRequests, "failed requests").toEqual([]);
    expect(problems.outsideRequests, "requests outside the portal").toEqual([]);
  }

  async function waitForReference(page: Page): Promise<void> {
    await page.waitForSelector('html[data-reference-ready="yes"]', { timeout: 30_000 });
  }

  it("finds the references to test (both families at least)", () => {
    expect(references.map((reference) => reference.id)).toEqual(expect.arrayContaining(["family-a", "family-b"]));
  });

  for (const reference of expectedReferences()) {
    it(`${reference.file} renders every operation of ${reference.id}`, async () => {
      const { page, problems } = await open(`${server.origin}/${reference.file}`);
      await waitForReference(page);
      const expected = renderedOperationsOf(reference.document);
      expect(expected.length).toBeGreaterThan(0);

      const rendered = await page.locator('[id^="operation/"]').evaluateAll((nodes) => nodes.map((node) => node.id.slice("operation/".length)));
      // Redoc may render a webhook under its tag and in its webhooks section: compare the sets.
      expect([...new Set(rendered)].sort()).toEqual(expected.map((operation) => operation.operationId).sort());
      for (const operation of expected) {
        const heading = page.locator(`[id="operation/${operation.operationId}"] h2`).first();
        // Redoc appends a "Webhook" badge to the heading of a webhook.
        await expect.poll(async () => (await heading.innerText()).replace(/\s*Webhook$/, "")).toBe(operation.summary);
      }

      await page.screenshot({ path: join(SCREENSHOTS, `${reference.id}.png`) });
      const first = expected[0]!;
      // The operation's top just under the portal header, with its code samples beside it.
      await page.locator(`[id="operation/${first.operationId}"]`).evaluate((node) => window.scrollTo(0, node.getBoundingClientRect().top + window.scrollY - 60));
      await page.screenshot({ path: join(SCREENSHOTS, `${reference.id}-${first.operationId}.png`) });
      await closeClean(page, problems);
    });
  }

  it("shows decision badges and both code samples on an operation", async () => {
    const { page, problems } = await open(`${server.origin}/reference-family-a.html#tag/Charges/operation/createCharge`);
    await waitForReference(page);
    const operation = page.locator('[id="operation/createCharge"]');
    await expect.poll(() => operation.locator("a.decision-badge").count()).toBeGreaterThan(0);
    const tabs = await operation.locator('[role="tab"]').allInnerTexts();
    expect(tabs).toEqual(expect.arrayContaining(["TypeScript client", "curl"]));
    await closeClean(page, problems);
  });

  for (const { query, referenceLink, pageLink } of [
    { query: "IDEMPOTENCY_KEY_REQUIRED", referenceLink: "reference-family-a.html#tag/Charges/operation/createCharge", pageLink: "index.html#" },
    { query: "ODE002", referenceLink: "reference-family-b.html#tag/Boletos/operation/cancelBoleto", pageLink: "decisions.html#" },
  ]) {
    it(`the portal search finds ${query} in the references and in the pages`, async () => {
      const { page, problems } = await open(`${server.origin}/index.html`);
      await page.locator(".portal-search-form input[name=q]").fill(query);
      await page.locator(".portal-search-form input[name=q]").press("Enter");
      await page.waitForURL(/search\.html\?q=/);
      await expect.poll(() => page.locator("#search-results li").count()).toBeGreaterThan(0);
      const links = await page.locator("#search-results li > a").evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute("href") ?? ""));
      expect(links).toContain(referenceLink);
      expect(links.some((link) => link.startsWith(pageLink))).toBe(true);
      const texts = await page.locator("#search-results li p").allInnerTexts();
      expect(texts.some((text) => text.includes(query))).toBe(true);

      // Following the hit into the reference lands on the operation.
      await page.locator(`#search-results li > a[href="${referenceLink}"]`).click();
      await waitForReference(page);
      const operationId = referenceLink.split("/operation/")[1]!;
      await expect.poll(() => page.locator(`[id="operation/${operationId}"]`).isVisible()).toBe(true);
      await closeClean(page, problems);
    });
  }

  it("Redoc's own search in a reference finds ODE002", async () => {
    const { page, problems } = await open(`${server.origin}/reference-family-b.html`);
    await waitForReference(page);
    await page.locator('input[placeholder="Search..."]').fill("ODE002");
    const hit = page.locator('[data-role="search:results"] li[data-item-id="tag/Boletos/operation/cancelBoleto"]');
    await expect.poll(() => hit.count()).toBe(1);
    await closeClean(page, problems);
  });

  it("following the conformance guide link works", async () => {
    const { page, problems } = await open(`${server.origin}/index.html`);
    const link = page.locator('.portal-sidenav a:text-is("Conformance guide")');
    const [response] = await Promise.all([page.waitForNavigation(), link.click()]);
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe("/conformance-guide.html");
    await expect.poll(() => page.locator("main h1").first().innerText()).toMatch(/conformance/i);

    // The overview's own link in its text leads to the same page.
    await page.goto(`${server.origin}/index.html`);
    const inText = page.locator('main a:text-is("conformance guide")').first();
    await Promise.all([page.waitForNavigation(), inText.click()]);
    expect(new URL(page.url()).pathname).toBe("/conformance-guide.html");
    await closeClean(page, problems);
  });

  it("works from the file system (file://) without any request outside the folder", async () => {
    const reference = await open(pathToFileURL(join(portal.dir, "reference-family-b.html")).href);
    await waitForReference(reference.page);
    const renderedIds = await reference.page.locator('[id^="operation/"]').evaluateAll((nodes) => nodes.map((node) => node.id));
    expect(new Set(renderedIds).size).toBe(renderedOperationsOf(references.find((entry) => entry.id === "family-b")!.document).length);
    await closeClean(reference.page, reference.problems);

    const search = await open(`${pathToFileURL(join(portal.dir, "search.html")).href}?q=ODE002`);
    await expect.poll(() => search.page.locator("#search-results li").count()).toBeGreaterThan(0);
    await closeClean(search.page, search.problems);
  });

  it("renders every project page without errors", async () => {
    for (const file of portal.report.pages.map((page) => page.file)) {
      const { page, problems } = await open(`${server.origin}/${file}`);
      if (file.startsWith("reference-")) await waitForReference(page);
      else await page.waitForLoadState("load");
      if (file === "index.html") await page.screenshot({ path: join(SCREENSHOTS, "index.png") });
      await closeClean(page, problems);
    }
  });
});
