/**
 * The decision record (docs/decisions.md) as data, and the decision markings of a generated
 * OpenAPI document. The docs portal renders the record from here; the conformance runner
 * uses it to tell the document's word from the project's choices.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CONTRACT_ROOT } from "./model/layout.ts";

export type DecisionStatus = "decided" | "left open";

export interface DecisionEntry {
  /** `D01` .. `Dnn`. */
  id: string;
  title: string;
  /** The blockquote as written: one or more verbatim fragments of the document joined by " … ". */
  quote: string;
  /** The verbatim fragments of the interface description that the quote is made of. */
  quotes: string[];
  status: DecisionStatus;
  decision: string;
  why: string;
  follows: string;
  inContract: string;
}

export const DECISION_RECORD_PATH = "docs/decisions.md";

/** Separator between verbatim fragments inside one blockquote (an ellipsis marks the omission). */
export const QUOTE_FRAGMENT_SEPARATOR = " … ";

const ENTRY_HEADING = /^## (D\d{2}) · (.+)$/;
const FIELD_LINE = /^- \*\*(Status|Decision|Why|Follows|In the contract):\*\* ?(.*)$/;

const FIELD_KEYS = {
  Status: "status",
  Decision: "decision",
  Why: "why",
  Follows: "follows",
  "In the contract": "inContract",
} as const;

type FieldLabel = keyof typeof FIELD_KEYS;

/** Thrown when the record does not follow its format; the message names the entry and the problem. */
export class DecisionRecordError extends Error {}

/**
 * Parses the record. An entry starts at a `## Dnn · Title` heading and ends at the next
 * `## ` heading; it holds one blockquote (the document's text) and the five fields, each a
 * `- **Label:** text` item whose text may continue on lines indented by two spaces.
 */
export function parseDecisionRecord(markdown: string): DecisionEntry[] {
  const entries: DecisionEntry[] = [];
  const lines = markdown.split(/\r?\n/);
  let index = 0;
  while (index < lines.length) {
    const heading = ENTRY_HEADING.exec(lines[index]!);
    index += 1;
    if (!heading) continue;
    const body: string[] = [];
    while (index < lines.length && !lines[index]!.startsWith("## ")) {
      body.push(lines[index]!);
      index += 1;
    }
    entries.push(parseEntry(heading[1]!, heading[2]!.trim(), body));
  }
  return entries;
}

function parseEntry(id: string, title: string, body: string[]): DecisionEntry {
  const quoteLines = body.filter((line) => line.startsWith(">")).map((line) => line.replace(/^>\s?/, "").trim());
  const quote = quoteLines.filter((line) => line.length > 0).join(" ");
  const fields = new Map<FieldLabel, string>();
  let current: FieldLabel | undefined;
  for (const line of body) {
    const field = FIELD_LINE.exec(line);
    if (field) {
      current = field[1] as FieldLabel;
      if (fields.has(current)) throw new DecisionRecordError(`${id}: field "${current}" appears twice`);
      fields.set(current, field[2]!.trim());
    } else if (current && /^ {2,}\S/.test(line)) {
      fields.set(current, `${fields.get(current)} ${line.trim()}`.trim());
    } else {
      current = undefined;
    }
  }
  const value = (label: FieldLabel): string => {
    const text = fields.get(label);
    if (text === undefined) throw new DecisionRecordError(`${id}: field "${label}" is missing`);
    return text;
  };
  const status = value("Status");
  if (status !== "decided" && status !== "left open") {
    throw new DecisionRecordError(`${id}: status must be "decided" or "left open", not "${status}"`);
  }
  return {
    id,
    title,
    quote,
    quotes: quote
      .split(QUOTE_FRAGMENT_SEPARATOR)
      .map((fragment) => fragment.trim())
      .filter((fragment) => fragment.length > 0),
    status,
    decision: value("Decision"),
    why: value("Why"),
    follows: value("Follows"),
    inContract: value("In the contract"),
  };
}

const ROOT = CONTRACT_ROOT;

/** Reads and parses docs/decisions.md of this package. */
export function loadDecisionRecord(root: string = ROOT): DecisionEntry[] {
  return parseDecisionRecord(readFileSync(resolve(root, DECISION_RECORD_PATH), "utf8"));
}

/** Whether the entry says its contract part is still to come (webhooks, deprecation). */
export function isNotYetModelled(entry: DecisionEntry): boolean {
  return /not yet modelled/i.test(entry.inContract);
}

/** One place in an OpenAPI document that names a decision. */
export interface DecisionMarking {
  decision: string;
  /** JSON pointer of the object that carries the extension. */
  pointer: string;
  /** The extension: `x-decision`, `x-decided`, `x-decided-responses`, `x-decided-parameters`, ... */
  extension: string;
}

const DECISION_ID = /^D\d{2}$/;
const MARKING_EXTENSION = /^x-decision$|^x-decided(-|$)/;

function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Every decision id named by a marking anywhere in an OpenAPI document: `x-decision`,
 * `x-decided[].decision`, `x-decided-responses.*.decision`, `x-decided-parameters.*` and any
 * later `x-decided-*` extension. Descriptions that mention an id are not markings.
 */
export function collectDecisionMarkings(document: unknown): DecisionMarking[] {
  const markings: DecisionMarking[] = [];
  const idsIn = (value: unknown, found: string[]): string[] => {
    if (typeof value === "string") {
      if (DECISION_ID.test(value)) found.push(value);
    } else if (Array.isArray(value)) {
      for (const item of value) idsIn(item, found);
    } else if (value && typeof value === "object") {
      for (const item of Object.values(value)) idsIn(item, found);
    }
    return found;
  };
  const walk = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, position) => walk(item, `${pointer}/${position}`));
      return;
    }
    if (!node || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (MARKING_EXTENSION.test(key)) {
        for (const decision of idsIn(value, [])) markings.push({ decision, pointer, extension: key });
      }
      walk(value, `${pointer}/${escapePointer(key)}`);
    }
  };
  walk(document, "");
  return markings;
}
