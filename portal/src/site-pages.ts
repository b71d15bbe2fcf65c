/**
 * The pages of the portal, each written into the build's output: the project's pages from their
 * sources, the contract changes, the references with their console data, and the search page.
 * Every page adds what it holds to the search index.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { operationsOf } from "@payment-collection/contract/model/index.ts";
import { loadCatalogue } from "@payment-collection/conformance/core/statement-map.ts";
import { CONTRACT_CHANGES_PAGE, contractChangesMarkdown } from "./changelog-page.ts";
import { consoleConfigScript, type ConsoleConfig } from "./console/config.ts";
import { consoleReference } from "./console/console-data.ts";
import { contractCheckScript } from "./console/contract-check-script.ts";
import { expandDirectives } from "./contract-tables.ts";
import { loadStatementCoverage } from "./coverage.ts";
import { enrichDecisionRecord } from "./decisions-page.ts";
import { escapeHtml } from "./html.ts";
import { CONSOLE_SCRIPTS, renderContentPage, renderReferencePage, type NavEntry, type TocEntry } from "./layout.ts";
import { decisionAnchor, renderMarkdown, sectionsOf, type HeadingEntry } from "./markdown.ts";
import type { DecisionLinks } from "./decision-badges.ts";
import type { LinkResolver } from "./markdown.ts";
import { decorateReference, downloadsOf, missingReferenceArticle, referenceBanner, type ReferenceSource } from "./references.ts";
import { pageEntries, referenceEntries, searchIndexScript, type SearchEntry } from "./search-index.ts";
import { SEARCH_PAGE, type LoadedSource, type PageSource } from "./sources.ts";
import { renderStatementsPage, statedErrorCodes } from "./statements-page.ts";

export const DECISIONS_PAGE = "decisions.html";
export const DESCRIPTION_PAGE = "interface-description.html";

export interface PlannedPage {
  spec: PageSource;
  source: LoadedSource | null;
}

/** A page, or a reference, whose source was missing. */
export interface MissingSource {
  file: string;
  sources: readonly string[];
}

/** A reference page and how many of its operations carry code samples. */
export interface ReferenceCount {
  file: string;
  operations: number;
  codeSamples: number;
}

/** What every page of the build reads: where it goes, the pages and references, their links, and what the build collects. */
export interface SiteBuild {
  root: string;
  outDir: string;
  planned: PlannedPage[];
  references: ReferenceSource[];
  downloads: ReadonlySet<string>;
  nav: NavEntry[];
  resolveLink: LinkResolver;
  links: DecisionLinks;
  searchEntries: SearchEntry[];
  missing: MissingSource[];
}

interface RenderedPage {
  article: string;
  toc: TocEntry[];
  title: string;
}

/** What rendering a project page reads besides its own source. */
interface PageInputs {
  tables: Parameters<typeof expandDirectives>[1];
  coverage: ReturnType<typeof loadStatementCoverage>;
  /** The interface description's headings, once it is rendered: the statements link to them. */
  descriptionHeadings: HeadingEntry[];
}

/** The project's pages, the interface description first: the statement page links each statement to its section. */
export function writeContentPages(site: SiteBuild): void {
  const catalogue = site.planned.find((page) => page.spec.render === "statements")?.source ?? null;
  const inputs: PageInputs = {
    tables: { references: site.references, decisionsPage: DECISIONS_PAGE, statedCodes: catalogue ? statedErrorCodes(catalogue.text) : null },
    coverage: loadStatementCoverage(),
    descriptionHeadings: [],
  };
  const order = [...site.planned].sort((a, b) => Number(b.spec.file === DESCRIPTION_PAGE) - Number(a.spec.file === DESCRIPTION_PAGE));
  for (const page of order) {
    const { spec, source } = page;
    const rendered = !source ? missingPage(site, page, inputs) : spec.render === "statements" ? statementsPage(site, page, inputs) : markdownPage(site, page, inputs);
    if (spec.render !== "statements") site.searchEntries.push(...pageEntries(spec.file, rendered.title, spec.label, sectionsOf(rendered.article, rendered.title)));
    const { article, toc, title } = rendered;
    writeFileSync(join(site.outDir, spec.file), renderContentPage({ file: spec.file, title, nav: site.nav, article, toc, sources: source ? [source.path] : [] }));
  }
}

/** A page whose source is missing: it says so, and what it would have held. */
function missingPage(site: SiteBuild, { spec }: PlannedPage, inputs: PageInputs): RenderedPage {
  site.missing.push({ file: spec.file, sources: spec.candidates });
  const notice = renderMarkdown(spec.whenMissing, { sourcePath: "docs/index.md", resolveLink: site.resolveLink, linkDecisionIds: true });
  let article = `<h1 id="${spec.file.replace(/\.html$/, "")}">${escapeHtml(spec.label)}</h1>\n<div class="notice notice-missing">${notice.html}</div>`;
  if (spec.render === "index") article += `\n${expandDirectives("<!-- portal:operations -->", inputs.tables)}`;
  return { article, toc: [], title: spec.label };
}

/** The statement catalogue: each statement with its checks, one search entry each. */
function statementsPage(site: SiteBuild, { spec, source }: PlannedPage, inputs: PageInputs): RenderedPage {
  const rendered = renderStatementsPage({
    sourcePath: source!.path,
    yamlText: source!.text,
    coverage: inputs.coverage,
    descriptionHeadings: inputs.descriptionHeadings,
    descriptionPage: DESCRIPTION_PAGE,
    decisionsPage: DECISIONS_PAGE,
  });
  for (const statement of rendered.statements) {
    site.searchEntries.push({
      t: `${statement.id} · statement`,
      u: `${spec.file}#${statement.id}`,
      k: spec.label,
      x: [statement.quote, statement.section, statement.kind, statement.note ?? "", statement.reason ?? ""].join(" · "),
    });
  }
  return { article: rendered.article, toc: rendered.toc, title: "Statement catalogue" };
}

/** A page rendered from its Markdown source (the overview's tables expanded, the decisions enriched). */
function markdownPage(site: SiteBuild, { spec, source }: PlannedPage, inputs: PageInputs): RenderedPage {
  let markdown = source!.text;
  if (spec.render === "index") markdown = expandDirectives(markdown, inputs.tables);
  if (spec.render === "decisions") markdown = enrichDecisionRecord(markdown, site.references, DECISIONS_PAGE);
  const rendered = renderMarkdown(markdown, { sourcePath: source!.path, resolveLink: site.resolveLink, linkDecisionIds: true, decisionsPage: DECISIONS_PAGE });
  if (spec.file === DESCRIPTION_PAGE) inputs.descriptionHeadings = rendered.headings;
  const title = rendered.title ?? spec.label;
  const article = rendered.title ? rendered.html : `<h1 id="top">${escapeHtml(spec.label)}</h1>\n${rendered.html}`;
  return { article, toc: rendered.toc, title };
}

/** Contract changes (issue #18): the contract diff since the last release tag, rendered like `contract:diff --markdown`. */
export function writeContractChangesPage(site: SiteBuild): void {
  const rendered = renderMarkdown(contractChangesMarkdown(site.root).markdown, { sourcePath: "generated/openapi/3.1/family-a.json", resolveLink: site.resolveLink });
  const title = rendered.title ?? CONTRACT_CHANGES_PAGE.label;
  site.searchEntries.push(...pageEntries(CONTRACT_CHANGES_PAGE.file, title, CONTRACT_CHANGES_PAGE.label, sectionsOf(rendered.html, title)));
  writeFileSync(join(site.outDir, CONTRACT_CHANGES_PAGE.file), renderContentPage({ file: CONTRACT_CHANGES_PAGE.file, title, nav: site.nav, article: rendered.html, toc: rendered.toc }));
}

/** The console: the contract check bundled for the browser, its configuration (the default server address). */
export async function writeConsoleScripts(site: SiteBuild, config: ConsoleConfig): Promise<void> {
  mkdirSync(join(site.outDir, "openapi"), { recursive: true });
  writeFileSync(join(site.outDir, CONSOLE_SCRIPTS.check), await contractCheckScript());
  writeFileSync(join(site.outDir, CONSOLE_SCRIPTS.config), consoleConfigScript(config));
}

/** Every reference page with its document and console data; what each holds, for the build's report. */
export function writeReferencePages(site: SiteBuild): ReferenceCount[] {
  const consoleCatalogue = loadCatalogue(join(site.root, "spec", "statements.yaml"));
  const decisionAnchors = Object.fromEntries([...site.links.titles.keys()].map((id) => [id, decisionAnchor(id)]));
  const report: ReferenceCount[] = [];
  for (const reference of site.references) {
    const decorated = decorateReference(site.root, reference, site.links);
    if (!decorated) {
      site.missing.push({ file: reference.file, sources: [reference.sourcePath] });
      writeFileSync(join(site.outDir, reference.file), renderContentPage({ file: reference.file, title: reference.title, nav: site.nav, article: missingReferenceArticle(reference) }));
      continue;
    }
    const consoleData = { ...consoleReference(site.root, reference.id, consoleCatalogue), decisionAnchors };
    writeReferencePage(site, reference, decorated, consoleData);
    site.searchEntries.push(...referenceEntries(reference));
    report.push(codeSampleCounts(reference, decorated));
  }
  return report;
}

function writeReferencePage(site: SiteBuild, reference: ReferenceSource, decorated: Record<string, unknown>, consoleData: object): void {
  const specScript = `openapi/${reference.id}.portal.js`;
  const payload = { openapi: decorated, downloads: downloadsOf(reference, (path) => site.downloads.has(path)) };
  writeFileSync(join(site.outDir, specScript), `window.PORTAL_REFERENCE = ${JSON.stringify(payload)};\n`);
  const consoleScript = `openapi/${reference.id}.console.js`;
  writeFileSync(join(site.outDir, consoleScript), `window.PORTAL_CONSOLE = ${JSON.stringify(consoleData)};\n`);
  writeFileSync(
    join(site.outDir, reference.file),
    renderReferencePage({
      file: reference.file,
      title: reference.title,
      nav: site.nav,
      banner: referenceBanner(reference, DECISIONS_PAGE),
      bannerClass: reference.sandboxOnly ? "sandbox" : undefined,
      specScript,
      consoleScript,
    }),
  );
}

function codeSampleCounts(reference: ReferenceSource, decorated: Parameters<typeof operationsOf>[0]): ReferenceCount {
  const operations = operationsOf(decorated).map((entry) => entry.operation).filter((operation) => "x-codeSamples" in operation);
  return {
    file: reference.file,
    operations: operations.length,
    codeSamples: operations.reduce((sum, operation) => sum + (Array.isArray(operation["x-codeSamples"]) ? operation["x-codeSamples"].length : 0), 0),
  };
}

/** The search page and its index of every page and operation. */
export function writeSearchPage(site: SiteBuild): void {
  writeFileSync(join(site.outDir, "assets", "search-index.js"), searchIndexScript(site.searchEntries));
  writeFileSync(
    join(site.outDir, SEARCH_PAGE.file),
    renderContentPage({
      file: SEARCH_PAGE.file,
      title: "Search",
      nav: site.nav,
      article: `<h1 id="search">Search the portal</h1>
<p>Searches the overview, the project pages and every operation of the references. For text inside one reference, Redoc's own search box (top left of each reference) also works.</p>
<form class="search-page-form" action="search.html" method="get" role="search"><input id="search-query" type="search" name="q" aria-label="Search terms" autofocus><button type="submit">Search</button></form>
<p id="search-summary" class="search-summary"></p>
<ol id="search-results" class="search-results"></ol>`,
      scripts: ["assets/search-index.js", "assets/search.js"],
    }),
  );
}
