/**
 * Builds the docs portal: a static, self-contained site (no CDN; works from the file system
 * or any static host) made of
 * - the overview (docs/index.md with tables derived from the OpenAPI),
 * - one Redoc reference per family (and the sandbox controls, sandbox only, when built),
 * - the project's pages rendered from their single source (decision record, statement
 *   catalogue, interface description, client quick start, conformance and sandbox guides,
 *   webhook guide when present, changelog),
 * - a search page over all of it.
 * A missing source never breaks the build: its page says what is missing.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { operationsOf } from "@payment-collection/contract/model/index.ts";
import { copyAssets, copyGeneratedDocuments, redocVersion } from "./assets.ts";
import { expandDirectives } from "./contract-tables.ts";
import { loadStatementCoverage } from "./coverage.ts";
import { enrichDecisionRecord, safeParseRecord } from "./decisions-page.ts";
import type { DecisionLinks } from "./decision-badges.ts";
import { escapeHtml } from "./html.ts";
import { CONSOLE_SCRIPTS, renderContentPage, renderReferencePage, type NavEntry, type TocEntry } from "./layout.ts";
import { renderMarkdown, sectionsOf, type HeadingEntry, type LinkResolver } from "./markdown.ts";
import { decorateReference, downloadsOf, loadReferenceSources, missingReferenceArticle, referenceBanner, type ReferenceSource } from "./references.ts";
import { pageEntries, referenceEntries, searchIndexScript, type SearchEntry } from "./search-index.ts";
import { PAGE_SOURCES, readFirstPresent, SEARCH_PAGE, type LoadedSource, type PageSource } from "./sources.ts";
import { renderStatementsPage, statedErrorCodes } from "./statements-page.ts";
import { CONTRACT_CHANGES_PAGE, contractChangesMarkdown } from "./changelog-page.ts";
import { contractCheckScript } from "./console/contract-check-script.ts";
import { consoleConfigScript } from "./console/config.ts";
import { consoleReference } from "./console/console-data.ts";
import { loadCatalogue } from "@payment-collection/conformance/core/statement-map.ts";
import { decisionAnchor } from "./markdown.ts";

export interface BuildOptions {
  /** Package root (where package.json, docs/, spec/, generated/ live). */
  root: string;
  /** Output folder; emptied first. */
  outDir: string;
}

export interface PageWeight {
  file: string;
  /** Bytes of the HTML file. */
  htmlBytes: number;
  /** Bytes of the HTML plus every local script, stylesheet and icon it loads. */
  weightBytes: number;
}

export interface BuildReport {
  outDir: string;
  milliseconds: number;
  redoc: string;
  pages: PageWeight[];
  /** Bytes of every file of the site (downloads included). */
  siteBytes: number;
  /** Sources that were missing, by page. */
  missing: Array<{ file: string; sources: readonly string[] }>;
  references: Array<{ file: string; operations: number; codeSamples: number }>;
  searchEntries: number;
}

const DECISIONS_PAGE = "decisions.html";
const DESCRIPTION_PAGE = "interface-description.html";

/** The output is emptied first: never let it be the package root or a folder containing it. */
function guardOutDir(root: string, outDir: string): void {
  const rel = relative(outDir, root);
  if (rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))) throw new Error(`refusing to empty ${outDir}: it contains the package`);
}

interface PlannedPage {
  spec: PageSource;
  source: LoadedSource | null;
}

export async function buildPortal(options: BuildOptions): Promise<BuildReport> {
  const started = performance.now();
  const root = resolve(options.root);
  const outDir = resolve(options.outDir);
  guardOutDir(root, outDir);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });

  copyAssets(root, outDir);
  const downloads = copyGeneratedDocuments(root, outDir);
  const references = await loadReferenceSources(root);

  const planned: PlannedPage[] = PAGE_SOURCES.map((spec) => ({ spec, source: readFirstPresent(root, spec.candidates) })).filter(
    (page) => page.source !== null || !page.spec.skipWhenMissing,
  );
  const decisionRecord = planned.find((page) => page.spec.render === "decisions")?.source ?? null;
  const titles = new Map(decisionRecord ? safeParseRecord(decisionRecord.text).entries.map((entry) => [entry.id, entry.title] as const) : []);
  const links: DecisionLinks = { page: DECISIONS_PAGE, titles };

  const nav = [...navigation(planned, references), CONTRACT_CHANGES_PAGE]; // contract changes page: see changelog-page.ts
  const resolveLink = linkResolver(planned, references, downloads);
  const searchEntries: SearchEntry[] = [];
  const missing: BuildReport["missing"] = [];

  // The interface description first: the statement page links each statement to its section.
  const order = [...planned].sort((a, b) => Number(b.spec.file === DESCRIPTION_PAGE) - Number(a.spec.file === DESCRIPTION_PAGE));
  let descriptionHeadings: HeadingEntry[] = [];
  const coverage = loadStatementCoverage();
  const catalogue = planned.find((page) => page.spec.render === "statements")?.source ?? null;
  const tables = { references, decisionsPage: DECISIONS_PAGE, statedCodes: catalogue ? statedErrorCodes(catalogue.text) : null };

  for (const { spec, source } of order) {
    let article: string;
    let toc: TocEntry[] = [];
    let title = spec.label;
    if (!source) {
      missing.push({ file: spec.file, sources: spec.candidates });
      const notice = renderMarkdown(spec.whenMissing, { sourcePath: "docs/index.md", resolveLink, linkDecisionIds: true });
      article = `<h1 id="${spec.file.replace(/\.html$/, "")}">${escapeHtml(spec.label)}</h1>\n<div class="notice notice-missing">${notice.html}</div>`;
      if (spec.render === "index") article += `\n${expandDirectives("<!-- portal:operations -->", tables)}`;
    } else if (spec.render === "statements") {
      const rendered = renderStatementsPage({
        sourcePath: source.path,
        yamlText: source.text,
        coverage,
        descriptionHeadings,
        descriptionPage: DESCRIPTION_PAGE,
        decisionsPage: DECISIONS_PAGE,
      });
      article = rendered.article;
      toc = rendered.toc;
      title = "Statement catalogue";
      for (const statement of rendered.statements) {
        searchEntries.push({
          t: `${statement.id} · statement`,
          u: `${spec.file}#${statement.id}`,
          k: spec.label,
          x: [statement.quote, statement.section, statement.kind, statement.note ?? "", statement.reason ?? ""].join(" · "),
        });
      }
    } else {
      let markdown = source.text;
      if (spec.render === "index") markdown = expandDirectives(markdown, tables);
      if (spec.render === "decisions") markdown = enrichDecisionRecord(markdown, references, DECISIONS_PAGE);
      const rendered = renderMarkdown(markdown, { sourcePath: source.path, resolveLink, linkDecisionIds: true, decisionsPage: DECISIONS_PAGE });
      if (spec.file === DESCRIPTION_PAGE) descriptionHeadings = rendered.headings;
      title = rendered.title ?? spec.label;
      article = rendered.title ? rendered.html : `<h1 id="top">${escapeHtml(spec.label)}</h1>\n${rendered.html}`;
      toc = rendered.toc;
    }
    if (spec.render !== "statements") searchEntries.push(...pageEntries(spec.file, title, spec.label, sectionsOf(article, title)));
    writeFileSync(
      join(outDir, spec.file),
      renderContentPage({ file: spec.file, title, nav, article, toc, sources: source ? [source.path] : [] }),
    );
  }

  // Contract changes (issue #18): the contract diff since the last release tag, rendered like `contract:diff --markdown`.
  {
    const rendered = renderMarkdown(contractChangesMarkdown(root).markdown, { sourcePath: "generated/openapi/3.1/family-a.json", resolveLink });
    const title = rendered.title ?? CONTRACT_CHANGES_PAGE.label;
    searchEntries.push(...pageEntries(CONTRACT_CHANGES_PAGE.file, title, CONTRACT_CHANGES_PAGE.label, sectionsOf(rendered.html, title)));
    writeFileSync(join(outDir, CONTRACT_CHANGES_PAGE.file), renderContentPage({ file: CONTRACT_CHANGES_PAGE.file, title, nav, article: rendered.html, toc: rendered.toc }));
  }

  const referenceReport: BuildReport["references"] = [];
  mkdirSync(join(outDir, "openapi"), { recursive: true });
  // The console: the contract check bundled for the browser, the default server address.
  writeFileSync(join(outDir, CONSOLE_SCRIPTS.check), await contractCheckScript());
  writeFileSync(join(outDir, CONSOLE_SCRIPTS.config), consoleConfigScript({}));
  const consoleCatalogue = loadCatalogue(join(root, "spec", "statements.yaml"));
  const decisionAnchors = Object.fromEntries([...titles.keys()].map((id) => [id, decisionAnchor(id)]));
  for (const reference of references) {
    const decorated = decorateReference(root, reference, links);
    if (!decorated) {
      missing.push({ file: reference.file, sources: [reference.sourcePath] });
      writeFileSync(join(outDir, reference.file), renderContentPage({ file: reference.file, title: reference.title, nav, article: missingReferenceArticle(reference) }));
      continue;
    }
    const specScript = `openapi/${reference.id}.portal.js`;
    const payload = { openapi: decorated, downloads: downloadsOf(reference, (path) => downloads.has(path)) };
    writeFileSync(join(outDir, specScript), `window.PORTAL_REFERENCE = ${JSON.stringify(payload)};\n`);
    const consoleScript = `openapi/${reference.id}.console.js`;
    const consoleData = { ...consoleReference(root, reference.id, consoleCatalogue), decisionAnchors };
    writeFileSync(join(outDir, consoleScript), `window.PORTAL_CONSOLE = ${JSON.stringify(consoleData)};\n`);
    writeFileSync(
      join(outDir, reference.file),
      renderReferencePage({
        file: reference.file,
        title: reference.title,
        nav,
        banner: referenceBanner(reference, DECISIONS_PAGE),
        bannerClass: reference.sandboxOnly ? "sandbox" : undefined,
        specScript,
        consoleScript,
      }),
    );
    searchEntries.push(...referenceEntries(reference));
    const operations = operationsOf(decorated).map((entry) => entry.operation).filter((operation) => "x-codeSamples" in operation);
    referenceReport.push({
      file: reference.file,
      operations: operations.length,
      codeSamples: operations.reduce((sum, operation) => sum + (Array.isArray(operation["x-codeSamples"]) ? operation["x-codeSamples"].length : 0), 0),
    });
  }

  writeFileSync(join(outDir, "assets", "search-index.js"), searchIndexScript(searchEntries));
  writeFileSync(
    join(outDir, SEARCH_PAGE.file),
    renderContentPage({
      file: SEARCH_PAGE.file,
      title: "Search",
      nav,
      article: `<h1 id="search">Search the portal</h1>
<p>Searches the overview, the project pages and every operation of the references. For text inside one reference, Redoc's own search box (top left of each reference) also works.</p>
<form class="search-page-form" action="search.html" method="get" role="search"><input id="search-query" type="search" name="q" aria-label="Search terms" autofocus><button type="submit">Search</button></form>
<p id="search-summary" class="search-summary"></p>
<ol id="search-results" class="search-results"></ol>`,
      scripts: ["assets/search-index.js", "assets/search.js"],
    }),
  );

  return {
    outDir,
    milliseconds: Math.round(performance.now() - started),
    redoc: redocVersion(root),
    pages: pageWeights(outDir),
    siteBytes: folderBytes(outDir),
    missing,
    references: referenceReport,
    searchEntries: searchEntries.length,
  };
}

function navigation(planned: readonly PlannedPage[], references: readonly ReferenceSource[]): NavEntry[] {
  const pages = planned.map(({ spec, source }): NavEntry => ({ file: spec.file, label: spec.label, group: spec.group, top: spec.top, topLabel: spec.topLabel, missing: source === null }));
  const index = pages.filter((page) => page.group === "Overview");
  const rest = pages.filter((page) => page.group !== "Overview");
  const refs = references.map((reference): NavEntry => ({
    file: reference.file,
    label: reference.label,
    topLabel: reference.sandboxOnly ? reference.label.replace(/\s*\(sandbox only\)$/, "") : reference.label,
    group: "API reference",
    top: true,
    missing: reference.document === null,
  }));
  return [...index, { ...SEARCH_PAGE }, ...refs, ...rest];
}

/** Maps repository paths named in Markdown links to portal pages or downloads. */
function linkResolver(planned: readonly PlannedPage[], references: readonly ReferenceSource[], downloads: ReadonlySet<string>): LinkResolver {
  const pages = new Map<string, string>();
  for (const { spec } of planned) for (const candidate of spec.candidates) pages.set(candidate, spec.file);
  for (const reference of references) if (reference.document) pages.set(reference.sourcePath, reference.file);
  return (repoPath, hash) => {
    const suffix = hash ? `#${hash}` : "";
    const page = pages.get(repoPath);
    if (page) return `${page}${suffix}`;
    if (repoPath.startsWith("generated/") && downloads.has(repoPath.slice("generated/".length))) return repoPath.slice("generated/".length);
    return null;
  };
}

function folderBytes(folder: string): number {
  let total = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = join(folder, entry.name);
    total += entry.isDirectory() ? folderBytes(full) : statSync(full).size;
  }
  return total;
}

/** Size of each HTML page alone and with the local scripts, styles and icon it loads. */
export function pageWeights(outDir: string): PageWeight[] {
  return readdirSync(outDir)
    .filter((name) => name.endsWith(".html"))
    .sort()
    .map((file) => {
      const html = readFileSync(join(outDir, file), "utf8");
      const loaded = new Set<string>();
      for (const match of html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"#?]+)"/g)) loaded.add(match[1]!);
      let weight = Buffer.byteLength(html);
      for (const asset of loaded) {
        const full = join(outDir, asset);
        if (!asset.endsWith(".html") && existsSync(full)) weight += statSync(full).size;
      }
      return { file, htmlBytes: Buffer.byteLength(html), weightBytes: weight };
    });
}
