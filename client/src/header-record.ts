/**
 * Header records for direct calls: the same merge as openapi-fetch's `mergeHeaders` (later
 * sources win, names compared without case) into a plain object with lower-case names, for
 * the headers that can be merged that way with the same outcome.
 *
 * A `Headers` object validates and normalises what it is given and throws a TypeError on a
 * bad name or value; openapi-fetch does that merge before sending. A record would defer the
 * check to fetch, where the retry policy would turn it into a NetworkError. So only the
 * plain, common forms that `Headers` stores unchanged are accepted here; anything else (an
 * invalid, padded or unusual value, a null that removes a header, a list of values, a
 * `Headers` or array source) makes the merge give up, and the call goes through
 * openapi-fetch, which behaves as it always did.
 */

/** A header name: an RFC 9110 token. */
const NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A value `Headers` keeps as it is: visible Latin-1 characters, inner spaces and tabs, no padding. */
const VALUE = /^(?:[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/;

/** A plain object (not a Headers, not an array, not a class instance). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Merges `source` into `target` (lower-case names). Returns false, leaving `target` partly
 * merged, when `source` holds something only a real `Headers` merge handles the same way.
 */
export function mergeIntoRecord(target: Record<string, string>, source: unknown): boolean {
  if (source === undefined || source === null) return true; // mergeHeaders skips them too
  if (!isPlainObject(source)) return false;
  for (const name of Object.keys(source)) {
    const raw = source[name];
    if (raw === undefined) continue; // openapi-fetch skips undefined values
    if (typeof raw !== "string" && typeof raw !== "number" && typeof raw !== "boolean") return false;
    const value = String(raw);
    if (!NAME.test(name) || !VALUE.test(value)) return false;
    target[name.toLowerCase()] = value;
  }
  return true;
}

/** The record of `sources` merged in order, or undefined when one of them cannot be merged as a record. */
export function headerRecord(...sources: unknown[]): Record<string, string> | undefined {
  const record: Record<string, string> = {};
  for (const source of sources) {
    if (!mergeIntoRecord(record, source)) return undefined;
  }
  return record;
}
