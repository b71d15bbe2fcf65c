/**
 * Markdown to HTML for the portal pages (marked), with what a multi-page static site needs:
 * stable heading ids (GitHub's rule, plus `dnn` for decision entries), links between source
 * files rewritten to the pages that render them, decision ids turned into links to the
 * decision record, and the sections of the page for the search index.
 */
import { posix } from "node:path";
import { Marked, type Tokens } from "marked";
import { escapeHtml, githubSlug, SlugRegistry, textOf } from "./html.ts";
import type { TocEntry } from "./layout.ts";

/** Maps a repository path (and anchor) to a portal URL, or null when the portal has no page for it. */
export type LinkResolver = (repoPath: string, hash: string) => string | null;

export interface MarkdownOptions {
  /** Repository path of the Markdown file, to resolve its relative links. */
  sourcePath: string;
  resolveLink: LinkResolver;
  /** Turn `Dnn` in running text into links to the decision record. */
  linkDecisionIds?: boolean;
  /** URL of the decision record page. */
  decisionsPage?: string;
}

export interface RenderedMarkdown {
  html: string;
  /** Text of the first h1, if any. */
  title: string | null;
  /** The h2 headings, for the page's table of contents. */
  toc: TocEntry[];
  /** Every heading in order, to resolve a heading path ("H2 > H3") to an anchor. */
  headings: HeadingEntry[];
}

export interface HeadingEntry {
  depth: number;
  id: string;
  text: string;
}

const DECISION_HEADING = /^(D\d{2})\b/;
const DECISION_ID_IN_TEXT = /\b(D\d{2})\b/g;
const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

export function decisionAnchor(id: string): string {
  return id.toLowerCase();
}

export function renderMarkdown(markdown: string, options: MarkdownOptions): RenderedMarkdown {
  const slugs = new SlugRegistry();
  const toc: TocEntry[] = [];
  const headings: HeadingEntry[] = [];
  let title: string | null = null;
  let headingDepth = 0;
  const decisionsPage = options.decisionsPage ?? "decisions.html";

  const marked = new Marked({ gfm: true });
  marked.use({
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Heading): string {
        headingDepth += 1;
        const inner = this.parser.parseInline(token.tokens);
        headingDepth -= 1;
        const plain = textOf(inner);
        const decision = DECISION_HEADING.exec(plain);
        let id: string;
        let extraAnchor = "";
        if (decision) {
          id = decisionAnchor(decision[1]!);
          slugs.reserve(id);
          // Keep GitHub's anchor too, so links written against the repository still land.
          extraAnchor = `<span id="${escapeHtml(slugs.unique(githubSlug(plain)))}"></span>`;
        } else {
          id = slugs.unique(githubSlug(plain));
        }
        if (token.depth === 1 && title === null) title = plain;
        if (token.depth === 2) toc.push({ id, text: plain });
        headings.push({ depth: token.depth, id, text: plain });
        return `<h${token.depth} id="${escapeHtml(id)}">${extraAnchor}${inner}</h${token.depth}>\n`;
      },
      link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Link): string {
        const inner = this.parser.parseInline(token.tokens);
        const href = rewriteHref(token.href, options);
        const titleAttribute = token.title ? ` title="${escapeHtml(token.title)}"` : "";
        if (href === null) {
          // A file of the package that the portal does not publish: name it, do not link it.
          return `<span class="repo-path" title="${escapeHtml(`File in the package: ${repoPathOf(token.href, options.sourcePath)}`)}">${inner}</span>`;
        }
        return `<a href="${escapeHtml(href)}"${titleAttribute}>${inner}</a>`;
      },
      text(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Text | Tokens.Escape): string {
        if ("tokens" in token && token.tokens) return this.parser.parseInline(token.tokens);
        const escaped = escapeHtml(token.text);
        if (!options.linkDecisionIds || headingDepth > 0) return escaped;
        return escaped.replace(DECISION_ID_IN_TEXT, (id) => `<a href="${decisionsPage}#${decisionAnchor(id)}">${id}</a>`);
      },
    },
  });
  const html = marked.parse(markdown, { async: false }) as string;
  return { html, title, toc, headings };
}

/**
 * The anchor of a heading path such as "Errors > Family B, envelope 2 (customer delete, boleto)":
 * each step is searched after the previous one, at a deeper level. Null when a step is absent.
 */
export function anchorOfHeadingPath(headings: readonly HeadingEntry[], path: string): string | null {
  let from = 0;
  let depth = 0;
  let found: HeadingEntry | null = null;
  for (const step of path.split(" > ").map((part) => part.replace(/`/g, "").trim())) {
    const index = headings.findIndex((heading, position) => position >= from && heading.depth > depth && heading.text === step);
    if (index < 0) return null;
    found = headings[index]!;
    from = index + 1;
    depth = found.depth;
  }
  return found ? found.id : null;
}

function repoPathOf(href: string, sourcePath: string): string {
  const [path] = href.split("#");
  return posix.normalize(posix.join(posix.dirname(sourcePath), path ?? ""));
}

function rewriteHref(href: string, options: MarkdownOptions): string | null {
  if (href.startsWith("#") || EXTERNAL.test(href) || href.startsWith("//")) return href;
  const hashAt = href.indexOf("#");
  const path = hashAt >= 0 ? href.slice(0, hashAt) : href;
  const hash = hashAt >= 0 ? href.slice(hashAt + 1) : "";
  const repoPath = path.startsWith("/") ? path.slice(1) : repoPathOf(path, options.sourcePath);
  return options.resolveLink(repoPath, hash);
}

export interface PageSection {
  id: string;
  title: string;
  text: string;
}

/**
 * Splits rendered HTML at its headings that carry an id: one search entry per section, so
 * that a hit leads to the right place of a long page.
 */
export function sectionsOf(html: string, pageTitle: string): PageSection[] {
  const heading = /<h([1-4]) id="([^"]+)">([\s\S]*?)<\/h\1>/g;
  const sections: PageSection[] = [];
  let last = { id: "", title: pageTitle, start: 0 };
  let match: RegExpExecArray | null;
  while ((match = heading.exec(html)) !== null) {
    sections.push({ id: last.id, title: last.title, text: textOf(html.slice(last.start, match.index)) });
    last = { id: match[2]!, title: textOf(match[3]!), start: match.index + match[0].length };
  }
  sections.push({ id: last.id, title: last.title, text: textOf(html.slice(last.start)) });
  return sections.filter((section) => section.text.length > 0 || section.id.length > 0);
}
