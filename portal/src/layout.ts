/**
 * The HTML shell of every portal page: header (brand, top links, search box), side
 * navigation for content pages, and the asset links. Every URL it writes is relative, so the
 * portal works from the file system and from any static host under any path.
 */
import { escapeHtml } from "./html.ts";

export type NavGroup = "Overview" | "API reference" | "Project record" | "Guides";

export const NAV_GROUPS: readonly NavGroup[] = ["Overview", "API reference", "Project record", "Guides"];

/** One page of the portal as the navigation knows it. */
export interface NavEntry {
  file: string;
  label: string;
  group: NavGroup;
  /** Also shown in the header bar. */
  top?: boolean;
  /** Shorter label for the header bar. */
  topLabel?: string;
  /** Its source is missing: the page exists and says so. */
  missing?: boolean;
}

export interface TocEntry {
  id: string;
  text: string;
}

const ASSETS = {
  css: "assets/portal.css",
  favicon: "assets/favicon.svg",
};

function head(title: string, extra = ""): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Payment Collection API</title>
<link rel="icon" href="${ASSETS.favicon}" type="image/svg+xml">
<link rel="stylesheet" href="${ASSETS.css}">
${extra}</head>`;
}

function header(current: string, nav: readonly NavEntry[]): string {
  const links = nav
    .filter((entry) => entry.top)
    .map((entry) => `<a href="${entry.file}"${entry.file === current ? ' aria-current="page"' : ""}>${escapeHtml(entry.topLabel ?? entry.label)}</a>`)
    .join("\n    ");
  return `<header class="portal-header">
  <a class="portal-brand" href="index.html">Payment Collection API</a>
  <nav class="portal-topnav" aria-label="Main">
    ${links}
  </nav>
  <form class="portal-search-form" action="search.html" method="get" role="search">
    <input type="search" name="q" placeholder="Search the portal" aria-label="Search the portal">
    <button type="submit">Search</button>
  </form>
</header>`;
}

function sideNav(current: string, nav: readonly NavEntry[], toc: readonly TocEntry[]): string {
  const groups = NAV_GROUPS.map((group) => {
    const entries = nav.filter((entry) => entry.group === group);
    if (entries.length === 0) return "";
    const items = entries
      .map((entry) => {
        const isCurrent = entry.file === current;
        const link = `<a href="${entry.file}"${isCurrent ? ' aria-current="page"' : ""}${entry.missing ? ' class="missing-source"' : ""}>${escapeHtml(entry.label)}</a>`;
        const tocList =
          isCurrent && toc.length > 0
            ? `<ul class="toc">${toc.map((item) => `<li><a href="#${escapeHtml(item.id)}">${escapeHtml(item.text)}</a></li>`).join("")}</ul>`
            : "";
        return `<li>${link}${tocList}</li>`;
      })
      .join("\n      ");
    return `<h2>${escapeHtml(group)}</h2>
    <ul>
      ${items}
    </ul>`;
  }).join("\n    ");
  return `<nav class="portal-sidenav" aria-label="Portal pages">
    ${groups}
  </nav>`;
}

export interface ContentPageInput {
  file: string;
  title: string;
  nav: readonly NavEntry[];
  /** Rendered article HTML, starting with its h1. */
  article: string;
  toc?: readonly TocEntry[];
  /** Repository paths the page was rendered from, named in the footer. */
  sources?: readonly string[];
  scripts?: readonly string[];
}

/** A page of prose (Markdown, YAML or generated) with the side navigation. */
export function renderContentPage(input: ContentPageInput): string {
  const scripts = (input.scripts ?? []).map((src) => `<script src="${src}"></script>`).join("\n");
  const sourceNote =
    input.sources && input.sources.length > 0
      ? `Rendered from ${input.sources.map((source) => `<code>${escapeHtml(source)}</code>`).join(", ")} of the package.`
      : "Generated from the package's contract and records.";
  return `${head(input.title)}
<body>
${header(input.file, input.nav)}
<div class="portal-body">
  ${sideNav(input.file, input.nav, input.toc ?? [])}
  <main class="portal-article" id="content">
${input.article}
  </main>
</div>
<footer class="portal-footer">${sourceNote}</footer>
${scripts}
</body>
</html>
`;
}

export interface ReferencePageInput {
  file: string;
  title: string;
  nav: readonly NavEntry[];
  /** HTML shown above the reference (what the reference covers, sandbox warnings). */
  banner: string;
  bannerClass?: string;
  /** Script that sets window.PORTAL_OPENAPI. */
  specScript: string;
  /** Script that sets window.PORTAL_CONSOLE (the console's operations); no console without it. */
  consoleScript?: string;
}

/** The console's scripts, after the reference's: its server address, the contract check, its data, itself. */
export const CONSOLE_SCRIPTS = { config: "assets/console-config.js", check: "assets/contract-check.js", panel: "assets/console.js" } as const;

/** An API reference page: the header, a banner, and Redoc rendering the embedded document. */
export function renderReferencePage(input: ReferencePageInput): string {
  return `${head(input.title)}
<body>
${header(input.file, input.nav)}
<div class="reference-banner${input.bannerClass ? ` ${input.bannerClass}` : ""}">${input.banner}</div>
<div id="redoc-container"><p class="reference-loading">Loading the reference…</p></div>
<script src="assets/redoc.standalone.js"></script>
<script src="${input.specScript}"></script>
<script src="assets/reference.js"></script>
${input.consoleScript ? [CONSOLE_SCRIPTS.config, CONSOLE_SCRIPTS.check, input.consoleScript, CONSOLE_SCRIPTS.panel].map((src) => `<script src="${src}"></script>`).join("\n") : ""}
</body>
</html>
`;
}
