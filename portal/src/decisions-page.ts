/**
 * The decision record page: docs/decisions.md rendered as written, with two derived additions:
 * an index of the entries (id, title, status, how many contract elements carry the marking),
 * and under each entry the operations of the references where the decision shows.
 */
import { collectDecisionMarkings, parseDecisionRecord, type DecisionEntry } from "@payment-collection/contract/decisions.ts";
import { escapeHtml } from "./html.ts";
import { decisionAnchor } from "./markdown.ts";
import { operationsOf } from "@payment-collection/contract/model/index.ts";
import { redocOperationAnchor } from "./redoc-anchor.ts";
import type { ReferenceSource } from "./references.ts";

export interface DecisionUsage {
  /** Marked elements (distinct JSON pointers) per reference id. */
  elements: Map<string, number>;
  /** Operation links where the decision shows. */
  operations: string[];
}

/** Where each decision shows in the references. */
export function decisionUsage(references: readonly ReferenceSource[]): Map<string, DecisionUsage> {
  const usage = new Map<string, DecisionUsage>();
  const entry = (id: string): DecisionUsage => {
    let found = usage.get(id);
    if (!found) usage.set(id, (found = { elements: new Map(), operations: [] }));
    return found;
  };
  for (const reference of references) {
    if (!reference.document || !reference.dereferenced) continue;
    const pointers = new Map<string, Set<string>>();
    for (const marking of collectDecisionMarkings(reference.document)) {
      const set = pointers.get(marking.decision) ?? new Set<string>();
      set.add(marking.pointer);
      pointers.set(marking.decision, set);
    }
    for (const [id, set] of pointers) entry(id).elements.set(reference.id, set.size);
    for (const operation of operationsOf(reference.dereferenced)) {
      const ids = new Set(collectDecisionMarkings(operation.operation).map((marking) => marking.decision));
      for (const id of ids) {
        entry(id).operations.push(`<a href="${reference.file}#${redocOperationAnchor(operation)}">${escapeHtml(operation.operationId)}</a>`);
      }
    }
  }
  return usage;
}

/** Record entries, or an empty list when the record does not follow its format (the page still renders). */
export function safeParseRecord(markdown: string): { entries: DecisionEntry[]; problem: string | null } {
  try {
    return { entries: parseDecisionRecord(markdown), problem: null };
  } catch (error) {
    return { entries: [], problem: error instanceof Error ? error.message : String(error) };
  }
}

function usageLine(id: string, usage: Map<string, DecisionUsage>, references: readonly ReferenceSource[]): string {
  const found = usage.get(id);
  if (!found || (found.elements.size === 0 && found.operations.length === 0)) {
    return `<p class="decision-usage">No element of the generated OpenAPI carries this decision's marking.</p>`;
  }
  const counts = references
    .filter((reference) => found.elements.has(reference.id))
    .map((reference) => `${escapeHtml(reference.title)}: ${found.elements.get(reference.id)} marked element${found.elements.get(reference.id) === 1 ? "" : "s"}`)
    .join("; ");
  const operations = found.operations.length > 0 ? ` Shows in ${found.operations.join(", ")}.` : "";
  return `<p class="decision-usage">In the contract: ${counts || "no marked element"}.${operations}</p>`;
}

/**
 * Adds the index and the usage lines to the record's Markdown. HTML blocks are inserted on
 * their own, between blank lines, so the record's own Markdown is untouched.
 */
export function enrichDecisionRecord(markdown: string, references: readonly ReferenceSource[], decisionsPage: string): string {
  const { entries } = safeParseRecord(markdown);
  const usage = decisionUsage(references);
  const lines = markdown.split(/\r?\n/);
  const out: string[] = [];
  let current: string | null = null;
  let indexWritten = false;
  const flush = (): void => {
    if (current) out.push("", usageLine(current, usage, references), "");
  };
  for (const line of lines) {
    const heading = /^## (D\d{2})\b/.exec(line);
    if (line.startsWith("## ")) {
      flush();
      current = heading ? heading[1]! : null;
      if (heading && !indexWritten && entries.length > 0) {
        out.push("## Index of decisions", "", indexTable(entries, usage, decisionsPage), "");
        indexWritten = true;
      }
    }
    out.push(line);
  }
  flush();
  return out.join("\n");
}

function indexTable(entries: readonly DecisionEntry[], usage: Map<string, DecisionUsage>, decisionsPage: string): string {
  const rows = entries.map((entry) => {
    const found = usage.get(entry.id);
    const marked = found ? [...found.elements.values()].reduce((sum, count) => sum + count, 0) : 0;
    return `<tr><td><a href="${decisionsPage}#${decisionAnchor(entry.id)}">${entry.id}</a></td><td>${escapeHtml(entry.title)}</td><td>${escapeHtml(entry.status)}</td><td>${marked}</td></tr>`;
  });
  return `<table>\n<thead><tr><th>Id</th><th>Decision</th><th>Status</th><th>Marked elements</th></tr></thead>\n<tbody>\n${rows.join("\n")}\n</tbody>\n</table>`;
}
