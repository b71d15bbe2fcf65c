/**
 * What every rule module works with: the two documents, the family, the operation being
 * compared, and `emit` to record a classified change. Locations (`Loc`) carry a node with its
 * JSON pointer along the operation and, once a `$ref` was crossed, its origin in components.
 */
import { isObject, type Json } from "../model/json.ts";
import { deref } from "../model/refs.ts";
import { joinPointer, type Change, type Rule } from "./types.ts";

export interface Loc {
  node: unknown;
  pointer: string;
  origin?: string;
}

export function child(loc: Loc, ...segments: Array<string | number>): Loc {
  let node: unknown = loc.node;
  for (const segment of segments) node = isObject(node) || Array.isArray(node) ? (node as Json)[segment as string] : undefined;
  return { node, pointer: joinPointer(loc.pointer, ...segments), origin: loc.origin === undefined ? undefined : joinPointer(loc.origin, ...segments) };
}

export class DiffContext {
  readonly changes: Change[] = [];
  operation: string | undefined;

  constructor(
    readonly base: Json,
    readonly head: Json,
    readonly family: string,
  ) {}

  emit(rule: Rule, at: Loc, message: string): void {
    const change: Change = { rule: rule.id, verdict: rule.verdict, family: this.family, pointer: at.pointer, message };
    if (this.operation) change.operation = this.operation;
    if (at.origin) change.origin = at.origin;
    this.changes.push(change);
  }

  /** Follows `$ref`s of a node of the base (`which` = "base") or head document; the origin becomes the last `$ref`. */
  resolve(which: "base" | "head", loc: Loc): Loc {
    const document = which === "base" ? this.base : this.head;
    let node = loc.node;
    let origin = loc.origin;
    const seen = new Set<string>();
    while (isObject(node) && typeof node.$ref === "string" && !seen.has(node.$ref)) {
      seen.add(node.$ref);
      origin = node.$ref;
      node = deref(document, { $ref: node.$ref });
    }
    return { node, pointer: loc.pointer, origin };
  }
}

/** An object's entries, or none. */
export function entriesOf(node: unknown): Array<[string, unknown]> {
  return isObject(node) ? Object.entries(node) : [];
}

export function quote(value: unknown): string {
  return `\`${typeof value === "string" ? value : JSON.stringify(value)}\``;
}
