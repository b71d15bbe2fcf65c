/**
 * The project's own files the portal renders, and where each lands in the portal. One table,
 * so that page rendering, link rewriting and the "missing source" notices agree.
 *
 * Every source is optional: a page whose source is absent still exists and says what is
 * missing (or, for pages that only make sense once their subject exists, is left out).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { NavGroup } from "./layout.ts";

export interface PageSource {
  /** Output file of the page. */
  file: string;
  label: string;
  group: NavGroup;
  top?: boolean;
  /** Shorter label for the header bar. */
  topLabel?: string;
  /** Repository paths, first present wins. */
  candidates: readonly string[];
  /** How the page is rendered. */
  render: "index" | "markdown" | "decisions" | "statements";
  /** Left out of the portal when no candidate exists (instead of a "missing" page). */
  skipWhenMissing?: boolean;
  /** What the page says when no candidate exists (Markdown). */
  whenMissing: string;
}

export const PAGE_SOURCES: readonly PageSource[] = [
  {
    file: "index.html",
    label: "Overview",
    group: "Overview",
    top: true,
    candidates: ["docs/index.md"],
    render: "index",
    whenMissing: "The overview text (`docs/index.md`) is missing; the references and records below are still available.",
  },
  {
    file: "decisions.html",
    label: "Decision record",
    group: "Project record",
    top: true,
    topLabel: "Decisions",
    candidates: ["docs/decisions.md"],
    render: "decisions",
    whenMissing: "The decision record (`docs/decisions.md`) is not in the package yet. The references still badge every decided element with its decision id.",
  },
  {
    file: "statements.html",
    label: "Statement catalogue",
    group: "Project record",
    top: true,
    topLabel: "Statements",
    candidates: ["spec/statements.yaml"],
    render: "statements",
    whenMissing: "The statement catalogue (`spec/statements.yaml`) is not in the package yet.",
  },
  {
    file: "interface-description.html",
    label: "Interface description",
    group: "Project record",
    candidates: ["spec/source/interface-description.md"],
    render: "markdown",
    whenMissing: "The interface description (`spec/source/interface-description.md`) is missing from the package.",
  },
  {
    file: "client.html",
    label: "Client quick start",
    group: "Guides",
    candidates: ["docs/client.md"],
    render: "markdown",
    whenMissing: "The client quick start (`docs/client.md`) is not written yet. The code samples in the references show a call of every operation through the client.",
  },
  {
    file: "conformance-guide.html",
    label: "Conformance guide",
    group: "Guides",
    candidates: ["conformance/README.md", "docs/conformance-guide.md"],
    render: "markdown",
    whenMissing: "The conformance guide (`conformance/README.md`) is not written yet.",
  },
  {
    file: "sandbox.html",
    label: "Sandbox guide",
    group: "Guides",
    candidates: ["sandbox/README.md"],
    render: "markdown",
    whenMissing:
      "The sandbox is not yet available. The interface description says a family A sandbox \"is planned but does not exist yet\"; this package's stateful sandbox of both families is being built, and its guide (`sandbox/README.md`) will appear here.",
  },
  {
    file: "cli.html",
    label: "Command line and CI",
    group: "Guides",
    candidates: ["docs/cli.md"],
    render: "markdown",
    skipWhenMissing: true,
    whenMissing: "",
  },
  {
    file: "webhooks.html",
    label: "Webhook verification",
    group: "Guides",
    candidates: ["docs/webhooks.md"],
    render: "markdown",
    skipWhenMissing: true,
    whenMissing: "",
  },
  {
    file: "traffic.html",
    label: "Traffic validation",
    group: "Guides",
    candidates: ["docs/traffic.md"],
    render: "markdown",
    skipWhenMissing: true,
    whenMissing: "",
  },
  {
    file: "changelog.html",
    label: "Changelog",
    group: "Project record",
    candidates: ["CHANGELOG.md"],
    render: "markdown",
    whenMissing: "The changelog (`CHANGELOG.md`) is missing.",
  },
];

export const SEARCH_PAGE = { file: "search.html", label: "Search", group: "Overview" as NavGroup, top: true };

export interface LoadedSource {
  path: string;
  text: string;
}

/** The first candidate that exists under `root`, read as UTF-8. */
export function readFirstPresent(root: string, candidates: readonly string[]): LoadedSource | null {
  for (const candidate of candidates) {
    const full = join(root, candidate);
    if (existsSync(full)) return { path: candidate, text: readFileSync(full, "utf8") };
  }
  return null;
}
