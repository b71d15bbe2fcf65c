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
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { copyAssets, copyGeneratedDocuments, redocVersion } from "./assets.ts";
import { CONTRACT_CHANGES_PAGE } from "./changelog-page.ts";
import type { ConsoleConfig } from "./console/config.ts";
import { safeParseRecord } from "./decisions-page.ts";
import type { NavEntry } from "./layout.ts";
import type { LinkResolver } from "./markdown.ts";
import { loadReferenceSources, type ReferenceSource } from "./references.ts";
import {
  DECISIONS_PAGE,
  writeConsoleScripts,
  writeContentPages,
  writeContractChangesPage,
  writeReferencePages,
  writeSearchPage,
  type MissingSource,
  type PlannedPage,
  type ReferenceCount,
  type SiteBuild,
} from "./site-pages.ts";
import { PAGE_SOURCES, readFirstPresent, SEARCH_PAGE } from "./sources.ts";

export interface BuildOptions {
  /** Package root (where package.json, docs/, spec/, generated/ live). */
  root: string;
  /** Output folder; emptied first. */
  outDir: string;
  /** What the console is told (its default server); default: the sandbox's default address. */
  console?: ConsoleConfig;
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
  missing: MissingSource[];
  references: ReferenceCount[];
  searchEntries: number;
}

/** Refuses an output that is the package root or a folder containing it. */
function guardOutDir(root: string, outDir: string): void {
  const rel = relative(outDir, root);
  if (rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))) throw new Error(`refusing to empty ${outDir}: it contains the package`);
}

export async function buildPortal(options: BuildOptions): Promise<BuildReport> {
  const started = performance.now();
  const root = resolve(options.root);
  const outDir = resolve(options.outDir);
  emptyOutput(root, outDir);
  copyAssets(root, outDir);
  const site = planSite(root, outDir, copyGeneratedDocuments(root, outDir), await loadReferenceSources(root));
  writeContentPages(site);
  writeContractChangesPage(site);
  await writeConsoleScripts(site, options.console ?? {});
  const references = writeReferencePages(site);
  writeSearchPage(site);
  return {
    outDir,
    milliseconds: Math.round(performance.now() - started),
    redoc: redocVersion(root),
    pages: pageWeights(outDir),
    siteBytes: folderBytes(outDir),
    missing: site.missing,
    references,
    searchEntries: site.searchEntries.length,
  };
}

/** The output is emptied first: never let it be the package root or a folder containing it. */
function emptyOutput(root: string, outDir: string): void {
  guardOutDir(root, outDir);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
}

/** The pages whose sources are present (or that say what is missing), with the navigation and links between them. */
function planSite(root: string, outDir: string, downloads: ReadonlySet<string>, references: ReferenceSource[]): SiteBuild {
  const planned: PlannedPage[] = PAGE_SOURCES.map((spec) => ({ spec, source: readFirstPresent(root, spec.candidates) })).filter(
    (page) => page.source !== null || !page.spec.skipWhenMissing,
  );
  const decisionRecord = planned.find((page) => page.spec.render === "decisions")?.source ?? null;
  const titles = new Map(decisionRecord ? safeParseRecord(decisionRecord.text).entries.map((entry) => [entry.id, entry.title] as const) : []);
  return {
    root,
    outDir,
    planned,
    references,
    downloads,
    nav: [...navigation(planned, references), CONTRACT_CHANGES_PAGE], // contract changes page: see changelog-page.ts
    resolveLink: linkResolver(planned, references, downloads),
    links: { page: DECISIONS_PAGE, titles },
    searchEntries: [],
    missing: [],
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
