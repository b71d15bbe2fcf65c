/**
 * The built portal without a browser: it is self-contained (no script, style, image or font
 * from outside the folder), every operation carries derived code samples, every decided
 * element of the contract shows its decision badge, the search index reaches error codes,
 * and missing sources do not break the build.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, cpSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectDecisionMarkings } from "@payment-collection/contract/decisions.ts";
import { buildPortal } from "../src/site.ts";
import { buildFreshPortal, expectedReferences, operationsOf, ROOT, type BuiltPortal } from "./support.ts";

type Json = Record<string, unknown>;

let portal: BuiltPortal;

beforeAll(async () => {
  portal = await buildFreshPortal();
});

afterAll(() => portal?.remove());

function filesOf(folder: string, prefix = ""): string[] {
  return readdirSync(join(folder, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesOf(folder, posix.join(prefix, entry.name)) : [posix.join(prefix, entry.name)],
  );
}

/** The decorated document a reference page embeds. */
function embeddedReference(file: string): { openapi: Json; downloads: Array<{ url: string }> } {
  const script = readFileSync(join(portal.dir, file), "utf8");
  return JSON.parse(script.replace(/^window\.PORTAL_REFERENCE = /, "").replace(/;\s*$/, "")) as { openapi: Json; downloads: Array<{ url: string }> };
}

function at(document: unknown, pointer: string): unknown {
  return pointer
    .split("/")
    .slice(1)
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
}

describe("the built portal is self-contained (works offline)", () => {
  it("loads every script, stylesheet, icon and image from inside the folder", () => {
    const resourceAttribute = /<(script|link|img|iframe|source|audio|video|embed)\b[^>]*?\b(src|href)="([^"]*)"/gi;
    const htmlFiles = filesOf(portal.dir).filter((file) => file.endsWith(".html"));
    expect(htmlFiles.length).toBeGreaterThan(5);
    for (const file of htmlFiles) {
      const html = readFileSync(join(portal.dir, file), "utf8");
      for (const match of html.matchAll(resourceAttribute)) {
        const url = match[3]!;
        expect(url, `${file}: <${match[1]} ${match[2]}="${url}">`).not.toMatch(/^([a-z][a-z0-9+.-]*:|\/\/)/i);
        expect(existsSync(join(portal.dir, dirname(file), url.split(/[?#]/)[0]!)), `${file} loads ${url}, which is not in the portal`).toBe(true);
      }
      expect(html, `${file} imports a remote stylesheet`).not.toMatch(/@import\s+(url\()?["']?(https?:)?\/\//i);
    }
  });

  it("has no remote URL in stylesheets, and no remote resource in its scripts", () => {
    for (const file of filesOf(portal.dir).filter((name) => name.endsWith(".css"))) {
      const css = readFileSync(join(portal.dir, file), "utf8");
      expect(css, file).not.toMatch(/url\(\s*["']?(https?:)?\/\//i);
      expect(css, file).not.toMatch(/@import/i);
    }
    // A remote script, style, font or image named in a script would be fetched at run time
    // (Redoc's bundle names its logo on a CDN; the build replaces it).
    const remoteResource = /["'`](https?:)?\/\/[^"'`\s]+\.(js|mjs|css|svg|png|jpe?g|gif|webp|woff2?|ttf|otf)(\?[^"'`]*)?["'`]/i;
    for (const file of filesOf(portal.dir).filter((name) => name.endsWith(".js"))) {
      const match = readFileSync(join(portal.dir, file), "utf8").match(remoteResource);
      expect(match?.[0], `${file} names a remote resource`).toBeUndefined();
    }
  });
});

describe("links between pages", () => {
  it("lead to files of the portal and to anchors that exist (Redoc anchors excepted)", () => {
    const pages = filesOf(portal.dir).filter((file) => file.endsWith(".html"));
    const ids = new Map(pages.map((file) => [file, new Set([...readFileSync(join(portal.dir, file), "utf8").matchAll(/\bid="([^"]+)"/g)].map((match) => match[1]!))]));
    const broken: string[] = [];
    for (const file of pages) {
      const html = readFileSync(join(portal.dir, file), "utf8");
      for (const match of html.matchAll(/<a\b[^>]*\bhref="([^"]*)"/g)) {
        const href = match[1]!.replace(/&amp;/g, "&");
        if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(href)) continue; // external links are plain links, never loaded
        const [path, fragment] = href.split("#") as [string, string | undefined];
        const target = path === "" ? file : posix.normalize(posix.join(posix.dirname(file), path.split("?")[0]!));
        if (!existsSync(join(portal.dir, target))) {
          broken.push(`${file} -> ${href}`);
          continue;
        }
        // Reference pages get their anchors from Redoc at run time (checked in the browser test).
        if (fragment && target.endsWith(".html") && !target.startsWith("reference-") && !ids.get(target)?.has(decodeURIComponent(fragment))) {
          broken.push(`${file} -> ${href} (no such anchor)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});

describe("the references", () => {
  for (const reference of expectedReferences()) {
    describe(reference.id, () => {
      it("embeds every operation of the generated document, each with code samples derived from it", () => {
        const { openapi } = embeddedReference(`openapi/${reference.id}.portal.js`);
        const operations = operationsOf(reference.document);
        expect(operationsOf(openapi).map((operation) => operation.operationId)).toEqual(operations.map((operation) => operation.operationId));
        for (const operation of operations) {
          const decorated = (openapi.paths as Record<string, Record<string, Json>>)[operation.path]![operation.method]!;
          const samples = decorated["x-codeSamples"] as Array<{ label: string; source: string }>;
          const curl = samples.find((sample) => sample.label === "curl");
          expect(curl?.source, `${operation.operationId}: curl`).toMatch(new RegExp(`^curl -X ${operation.method.toUpperCase()} '`));
          // The path with its parameters filled from the examples.
          const literalParts = operation.path.split(/\{[^}]+\}/);
          for (const part of literalParts) expect(curl!.source).toContain(part);
          const client = samples.find((sample) => sample.label === "TypeScript client");
          if (reference.id.startsWith("family-")) {
            expect(client?.source, `${operation.operationId}: client sample`).toContain(`.${operation.method.toUpperCase()}(${JSON.stringify(operation.path)}`);
          }
        }
      });

      it("shows a decision badge on every element the contract marks as decided", () => {
        const { openapi } = embeddedReference(`openapi/${reference.id}.portal.js`);
        const markings = collectDecisionMarkings(reference.document);
        for (const marking of markings) {
          const badge = `Project decision ${marking.decision}`;
          const holder = at(openapi, marking.pointer) as Json;
          if (marking.extension === "x-decided-responses") {
            const status = Object.entries(holder["x-decided-responses"] as Record<string, { decision: string }>).find(([, value]) => value.decision === marking.decision)![0];
            const response = (holder.responses as Record<string, Json>)[status]!;
            expect(String(response.description), `${marking.pointer} response ${status}`).toContain(badge);
          } else if (marking.extension === "x-decided-parameters") {
            const parameters = ((holder.parameters ?? []) as Json[]).map((parameter) => (typeof parameter.$ref === "string" ? at(openapi, parameter.$ref.slice(1)) : parameter));
            const described = JSON.stringify(parameters);
            expect(described, `${marking.pointer} parameters`).toContain(badge);
          } else {
            // A parameter's or header's schema shows the badge once, on its parent.
            const parent = at(openapi, marking.pointer.replace(/\/schema$/, "")) as Json;
            const text = `${String(holder.description ?? "")} ${String(parent?.description ?? "")}`;
            expect(text, `${marking.pointer} (${marking.extension})`).toContain(badge);
          }
        }
      });

      it("offers the generated documents as published for download", () => {
        const { downloads } = embeddedReference(`openapi/${reference.id}.portal.js`);
        expect(downloads.length).toBeGreaterThan(0);
        for (const download of downloads) {
          const copy = readFileSync(join(portal.dir, download.url), "utf8");
          expect(copy).toBe(readFileSync(join(ROOT, "generated", download.url), "utf8"));
        }
      });
    });
  }
});

describe("the search index", () => {
  it("leads to the operations and to the pages that name an error code", () => {
    const script = readFileSync(join(portal.dir, "assets", "search-index.js"), "utf8");
    const entries = JSON.parse(script.replace(/^window\.PORTAL_SEARCH_INDEX = /, "").replace(/;\s*$/, "")) as Array<{ t: string; u: string; x: string }>;
    const hits = (term: string): string[] => entries.filter((entry) => `${entry.t} ${entry.x}`.includes(term)).map((entry) => entry.u);
    expect(hits("IDEMPOTENCY_KEY_REQUIRED")).toContain("reference-family-a.html#tag/Charges/operation/createCharge");
    expect(hits("IDEMPOTENCY_KEY_REQUIRED").some((url) => !url.startsWith("reference-"))).toBe(true);
    expect(hits("ODE002")).toContain("reference-family-b.html#tag/Boletos/operation/cancelBoleto");
    expect(hits("ODE002").some((url) => url.startsWith("decisions.html#"))).toBe(true);
  });
});

describe("missing sources", () => {
  let scratch: string;

  beforeAll(() => {
    // A package with nothing but its manifest and the generated OpenAPI: no docs, no
    // catalogue, no client, no guides, no changelog.
    scratch = mkdtempSync(join(tmpdir(), "docs-missing-"));
    writeFileSync(join(scratch, "package.json"), readFileSync(join(ROOT, "package.json")));
    symlinkSync(join(ROOT, "node_modules"), join(scratch, "node_modules"), "dir");
    mkdirSync(join(scratch, "generated"), { recursive: true });
    cpSync(join(ROOT, "generated", "openapi"), join(scratch, "generated", "openapi"), { recursive: true });
  });

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("still build, and each page says what is missing", async () => {
    const out = join(scratch, "site");
    const report = await buildPortal({ root: scratch, outDir: out, console: { sandbox: "https://sandbox.example.com" } });
    // The console's server it was given (portal --out --server), in the script the pages load.
    expect(readFileSync(join(out, "assets", "console-config.js"), "utf8")).toContain('"sandbox":"https://sandbox.example.com"');
    const missingPages = report.missing.map((gap) => gap.file);
    expect(missingPages).toEqual(expect.arrayContaining(["index.html", "decisions.html", "statements.html", "client.html", "conformance-guide.html", "sandbox.html", "changelog.html"]));
    expect(readFileSync(join(out, "sandbox.html"), "utf8")).toContain("The sandbox is not yet available");
    expect(readFileSync(join(out, "statements.html"), "utf8")).toContain("spec/statements.yaml");
    // The webhook guide is left out until its source exists.
    expect(existsSync(join(out, "webhooks.html"))).toBe(false);
    // The references still render, with curl samples only (no client to call).
    const reference = readFileSync(join(out, "openapi", "family-a.portal.js"), "utf8");
    expect(reference).toContain('"label":"curl"');
    expect(reference).not.toContain('"label":"TypeScript client"');
  });

  it("refuse to empty a folder that contains the package", async () => {
    await expect(buildPortal({ root: scratch, outDir: scratch })).rejects.toThrow(/contains the package/);
  });
});
