/**
 * The decision record (docs/decisions.md) against the interface description and the
 * generated OpenAPI: every quote is the document's, every "not shown" of the document is
 * answered, and the record and the spec's decision markings cannot drift apart.
 * Needs `npm run build` first (reads generated/).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import {
  collectDecisionMarkings,
  isNotYetModelled,
  loadDecisionRecord,
  parseDecisionRecord,
  type DecisionEntry,
  type DecisionMarking,
} from "../src/decisions.ts";
import { FAMILIES, OPENAPI_VERSIONS, openapiPath } from "../src/model/layout.ts";
import { CONTRACT_ROOT } from "../src/model/layout.ts";

const ROOT = CONTRACT_ROOT;
const DOCUMENT_PATH = resolve(ROOT, "spec/source/interface-description.md");

/**
 * Decided entries whose marking the spec does not carry yet (reported to the spec owner with
 * the exact TypeSpec change). Each must still be unmarked: once the spec marks one, this test
 * fails until the id is removed here, so the list can only shrink.
 */
const AWAITING_SPEC_MARKING = [] as const;

const NOT_SHOWN = /not shown|none shown/i;

function normalise(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * The part of a document line that says "not shown": a table row as a whole, otherwise the
 * sentence(s) of the line that contain the phrase.
 */
function notShownSentence(line: string): string {
  const text = normalise(line);
  if (text.startsWith("|")) return text;
  return text
    .split(/(?<=\.)\s+(?=[A-Z`])/)
    .filter((sentence) => NOT_SHOWN.test(sentence))
    .join(" ");
}

let documentText: string;
let entries: DecisionEntry[];
let markings: Array<DecisionMarking & { file: string }>;

beforeAll(() => {
  documentText = readFileSync(DOCUMENT_PATH, "utf8");
  entries = loadDecisionRecord(ROOT);
  markings = [];
  for (const version of OPENAPI_VERSIONS) {
    for (const family of FAMILIES) {
      const file = openapiPath(version.id, family.id, "json");
      const path = resolve(ROOT, "generated", file);
      if (!existsSync(path)) throw new Error(`generated/${file} is missing: run npm run build first`);
      const document = JSON.parse(readFileSync(path, "utf8"));
      for (const marking of collectDecisionMarkings(document)) markings.push({ ...marking, file });
    }
  }
});

function markedIds(): Set<string> {
  return new Set(markings.map((marking) => marking.decision));
}

describe("decision record", () => {
  it("parses into entries with unique, contiguous ids and every field filled", () => {
    expect(entries.length).toBeGreaterThan(0);
    entries.forEach((entry, position) => {
      expect(entry.id, `entry ${position + 1}`).toBe(`D${String(position + 1).padStart(2, "0")}`);
      for (const field of ["title", "quote", "decision", "why", "follows", "inContract"] as const) {
        expect(entry[field].trim(), `${entry.id}: ${field}`).not.toBe("");
      }
      expect(entry.quotes.length, `${entry.id}: quote fragments`).toBeGreaterThan(0);
      expect(["decided", "left open"]).toContain(entry.status);
    });
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
  });

  it("rejects an entry that lacks a field or has an unknown status", () => {
    const entry = "## D01 · Title\n> quote\n\n- **Status:** decided\n- **Decision:** d\n- **Why:** w\n- **Follows:** f\n";
    expect(() => parseDecisionRecord(entry)).toThrow(/In the contract/);
    expect(() => parseDecisionRecord(`${entry}- **In the contract:** c\n`.replace("decided", "maybe"))).toThrow(
      /status/,
    );
  });

  it("quotes the interface description verbatim", () => {
    const document = normalise(documentText);
    const misquoted = entries.flatMap((entry) =>
      entry.quotes.filter((fragment) => !document.includes(normalise(fragment))).map((fragment) => `${entry.id}: "${fragment}"`),
    );
    expect(misquoted, `quotes not found in the document:\n${misquoted.join("\n")}`).toEqual([]);
  });

  it('answers every "not shown" and "none shown" of the document', () => {
    const fragments = entries.flatMap((entry) => entry.quotes.map(normalise));
    const lines = documentText.split(/\r?\n/).map((line, index) => ({ number: index + 1, line }));
    const notShownLines = lines.filter(({ line }) => NOT_SHOWN.test(line));
    expect(notShownLines.length).toBeGreaterThan(0);
    const uncovered = notShownLines.filter(({ line }) => {
      const sentence = notShownSentence(line);
      return !fragments.some(
        (fragment) => fragment.includes(sentence) || (sentence.includes(fragment) && NOT_SHOWN.test(fragment)),
      );
    });
    expect(
      uncovered.map(({ number, line }) => `line ${number}: ${normalise(line)}`),
      "document lines no entry quotes",
    ).toEqual([]);
  });
});

describe("decision record and generated OpenAPI", () => {
  it("has an entry for every decision id the OpenAPI marks", () => {
    const known = new Set(entries.map((entry) => entry.id));
    const unknown = markings.filter((marking) => !known.has(marking.decision));
    expect(
      unknown.map((marking) => `${marking.decision} at ${marking.file}#${marking.pointer} (${marking.extension})`),
    ).toEqual([]);
  });

  it("finds a marking for every decided entry that the contract models", () => {
    const marked = markedIds();
    const awaiting = new Set<string>(AWAITING_SPEC_MARKING);
    const unmarked = entries
      .filter((entry) => entry.status === "decided" && !isNotYetModelled(entry) && !awaiting.has(entry.id))
      .filter((entry) => !marked.has(entry.id))
      .map((entry) => `${entry.id} · ${entry.title}`);
    expect(unmarked, "decided entries with no marking in any generated OpenAPI document").toEqual([]);
  });

  it("keeps the list of entries awaiting a spec marking exact", () => {
    const marked = markedIds();
    for (const id of AWAITING_SPEC_MARKING) {
      const entry = entries.find((candidate) => candidate.id === id);
      expect(entry, `${id} is in the record`).toBeDefined();
      expect(entry!.status, `${id} is decided`).toBe("decided");
      expect(isNotYetModelled(entry!), `${id} is modelled`).toBe(false);
      expect(marked.has(id), `${id} is now marked in the spec: remove it from AWAITING_SPEC_MARKING`).toBe(false);
    }
  });

  it("marks nothing for entries left open or not yet modelled", () => {
    const marked = markedIds();
    const drifted = entries
      .filter((entry) => entry.status === "left open" || isNotYetModelled(entry))
      .filter((entry) => marked.has(entry.id))
      .map((entry) => `${entry.id} (${entry.status}${isNotYetModelled(entry) ? ", not yet modelled" : ""})`);
    expect(drifted, "the OpenAPI marks these, so the record must say how the contract models them").toEqual([]);
  });

  it("reports its counts", () => {
    const perDecision = new Map<string, number>();
    for (const marking of markings) perDecision.set(marking.decision, (perDecision.get(marking.decision) ?? 0) + 1);
    const decided = entries.filter((entry) => entry.status === "decided").length;
    const notYetModelled = entries.filter(isNotYetModelled).map((entry) => entry.id);
    console.log(
      [
        `decisions: ${entries.length}, decided: ${decided}, left open: ${entries.length - decided}`,
        `not yet modelled: ${notYetModelled.join(" ") || "none"}; awaiting a spec marking: ${AWAITING_SPEC_MARKING.join(" ")}`,
        `markings in the ${OPENAPI_VERSIONS.length * FAMILIES.length} generated documents: ${markings.length}`,
        `per decision: ${entries.map((entry) => `${entry.id}=${perDecision.get(entry.id) ?? 0}`).join(" ")}`,
      ].join("\n"),
    );
    expect(markings.length).toBeGreaterThan(0);
  });
});
