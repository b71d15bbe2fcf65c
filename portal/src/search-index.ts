/**
 * The portal's search index: one entry per section of every project page, per statement of
 * the catalogue, and per operation of every reference (so that an error code such as
 * IDEMPOTENCY_KEY_REQUIRED or ODE002 leads both to the operations that return it and to the
 * pages that discuss it). Written as a script that sets window.PORTAL_SEARCH_INDEX, so the
 * search also works from file://.
 */
import { isObject, operationsOf, type Json as JsonObject } from "@payment-collection/contract/model/index.ts";
import { redocOperationAnchor } from "./redoc-anchor.ts";
import type { PageSection } from "./markdown.ts";
import type { ReferenceSource } from "./references.ts";

export interface SearchEntry {
  /** Title. */
  t: string;
  /** URL, relative to the portal root. */
  u: string;
  /** Kind label shown next to the hit. */
  k: string;
  /** Searchable text. */
  x: string;
}

export function pageEntries(file: string, pageTitle: string, label: string, sections: readonly PageSection[]): SearchEntry[] {
  return sections.map((section) => ({
    t: section.title === pageTitle || section.id === "" ? pageTitle : `${pageTitle} › ${section.title}`,
    u: section.id ? `${file}#${section.id}` : file,
    k: label,
    x: section.text,
  }));
}

/** Keys whose string values describe an operation (examples are left out: they are data). */
const TEXT_KEYS = new Set(["operationId", "summary", "description", "name", "title"]);
const SKIPPED_KEYS = new Set(["example", "examples", "x-codeSamples"]);

/** Distinct words of documentation inside an operation: descriptions, names, enum values, status codes. */
function operationText(operation: JsonObject): string {
  const pieces = new Set<string>();
  const walk = (node: unknown, key: string): void => {
    if (SKIPPED_KEYS.has(key)) return;
    if (typeof node === "string") {
      if (TEXT_KEYS.has(key) || key === "enum" || key === "const" || /^D\d{2}$/.test(node)) pieces.add(node);
      return;
    }
    if (Array.isArray(node)) {
      for (const item of node) walk(item, key);
      return;
    }
    if (!isObject(node)) return;
    for (const [childKey, child] of Object.entries(node)) {
      if (key === "responses" || key === "properties") pieces.add(childKey);
      walk(child, childKey);
    }
  };
  walk(operation, "");
  return [...pieces].join(" · ").replace(/\s+/g, " ");
}

export function referenceEntries(reference: ReferenceSource): SearchEntry[] {
  if (!reference.dereferenced) return [];
  return operationsOf(reference.dereferenced).map((entry) => ({
    t: `${entry.summary || entry.operationId} · ${entry.method} ${entry.path}`,
    u: `${reference.file}#${redocOperationAnchor(entry)}`,
    k: `${reference.label} reference`,
    x: operationText(entry.operation),
  }));
}

export function searchIndexScript(entries: readonly SearchEntry[]): string {
  return `window.PORTAL_SEARCH_INDEX = ${JSON.stringify(entries)};\n`;
}
