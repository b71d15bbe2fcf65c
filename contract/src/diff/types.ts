/**
 * The vocabulary of the contract diff: a change, its verdict, the rule that classified it.
 * Kept free of any I/O so the engine stays a library (the CLI, the gate and the portal page
 * are thin users of it).
 */

/** breaking: an existing client may fail; compatible: existing clients keep working; informational: worth a changelog line, no effect on clients. */
export type Verdict = "breaking" | "compatible" | "informational";

/** Which way data flows for the schema being compared: what clients send, or what the service sends. */
export type Side = "request" | "response";

/**
 * A classification rule. Ids follow oasdiff's checker ids where one exists (so a reader who
 * knows oasdiff knows the rule); `anchor` names what the verdict rests on: a clause of the
 * interface description's "Versioning" (or "Errors", "Authentication") section, or the common
 * rule set the verdict is taken from.
 */
export interface Rule {
  id: string;
  verdict: Verdict;
  anchor: string;
  /** Rule family: the module that owns the rule. */
  family: string;
}

/** One classified change between the base and the head document. */
export interface Change {
  rule: string;
  verdict: Verdict;
  /** The family the document describes (family-a, family-b, or the file's name for a lone document). */
  family: string;
  /** `METHOD /path` (or `WEBHOOK name`) the change affects; absent for document-wide changes. */
  operation?: string;
  /**
   * JSON pointer (RFC 6901) of the changed node, along the operation: it crosses `$ref`s as if
   * they were inlined, so it resolves in the generated `*.dereferenced.json`. It points into the
   * head document, or into the base for something removed.
   */
  pointer: string;
  /** Where the change really lies when it was reached through a `$ref` (`#/components/schemas/Charge/properties/status`). */
  origin?: string;
  /** One line, for people. */
  message: string;
}

export function defineRule(family: string, id: string, verdict: Verdict, anchor: string): Rule {
  return { id, verdict, anchor, family };
}

/** Escapes one JSON pointer segment. */
export function pointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, "~0").replace(/\//g, "~1");
}

export function joinPointer(base: string, ...segments: Array<string | number>): string {
  return segments.reduce<string>((pointer, segment) => `${pointer}/${pointerSegment(segment)}`, base);
}
