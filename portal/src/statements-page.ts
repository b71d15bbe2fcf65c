/**
 * The statement catalogue page, rendered from spec/statements.yaml: every normative statement
 * of the interface description with its id, its quote, how the OpenAPI encodes it, whether it
 * is observable on the wire, and the conformance checks that enforce it (when the suites
 * publish that mapping; otherwise "coverage: not yet mapped").
 */
import { parse } from "yaml";
import { FAMILY_IDS } from "@payment-collection/contract/model/index.ts";
import { checksFor, validateCatalogue, type Statement } from "@payment-collection/contract/statements.ts";
import type { CoveringCheck, StatementCoverage } from "./coverage.ts";
import { escapeHtml } from "./html.ts";
import { anchorOfHeadingPath, type HeadingEntry } from "./markdown.ts";
import type { TocEntry } from "./layout.ts";

export interface StatementsPageInput {
  sourcePath: string;
  yamlText: string;
  coverage: StatementCoverage | null;
  /** Headings of the rendered interface description, to link each statement to its section. */
  descriptionHeadings: readonly HeadingEntry[];
  descriptionPage: string;
  decisionsPage: string;
}

/** The quote as text, with its code spans kept (the quote is the document's Markdown). */
function quoteHtml(quote: string): string {
  return escapeHtml(quote.trim()).replace(/`([^`]+)`/g, "<code>$1</code>");
}

function linkDecisionIds(html: string, decisionsPage: string): string {
  return html.replace(/\b(D\d{2})\b/g, (id) => `<a href="${decisionsPage}#${id.toLowerCase()}">${id}</a>`);
}

function encodingHtml(statement: Statement, decisionsPage: string): string {
  if (statement.encoding === "none") {
    return `none: ${linkDecisionIds(escapeHtml(statement.reason ?? "no reason given"), decisionsPage)}`;
  }
  const items = statement.encoding.map((check) => {
    const { check: kind, ...rest } = check as unknown as Record<string, unknown>;
    const detail = Object.keys(rest).length > 0 ? ` <code>${escapeHtml(JSON.stringify(rest))}</code>` : "";
    return `<li><strong>${escapeHtml(String(kind))}</strong>${detail}</li>`;
  });
  return `<ul class="coverage-list">${items.join("")}</ul>`;
}

function coverageHtml(statement: Statement, coverage: StatementCoverage | null): string {
  const checks: CoveringCheck[] = coverage?.byStatement.get(statement.id) ?? [];
  if (checks.length > 0) {
    const items = checks.map((check) => {
      const meta = [check.suite, check.profile].filter(Boolean).join(", ");
      return `<li><code>${escapeHtml(check.name)}</code>${check.title ? ` ${escapeHtml(check.title)}` : ""}${meta ? ` (${escapeHtml(meta)})` : ""}</li>`;
    });
    const list = `<ul class="coverage-list">${items.join("")}</ul>`;
    if (checks.length <= 4) return list;
    // Statements every check touches (the security scheme, content types) list dozens of checks.
    const profiles = [...new Set(checks.map((check) => check.profile).filter(Boolean))].map((profile) => `${checks.filter((check) => check.profile === profile).length} ${profile}`);
    return `<details><summary>${checks.length} checks${profiles.length > 0 ? ` (${profiles.join(", ")})` : ""}</summary>${list}</details>`;
  }
  if (!statement.wire) return `not checkable on the wire (a statement about the contract or its documentation, proven by the encoding checks)`;
  if (!coverage) return `<span class="coverage-none">coverage: not yet mapped</span>`;
  return `<span class="coverage-none">no conformance check names this statement</span>`;
}

export interface RenderedStatements {
  article: string;
  toc: TocEntry[];
  /** The statements shown, for the search index (one entry each). */
  statements: Statement[];
}

export function renderStatementsPage(input: StatementsPageInput): RenderedStatements {
  let raw: unknown;
  let parseProblem: string | null = null;
  try {
    raw = parse(input.yamlText);
  } catch (error) {
    parseProblem = error instanceof Error ? error.message : String(error);
  }
  const { statements, problems } = parseProblem ? { statements: [], problems: [parseProblem] } : validateCatalogue(raw);
  // A malformed catalogue still shows what can be shown, with the problems on top.
  const shown: Statement[] =
    statements.length > 0
      ? statements
      : Array.isArray(raw)
        ? (raw as Statement[]).filter((entry) => entry && typeof entry === "object" && typeof entry.id === "string")
        : [];

  const sections = new Map<string, Statement[]>();
  for (const statement of shown) {
    const key = String(statement.section ?? "(no section)");
    sections.set(key, [...(sections.get(key) ?? []), statement]);
  }

  const wire = shown.filter((statement) => statement.wire === true).length;
  const encoded = shown.filter((statement) => statement.encoding !== "none").length;
  const mapped = input.coverage ? shown.filter((statement) => statement.wire === true && (input.coverage!.byStatement.get(statement.id)?.length ?? 0) > 0).length : 0;
  const byFamily = ["A", "B", "both"].map((family) => `${family === "both" ? "both families" : `family ${family}`}: ${shown.filter((statement) => statement.family === family).length}`).join(", ");

  const parts: string[] = [];
  parts.push(`<h1 id="statement-catalogue">Statement catalogue</h1>`);
  parts.push(
    `<p>Every normative statement of the <a href="${input.descriptionPage}">interface description</a>, with a stable id, its text quoted verbatim, how the generated OpenAPI encodes it, and the conformance checks that enforce it on the wire. Where the description is silent, the <a href="${input.decisionsPage}">decision record</a> speaks instead; decisions are not statements.</p>`,
  );
  if (problems.length > 0) {
    parts.push(
      `<div class="notice notice-missing"><p>The catalogue <code>${escapeHtml(input.sourcePath)}</code> does not validate (${problems.length} problem${problems.length === 1 ? "" : "s"}); the entries below are shown as written.</p><ul>${problems
        .slice(0, 20)
        .map((problem) => `<li>${escapeHtml(problem)}</li>`)
        .join("")}</ul></div>`,
    );
  }
  const coverageNote = input.coverage
    ? `${mapped} of ${wire} wire statements are enforced by at least one conformance check (mapping from ${escapeHtml(input.coverage.source)}).`
    : `Conformance coverage: not yet mapped (the conformance suites do not publish their statement mapping yet).`;
  parts.push(`<h2 id="summary">Summary</h2>`);
  parts.push(
    `<p><strong>${shown.length}</strong> statements (${byFamily}). <strong>${encoded}</strong> are encoded in the OpenAPI and proven by the encoding checks; <strong>${wire}</strong> are observable on the wire. ${coverageNote}</p>`,
  );

  const toc: TocEntry[] = [{ id: "summary", text: "Summary" }];
  let sectionIndex = 0;
  for (const [section, list] of sections) {
    sectionIndex += 1;
    const id = `section-${sectionIndex}`;
    toc.push({ id, text: section });
    const anchor = anchorOfHeadingPath(input.descriptionHeadings, section);
    const sectionLink = anchor ? ` <a class="section-source" href="${input.descriptionPage}#${escapeHtml(anchor)}" title="This section of the interface description">read the section</a>` : "";
    parts.push(`<h2 id="${id}">${escapeHtml(section)}${sectionLink}</h2>`);
    for (const statement of list) {
      parts.push(`<section class="statement" id="${escapeHtml(statement.id)}">
<div class="statement-head"><a class="statement-id" href="#${escapeHtml(statement.id)}">${escapeHtml(statement.id)}</a><span class="statement-kind">${escapeHtml(String(statement.kind))} · ${statement.family === "both" ? "both families" : `family ${escapeHtml(String(statement.family))}`}</span></div>
<blockquote>${quoteHtml(String(statement.quote ?? ""))}</blockquote>
<dl>
<dt>OpenAPI encoding</dt><dd>${encodingHtml(statement, input.decisionsPage)}</dd>
<dt>On the wire</dt><dd>${statement.wire ? "observable" : "not observable"}</dd>
<dt>Conformance</dt><dd>${coverageHtml(statement, input.coverage)}</dd>
${statement.note ? `<dt>Note</dt><dd>${linkDecisionIds(escapeHtml(statement.note), input.decisionsPage)}</dd>` : ""}
</dl>
</section>`);
    }
  }
  return { article: parts.join("\n"), toc, statements: shown };
}

/**
 * Error codes the interface description states, per family reference id: the `errorCode` of
 * every encoding check of the catalogue. Null when the catalogue cannot be read.
 */
export function statedErrorCodes(yamlText: string): Map<string, Set<string>> | null {
  let raw: unknown;
  try {
    raw = parse(yamlText);
  } catch {
    return null;
  }
  const { statements } = validateCatalogue(raw);
  if (statements.length === 0) return null;
  const codes = new Map<string, Set<string>>(FAMILY_IDS.map((id) => [id, new Set<string>()]));
  for (const statement of statements) {
    for (const id of FAMILY_IDS) {
      for (const check of checksFor(statement, id)) {
        const { errorCode } = check as unknown as { errorCode?: unknown };
        if (typeof errorCode === "string" && errorCode.length > 0) codes.get(id)!.add(errorCode);
      }
    }
  }
  return codes;
}
