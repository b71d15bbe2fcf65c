/**
 * Makes the contract's decision markings visible in the rendered reference. The generated
 * OpenAPI marks decided elements with vendor extensions (x-basis/x-decision, x-decided,
 * x-decided-responses, x-decided-parameters) that Redoc does not display; this module works
 * on a copy of the document and writes a "Project decision Dnn" badge, linked to the
 * decision record, into the description of every marked element. generated/ is never edited.
 */
import { collectDecisionMarkings } from "@payment-collection/contract/decisions.ts";
import { decisionAnchor } from "./markdown.ts";
import { deref, isObject, operationsOf, type Json as JsonObject } from "@payment-collection/contract/model/index.ts";

export interface DecisionLinks {
  /** URL of the decision record page (relative to the reference page). */
  page: string;
  /** Titles of the decisions by id, when the record exists (shown on hover and in summaries). */
  titles: ReadonlyMap<string, string>;
}

interface DecidedMarking {
  decision: string;
  keywords?: string[];
  about?: string;
}

const ASPECT_WORDS: Record<string, string> = {
  status: "status code",
  "content-type": "content type",
  body: "body shape",
};

function badge(links: DecisionLinks, decision: string, detail?: string): string {
  const title = links.titles.get(decision);
  const titleAttribute = title ? ` title="${escapeAttribute(`${decision} · ${title}`)}"` : "";
  const text = `Project decision ${decision}${detail ? `: ${detail}` : ""}`;
  return `<a class="decision-badge" href="${links.page}#${decisionAnchor(decision)}"${titleAttribute}>${text}</a>`;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

function prependToDescription(node: JsonObject, line: string): void {
  const current = typeof node.description === "string" ? node.description.trim() : "";
  node.description = current.length > 0 ? `${line}\n\n${current}` : line;
}

/** Extensions handled per operation (they name responses and parameters, not the object itself). */
const OPERATION_MARKINGS = new Set(["x-decided-responses", "x-decided-parameters"]);

/** What a badge says after the id: the decided keywords, or what the decision is about. */
function markingDetail(entry: DecidedMarking): string | undefined {
  if (Array.isArray(entry.keywords) && entry.keywords.length > 0) return entry.keywords.join(", ");
  if (typeof entry.about === "string" && entry.about.length > 0) return entry.about;
  return undefined;
}

/**
 * Badges of the markings carried by one object itself (not by its children): `x-basis:
 * decision` + `x-decision`, `x-decided` (keywords) and any later `x-decided-*` extension
 * (e.g. `x-decided-behaviour`, entries `{decision, about}`).
 */
function ownBadges(node: JsonObject, links: DecisionLinks, skip: ReadonlySet<string>): { html: string[]; ids: string[] } {
  const html: string[] = [];
  const ids: string[] = [];
  if (node["x-basis"] === "decision" && typeof node["x-decision"] === "string" && !skip.has(node["x-decision"])) {
    html.push(badge(links, node["x-decision"]));
    ids.push(node["x-decision"]);
  }
  for (const [key, value] of Object.entries(node)) {
    if (!/^x-decided(-|$)/.test(key) || OPERATION_MARKINGS.has(key)) continue;
    const entries = (Array.isArray(value) ? value : [value]) as DecidedMarking[];
    for (const entry of entries) {
      if (!isObject(entry) || typeof entry.decision !== "string" || skip.has(entry.decision) || ids.includes(entry.decision)) continue;
      html.push(badge(links, entry.decision, markingDetail(entry)));
      ids.push(entry.decision);
    }
  }
  return { html, ids };
}

/**
 * Links decision ids and the record's file name already written in descriptions. Code spans
 * are left alone.
 */
export function linkDecisionMentions(markdown: string, links: DecisionLinks): string {
  return markdown
    .split(/(`[^`]*`)/)
    .map((piece) =>
      piece.startsWith("`")
        ? piece
        : piece
            .replace(/\b(D\d{2})\b/g, (id) => `[${id}](${links.page}#${decisionAnchor(id)})`)
            .replace(/\bdocs\/decisions\.md\b/g, `[docs/decisions.md](${links.page})`),
    )
    .join("");
}

/** Keys whose values are data (examples, defaults, enum values), never documentation to decorate. */
const DATA_KEYS = new Set(["example", "examples", "default", "enum", "const", "x-codeSamples"]);

function walk(node: unknown, visit: (object: JsonObject) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit);
    return;
  }
  if (!isObject(node)) return;
  visit(node);
  for (const [key, child] of Object.entries(node)) {
    if (!DATA_KEYS.has(key)) walk(child, visit);
  }
}

/**
 * Returns a decorated copy of `document`:
 * - every description mentioning `Dnn` links it to the decision record;
 * - every element with `x-basis: decision` or `x-decided` gets badges in its description
 *   (a parameter's or header's schema does not repeat its parent's badge);
 * - every decided response and decided parameter of an operation gets a badge;
 * - every operation lists the decisions found anywhere inside it (a line at the top of its
 *   description), and states its required scopes.
 */
export function decorateWithDecisions(document: JsonObject, dereferenced: JsonObject, links: DecisionLinks): JsonObject {
  const copy = structuredClone(document);

  walk(copy, (object) => {
    if (typeof object.description === "string") object.description = linkDecisionMentions(object.description, links);
  });

  // Element markings. Parameters and headers carry the same marking as their schema: show it once.
  const shownOnParent = new WeakMap<JsonObject, Set<string>>();
  walk(copy, (object) => {
    const skip = shownOnParent.get(object) ?? new Set<string>();
    const { html, ids } = ownBadges(object, links, skip);
    if (html.length === 0) return;
    prependToDescription(object, html.join(" "));
    if (isObject(object.schema)) shownOnParent.set(object.schema, new Set([...skip, ...ids]));
  });

  // The dereferenced twin of each operation: its markings include those of shared components.
  const resolvedOperations = new Map(operationsOf(dereferenced).map((op) => [`${op.method} ${op.path}`, op.operation]));
  for (const entry of operationsOf(copy)) {
    decorateOperation(copy, entry.operation, links);
    summariseOperation(entry.operation, resolvedOperations.get(`${entry.method} ${entry.path}`), links);
  }

  const marked = decisionsMarkedIn(document);
  if (isObject(copy.info) && marked.length > 0) {
    const info = copy.info;
    info.description = `${typeof info.description === "string" ? info.description : ""}\n\n${markingLegend(links, marked[0]!)}`.trim();
  }
  return copy;
}

function decorateOperation(document: JsonObject, operation: JsonObject, links: DecisionLinks): void {
  const decidedResponses = operation["x-decided-responses"];
  const responses = isObject(operation.responses) ? operation.responses : {};
  if (isObject(decidedResponses)) {
    for (const [status, marking] of Object.entries(decidedResponses)) {
      if (!isObject(marking) || typeof marking.decision !== "string") continue;
      const response = responses[status];
      if (!isObject(response)) continue;
      const target = typeof response.$ref === "string" ? localCopy(document, response, (copy) => (responses[status] = copy)) : response;
      const aspects = Array.isArray(marking.aspects) ? (marking.aspects as string[]).map((aspect) => ASPECT_WORDS[aspect] ?? aspect) : [];
      prependToDescription(target, badge(links, marking.decision, aspects.join(", ") || undefined));
    }
  }

  const decidedParameters = operation["x-decided-parameters"];
  if (isObject(decidedParameters) && Array.isArray(operation.parameters)) {
    const parameters = operation.parameters as JsonObject[];
    parameters.forEach((parameter, position) => {
      // The contract model follows the `$ref` (and a chain of them): a parameter without one is itself.
      const resolved = deref(document, parameter);
      if (!isObject(resolved) || typeof resolved.name !== "string") return;
      const decision = decidedParameters[resolved.name];
      if (typeof decision !== "string") return;
      if (resolved["x-decision"] === decision) return; // already badged as an element
      const target = parameter === resolved ? parameter : localCopy(document, parameter, (copy) => (parameters[position] = copy));
      prependToDescription(target, badge(links, decision, "parameter"));
    });
  }
}

/** Replaces a `$ref` by a local copy of its target, so that an operation-specific badge stays on that operation. */
function localCopy(document: JsonObject, reference: JsonObject, replace: (copy: JsonObject) => void): JsonObject {
  const target = deref(document, reference);
  const copy = isObject(target) ? structuredClone(target) : {};
  replace(copy);
  return copy;
}

function summariseOperation(operation: JsonObject, resolved: unknown, links: DecisionLinks): void {
  const lines: string[] = [];
  const scopes = operation["x-required-scopes"];
  if (Array.isArray(scopes) && scopes.length > 0) {
    lines.push(`**Required scope${scopes.length > 1 ? "s" : ""} of the API key:** ${scopes.map((scope) => `\`${String(scope)}\``).join(", ")}`);
  }
  const decisions = [...new Set(collectDecisionMarkings(resolved ?? operation).map((marking) => marking.decision))].sort();
  if (decisions.length > 0) {
    const items = decisions.map((id) => {
      const title = links.titles.get(id);
      return `[${id}](${links.page}#${decisionAnchor(id)})${title ? ` (${title})` : ""}`;
    });
    lines.push(`**Project decisions in this operation:** ${items.join("; ")}. Elements that come from them carry a badge.`);
  }
  if (lines.length > 0) prependToDescription(operation, lines.join("\n\n"));
}

function markingLegend(links: DecisionLinks, sampleDecision: string): string {
  return [
    "### Reading this reference",
    "",
    "The interface description is the authority. Where it says \"not shown\", the project decided and recorded the",
    `choice in the [decision record](${links.page}). Every element that comes from such a decision carries a badge`,
    `like ${badge(links, sampleDecision)}: it names the decision and, when only some keywords of an element are`,
    "decided (an enum, a pattern, a bound), which ones. Elements without a badge are the document's word.",
  ].join("\n");
}

/** Every decision id marked in a document (for tests and the build report). */
export function decisionsMarkedIn(document: unknown): string[] {
  return [...new Set(collectDecisionMarkings(document).map((marking) => marking.decision))].sort();
}
