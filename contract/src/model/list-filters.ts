/**
 * What a list operation's query filter keeps, as the contract states it: the extension
 * `x-list-filter: {member, comparison}` on the query parameter names the member of each listed
 * item the filter looks at and how the item's value compares with the parameter's. A server
 * lists exactly the items whose member satisfies every filter given.
 *
 *   equals        the item's value is the parameter's
 *   at-or-after   the item's instant (or number) is the parameter's or later (greater)
 *   after         ... strictly later
 *   at-or-before  ... the parameter's or earlier
 *   before        ... strictly earlier
 *
 * Instants are RFC 3339 date-times, compared as instants (offsets applied, fractions of a
 * second to the nanosecond), so `2026-12-01T00:00:00Z` and `2026-11-30T21:00:00-03:00` are one.
 */
import { isObject, type Json } from "./json.ts";

export const LIST_FILTER_EXTENSION = "x-list-filter";

export const LIST_FILTER_COMPARISONS = ["equals", "at-or-after", "after", "at-or-before", "before"] as const;
export type ListFilterComparison = (typeof LIST_FILTER_COMPARISONS)[number];

export interface ListFilter {
  /** The member of each listed item the filter looks at. */
  member: string;
  comparison: ListFilterComparison;
}

/** A comparison as a sentence says it ("whose createdAt is at or after it"). */
export const COMPARISON_WORDS: Record<ListFilterComparison, string> = {
  equals: "equals",
  "at-or-after": "is at or after",
  after: "is after",
  "at-or-before": "is at or before",
  before: "is before",
};

/** The filter a Parameter Object states (`x-list-filter`), or undefined (none, or not well-formed). */
export function listFilterOf(parameter: unknown): ListFilter | undefined {
  const raw = isObject(parameter) ? parameter[LIST_FILTER_EXTENSION] : undefined;
  if (!isObject(raw) || typeof raw.member !== "string" || !(LIST_FILTER_COMPARISONS as readonly unknown[]).includes(raw.comparison)) return undefined;
  return { member: raw.member, comparison: raw.comparison as ListFilterComparison };
}

const RFC_3339 = /^(\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 date-time as [whole seconds since the epoch, nanoseconds]; undefined for any other value. */
export function instantOf(value: unknown): [number, number] | undefined {
  const parts = typeof value === "string" ? RFC_3339.exec(value) : null;
  if (!parts) return undefined;
  const ms = Date.parse(`${parts[1]!.replace(/[t ]/, "T")}${parts[3]!.toUpperCase()}`);
  if (Number.isNaN(ms)) return undefined;
  return [ms / 1000, Number((parts[2] ?? "").padEnd(9, "0").slice(0, 9))];
}

/** The order of two values as the filter compares them (instants, else numbers); undefined when they do not compare. */
function order(item: unknown, bound: unknown): number | undefined {
  const [a, b] = [instantOf(item), instantOf(bound)];
  if (a && b) return a[0] !== b[0] ? Math.sign(a[0] - b[0]) : Math.sign(a[1] - b[1]);
  const [x, y] = [Number(item), Number(bound)];
  const numeric = (v: unknown) => typeof v === "number" || (typeof v === "string" && v.trim() !== "" && !Number.isNaN(Number(v)));
  return numeric(item) && numeric(bound) ? Math.sign(x - y) : undefined;
}

/**
 * Whether an item's value satisfies a filter given `bound` (as sent in the query: a string, or
 * the value a record showed). A value that does not compare (absent, another type) satisfies
 * no ordered filter.
 */
export function satisfiesFilter(comparison: ListFilterComparison, value: unknown, bound: unknown): boolean {
  if (comparison === "equals") return value !== undefined && value !== null && String(value) === String(bound);
  const sign = order(value, bound);
  if (sign === undefined) return false;
  switch (comparison) {
    case "at-or-after":
      return sign >= 0;
    case "after":
      return sign > 0;
    case "at-or-before":
      return sign <= 0;
    case "before":
      return sign < 0;
  }
}

/** The array of records a list's success body holds: the path to it (`["data", "items"]`) and its item schema. */
export function listItemsOf(schema: unknown, path: string[] = []): { path: string[]; items: Json } | undefined {
  if (!isObject(schema)) return undefined;
  if (isObject(schema.items)) return { path, items: schema.items };
  for (const member of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const found = listItemsOf(member, path);
    if (found) return found;
  }
  for (const [name, sub] of Object.entries(isObject(schema.properties) ? schema.properties : {})) {
    const found = listItemsOf(sub, [...path, name]);
    if (found) return found;
  }
  return undefined;
}

/** The items of a list body at `path`; undefined when the body holds no array there. */
export function listedItems(body: unknown, path: string[]): unknown[] | undefined {
  const found = path.reduce<unknown>((node, name) => (isObject(node) ? node[name] : undefined), body);
  return Array.isArray(found) ? found : undefined;
}
