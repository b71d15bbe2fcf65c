/**
 * The statement catalogue: every normative statement of the interface description
 * (spec/source/interface-description.md), with a stable id, its quoted text and the checks
 * that prove the generated OpenAPI encodes it. The catalogue lives in spec/statements.yaml;
 * this module loads it, validates its shape and answers which checks apply to which document.
 * Conformance and the documentation map their checks to statement ids through it.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { CHECK_KINDS, type EncodingCheck } from "./encoding/index.ts";
import type { FamilyId } from "./model/layout.ts";
import { join } from "node:path";
import { CONTRACT_ROOT, FAMILY_IDS, isFamilyId } from "./model/layout.ts";

export const STATEMENTS_PATH = join(CONTRACT_ROOT, "spec/statements.yaml");
export const SOURCE_DOCUMENT_PATH = join(CONTRACT_ROOT, "spec/source/interface-description.md");

export const STATEMENT_KINDS = [
  "endpoint",
  "field",
  "enum",
  "status",
  "error-code",
  "header",
  "limit",
  "transition",
  "auth",
  "versioning",
  "event",
  "principle",
  "rule",
] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

export type StatementFamily = "A" | "B" | "both";

export interface Statement {
  /** Stable id: FAMILY-AREA-KIND-name, e.g. A-CHARGE-FIELD-amount. */
  id: string;
  family: StatementFamily;
  /** Heading path in the document: "H2" or "H2 > H3" (the H1 title for the introduction). */
  section: string;
  kind: StatementKind;
  /** Text of the document, verbatim after normaliseForQuote. */
  quote: string;
  /** How the generated OpenAPI encodes the statement, or "none" (then `reason` says why). */
  encoding: EncodingCheck[] | "none";
  reason?: string;
  /** Whether a conformance check can observe the statement in HTTP exchanges with a server. */
  wire: boolean;
  note?: string;
  /**
   * The generic conformance check classes (conformance/src/derived/) that enforce the statement
   * on every operation they reach, e.g. `tenant-isolation`. The conformance package reads its
   * classes' statements from here; it checks that each name is one of its classes.
   */
  enforcedBy?: string[];
}

/**
 * Statements whose family changed after their id was given; ids never change, so the prefix
 * keeps the old family. Id -> its family now, with the reason in the comment.
 */
export const ID_FAMILY_EXCEPTIONS: Record<string, string> = {
  // Issue #16: "Webhook events are signed with HMAC" speaks of family B's boleto events too.
  "A-EVENTS-EVENT-hmac": "both",
};

const ID_PATTERN = /^(A|B|AB)(-[A-Z0-9]+)+-[A-Za-z0-9][A-Za-z0-9._-]*$/;
const FAMILIES: readonly StatementFamily[] = ["A", "B", "both"];
const STATEMENT_KEYS = new Set(["id", "family", "section", "kind", "quote", "encoding", "reason", "wire", "note", "enforcedBy"]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Checks the shape of a parsed catalogue; returns the statements and every problem found. */
export function validateCatalogue(raw: unknown): { statements: Statement[]; problems: string[] } {
  const problems: string[] = [];
  if (!Array.isArray(raw)) return { statements: [], problems: ["the catalogue is not a list"] };
  const seen = new Set<string>();
  raw.forEach((entry, index) => {
    const where = isObject(entry) && typeof entry.id === "string" ? entry.id : `entry ${index}`;
    if (!isObject(entry)) {
      problems.push(`${where}: not a mapping`);
      return;
    }
    for (const key of Object.keys(entry)) if (!STATEMENT_KEYS.has(key)) problems.push(`${where}: unknown key ${key}`);
    if (typeof entry.id !== "string" || !ID_PATTERN.test(entry.id)) problems.push(`${where}: id must match ${ID_PATTERN}`);
    else if (seen.has(entry.id)) problems.push(`${where}: duplicate id`);
    else seen.add(entry.id);
    if (!FAMILIES.includes(entry.family as StatementFamily)) problems.push(`${where}: family must be one of ${FAMILIES.join(", ")}`);
    if (typeof entry.id === "string" && FAMILIES.includes(entry.family as StatementFamily)) {
      const expected = entry.family === "both" ? "AB" : entry.family;
      if (!entry.id.startsWith(`${expected}-`) && ID_FAMILY_EXCEPTIONS[entry.id] !== entry.family) problems.push(`${where}: id must start with ${expected}- for family ${entry.family}`);
    }
    if (typeof entry.section !== "string" || entry.section.length === 0) problems.push(`${where}: section missing`);
    if (!STATEMENT_KINDS.includes(entry.kind as StatementKind)) problems.push(`${where}: kind must be one of ${STATEMENT_KINDS.join(", ")}`);
    if (typeof entry.quote !== "string" || entry.quote.trim().length < 3) problems.push(`${where}: quote missing`);
    if (typeof entry.wire !== "boolean") problems.push(`${where}: wire must be true or false`);
    // Reports show the note as the reason a statement cannot be checked on the wire.
    if (entry.wire === false && (typeof entry.note !== "string" || entry.note.trim() === "")) problems.push(`${where}: wire false needs a note saying why`);
    if (entry.enforcedBy !== undefined) {
      if (!Array.isArray(entry.enforcedBy) || entry.enforcedBy.length === 0 || entry.enforcedBy.some((name) => typeof name !== "string" || !/^[a-z]+(-[a-z]+)*$/.test(name))) {
        problems.push(`${where}: enforcedBy must be a non-empty list of check class names (kebab-case)`);
      } else if (entry.wire === false) problems.push(`${where}: enforcedBy on a statement that is not on the wire`);
    }
    if (entry.encoding === "none") {
      if (typeof entry.reason !== "string" || entry.reason.length === 0) problems.push(`${where}: encoding none needs a reason`);
    } else if (!Array.isArray(entry.encoding) || entry.encoding.length === 0) {
      problems.push(`${where}: encoding must be a non-empty list of checks or "none"`);
    } else {
      entry.encoding.forEach((check, i) => {
        if (!isObject(check) || !CHECK_KINDS.includes(check.check as never)) {
          problems.push(`${where}: check ${i} has unknown kind ${isObject(check) ? String(check.check) : "?"}`);
        } else if (check.family !== undefined && !isFamilyId(check.family)) {
          problems.push(`${where}: check ${i} family must be one of ${FAMILY_IDS.join(", ")}`);
        } else if (check.family !== undefined && entry.family !== "both" && check.family !== familyOfStatement(entry.family as "A" | "B")) {
          problems.push(`${where}: check ${i} is for family ${check.family}, the statement for ${String(entry.family)}`);
        }
      });
    }
  });
  return { statements: problems.length === 0 ? (raw as Statement[]) : [], problems };
}

export function readCatalogue(path: string = STATEMENTS_PATH): unknown {
  return parse(readFileSync(path, "utf8"));
}

/** Loads and validates the catalogue; throws with every problem when it is malformed. */
export function loadStatements(path: string = STATEMENTS_PATH): Statement[] {
  const { statements, problems } = validateCatalogue(readCatalogue(path));
  if (problems.length > 0) throw new Error(`malformed statement catalogue ${path}:\n${problems.join("\n")}`);
  return statements;
}

/** The family a statement of family `A` or `B` (the catalogue's own names) speaks about. */
function familyOfStatement(family: "A" | "B"): FamilyId {
  return family === "A" ? "family-a" : "family-b";
}

/** Whether a statement speaks about a family's interface. */
export function statementAppliesTo(statement: Statement, family: FamilyId): boolean {
  return statement.family === "both" || familyOfStatement(statement.family) === family;
}

/**
 * The checks of a statement that apply to one family's documents: a check with `family` applies
 * to that family only; a check without it applies to every family the statement speaks about.
 */
export function checksFor(statement: Statement, family: FamilyId): EncodingCheck[] {
  if (statement.encoding === "none" || !statementAppliesTo(statement, family)) return [];
  return statement.encoding.filter((check) => check.family === undefined || check.family === family);
}

/**
 * Normalisation under which a quote must appear in the document: every run of whitespace
 * (line breaks included) becomes one space, and the spaces around a markdown table pipe
 * become exactly one on each side, so a table row may be quoted whatever its cell padding.
 * Nothing else changes: backticks, case and punctuation must match.
 */
export function normaliseForQuote(text: string): string {
  return text.replace(/\s+/g, " ").replace(/ ?\| ?/g, " | ").trim();
}

interface Heading {
  level: number;
  title: string;
  line: number;
}

function headings(markdown: string): Heading[] {
  const out: Heading[] = [];
  markdown.split("\n").forEach((text, line) => {
    const m = /^(#{1,6})\s+(.*?)\s*$/.exec(text);
    if (m) out.push({ level: m[1]!.length, title: m[2]!, line });
  });
  return out;
}

/**
 * The text of a section named by its heading path ("H2" or "H2 > H3"; the H1 title names the
 * introduction before the first H2). A section runs to the next heading of the same or a
 * higher level, so an H2 section includes its H3 subsections. Undefined when no such heading.
 */
export function sectionText(markdown: string, section: string): string | undefined {
  const lines = markdown.split("\n");
  const all = headings(markdown);
  /** Where a heading's section ends (the H1 title's section ends at the first H2). */
  const endOf = (h: Heading): number =>
    all.find((next) => next.line > h.line && next.level <= (h.level === 1 ? 2 : h.level))?.line ?? lines.length;
  let found: Heading | undefined;
  for (const title of section.split(" > ").map((s) => s.trim())) {
    const parent = found;
    found = all.find(
      (h) => h.title === title && (parent === undefined || (h.line > parent.line && h.line < endOf(parent) && h.level > parent.level)),
    );
    if (!found) return undefined;
  }
  if (!found) return undefined;
  // The heading line is part of the section: some headings state something ("prefix /v1").
  return lines.slice(found.line, endOf(found)).join("\n");
}

/** Whether a quote appears verbatim (after normaliseForQuote) in a text. */
export function quoteAppears(text: string, quote: string): boolean {
  return normaliseForQuote(text).includes(normaliseForQuote(quote));
}
