/**
 * The faults of the broken servers for the generic checks (derived-mutants.ts says where each
 * is put): what a proxy in front of the correct sandbox does to one operation's requests or
 * replies. Each is a single fault a real implementation could have: a key ignored when the
 * owner's would succeed, an ownership check made after the change, a member defaulted instead
 * of refused, a value changed on the way back, a read served from a stale cache, idempotency
 * keys stored without their API key, a limit announced and not enforced...
 *
 * Unlike mutants.ts, a handler may forward more than once (try the request with the owner's key,
 * fall back to the original), which is what most of these faults need.
 */
import { isCredentialQueryName } from "@payment-collection/contract/domain/credential-query-names.ts";
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import { BODY_SIZE_LIMIT, STRUCTURE_BOUNDS, structureOf } from "../../src/derived/unreadable-bodies.ts";
import { requestJson, type Exchange as Req, type Forward, type Reply } from "./mutants.ts";

/** The sandbox's keys as the broken servers see them. */
export interface DerivedKeys {
  familyA: { primary: string; secondAccount: string; rateLimits?: string; primarySecondKey?: string };
  familyB: { primary: string; secondAccount: string; rateLimits?: string; primarySecondKey?: string };
}

export type Handler = (request: Req, forward: Forward, keys: DerivedKeys) => Promise<Reply>;
export type Match = (request: Req) => boolean;
export type Json = Record<string, any>;

const ok = (reply: Reply) => reply.status >= 200 && reply.status < 300;
const keyOf = (request: Req) => request.headers["x-api-key"];
const withKey = (request: Req, key: string): Req => ({ ...request, headers: { ...request.headers, "x-api-key": key } });
const withBody = (request: Req, body: Json): Req => ({ ...request, body: JSON.stringify(body) });
/** A text as a JSON object; undefined when it is none (mutants.ts reads request bodies the same way). */
export const parse = (text: string): Json | undefined => requestJson({ body: text });
const editReply = (reply: Reply, edit: (body: Json) => void): Reply => {
  const body = parse(reply.body);
  if (!body) return reply;
  edit(body);
  return { ...reply, body: JSON.stringify(body) };
};
const dataOf = (body: Json) => (body.data && typeof body.data === "object" ? body.data : body);
export const familyKeys = (keys: DerivedKeys, family: FamilyId) => (family === "family-a" ? keys.familyA : keys.familyB);
const otherKeys = (keys: DerivedKeys, family: FamilyId) => (family === "family-a" ? keys.familyB : keys.familyA);
const OK_EMPTY: Reply = { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ success: true, data: {} }) };

// 1. Ignored authentication

export type KeyFault = "none" | "invalid" | "other-family" | "beside-query";

/** A key that is no key of this family is ignored when the owner's key would succeed. */
export function ignoresKey(family: FamilyId, match: Match, mode: KeyFault): Handler {
  if (mode === "beside-query") return servesBesideQueryKey(match);
  return async (request, forward, keys) => {
    const key = keyOf(request);
    const known = [...Object.values(keys.familyA), ...Object.values(keys.familyB)];
    const applies =
      match(request) &&
      (mode === "none" ? key === undefined : mode === "other-family" ? key === otherKeys(keys, family).primary : key !== undefined && !known.includes(key));
    if (!applies) return forward(request);
    const asOwner = await forward(withKey(request, familyKeys(keys, family).primary));
    return ok(asOwner) ? asOwner : forward(request);
  };
}

/**
 * A request as a server that never looks at its URL query for credentials reads it (D46's other
 * choice): the credentials the query carries beside a key header dropped, the rest as it was.
 */
export function withoutQueryCredentials(request: Req): Req {
  if (request.headers["x-api-key"] === undefined) return request;
  const query = new URLSearchParams(request.search);
  const names = [...query.keys()].filter(isCredentialQueryName);
  for (const name of names) query.delete(name);
  return names.length === 0 ? request : { ...request, search: query.size > 0 ? `?${query}` : "" };
}

/** D46 broken at one operation: a credential in the query beside a valid key header is ignored, the request served. */
function servesBesideQueryKey(match: Match): Handler {
  return (request, forward) => forward(match(request) ? withoutQueryCredentials(request) : request);
}

// 2. Tenant isolation

/** The second account's key acts as the first account's on one operation. */
export function crossesTenants(family: FamilyId, match: Match): Handler {
  return (request, forward, keys) => forward(match(request) && keyOf(request) === familyKeys(keys, family).secondAccount ? withKey(request, familyKeys(keys, family).primary) : request);
}

/** The ownership check comes after the change: the second account is refused, the change is made. */
export function changesThenRefuses(family: FamilyId, match: Match): Handler {
  return async (request, forward, keys) => {
    if (!match(request) || keyOf(request) !== familyKeys(keys, family).secondAccount) return forward(request);
    await forward(withKey(request, familyKeys(keys, family).primary));
    return forward(request);
  };
}

// 3. Negative data

/** How a member breaks one constraint, and what a server that does not check it makes of it. */
export interface Lenience {
  broken(value: unknown, present: boolean): boolean;
  /** The value the server takes instead (undefined: the default). */
  lenient?(value: unknown): unknown;
}

/**
 * A member that breaks one constraint is not refused: the server makes it fit (rounds,
 * truncates, maps to a default) or, when that still fails, takes its default (the last value
 * it accepted for the member, else the contract's example).
 */
export function lenientMember(match: Match, path: string[], lenience: Lenience, fallback: unknown): Handler {
  let accepted: unknown = fallback;
  const holder = (body: Json): Json | undefined => path.slice(0, -1).reduce<Json | undefined>((node, k) => (node && typeof node[k] === "object" ? node[k] : undefined), body);
  const name = path[path.length - 1]!;
  return async (request, forward) => {
    const body = match(request) ? parse(request.body) : undefined;
    const at = body ? holder(body) : undefined;
    if (!body || !at) return forward(request);
    if (!lenience.broken(at[name], name in at)) {
      const reply = await forward(request);
      if (ok(reply) && name in at) accepted = at[name];
      return reply;
    }
    if (lenience.lenient) {
      at[name] = lenience.lenient(at[name]);
      const reply = await forward(withBody(request, body));
      if (ok(reply)) return reply;
    }
    at[name] = accepted;
    return forward(withBody(request, body));
  };
}

/**
 * A member that breaks its domain format is taken for a well-formed value that names nothing
 * (a PIX key looked up without checking its form): answered 404 `NOT_FOUND`, not the
 * documented 400.
 */
export function refusesAsUnknown(match: Match, name: string, broken: (value: unknown) => boolean): Handler {
  return (request, forward) => {
    const body = match(request) ? parse(request.body) : undefined;
    if (!body || !(name in body) || !broken(body[name])) return forward(request);
    return Promise.resolve({ status: 404, headers: { "content-type": "application/json" }, body: JSON.stringify({ success: false, error: { code: "NOT_FOUND", message: "Resource not found.", details: `No ${name} ${String(body[name])}` } }) });
  };
}

/** The value of a request's query or header parameter, if given. */
function parameterValue(request: Req, where: "query" | "header", name: string): string | undefined {
  if (where === "header") return request.headers[name.toLowerCase()];
  return new URLSearchParams(request.search).get(name) ?? undefined;
}

/**
 * One parameter's constraints not checked: a value the parameter's schema refuses is replaced
 * before the sandbox sees it (a query parameter dropped, a header given a valid value), so the
 * request is served as if it had been valid.
 */
export function lenientParameter(match: Match, where: "query" | "header", name: string, refuses: (value: string) => boolean, valid: () => string): Handler {
  return (request, forward) => {
    const value = match(request) ? parameterValue(request, where, name) : undefined;
    if (value === undefined || !refuses(value)) return forward(request);
    if (where === "header") return forward({ ...request, headers: { ...request.headers, [name.toLowerCase()]: valid() } });
    const search = new URLSearchParams(request.search);
    search.delete(name);
    const rest = search.toString();
    return forward({ ...request, search: rest ? `?${rest}` : "" });
  };
}

/**
 * One parameter's breach refused in a body of the server's own, not the operation's documented
 * 400 (an envelope-2 operation answering in envelope 1 is this fault).
 */
export function refusesParameterUndocumented(match: Match, where: "query" | "header", name: string, refuses: (value: string) => boolean): Handler {
  return (request, forward) => {
    const value = match(request) ? parameterValue(request, where, name) : undefined;
    if (value === undefined || !refuses(value)) return forward(request);
    return Promise.resolve({ status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: `invalid ${where} ${name}` }) });
  };
}

/**
 * A header's length counted in bytes, not in characters (D45): a value of fewer characters than
 * the minimum but as many bytes (characters outside the Basic Multilingual Plane take four) is
 * served as if it had been long enough (the sandbox gets an ASCII value of that many bytes).
 */
export function countsHeaderBytes(match: Match, name: string, minLength: number): Handler {
  let fresh = 0;
  return (request, forward) => {
    const value = match(request) ? parameterValue(request, "header", name) : undefined;
    if (value === undefined || value.length < minLength || [...Buffer.from(value, "latin1").toString("utf8")].length >= minLength) return forward(request);
    const ascii = `bytes-${process.pid}-${(fresh += 1)}-`.padEnd(value.length, "x");
    return forward({ ...request, headers: { ...request.headers, [name.toLowerCase()]: ascii } });
  };
}

/**
 * An integer of the query read in any notation a number can be written in (`1e0`, `1.0`,
 * `0x1`, ` 1`), not only decimal digits (D28): the sandbox gets its decimal digits.
 */
export function readsAnyNumberNotation(match: Match, name: string): Handler {
  return (request, forward) => {
    const value = match(request) ? parameterValue(request, "query", name) : undefined;
    const number = value === undefined || value.trim() === "" ? Number.NaN : Number(value);
    if (value === undefined || /^[+-]?\d+$/.test(value) || !Number.isInteger(number)) return forward(request);
    const search = new URLSearchParams(request.search);
    search.set(name, String(number));
    return forward({ ...request, search: `?${search.toString()}` });
  };
}

/** A query parameter given more than once read as its first value, not refused (D32). */
export function takesFirstOfRepeated(match: Match, name: string): Handler {
  return (request, forward) => {
    const search = new URLSearchParams(request.search);
    const values = search.getAll(name);
    if (!match(request) || values.length < 2) return forward(request);
    search.set(name, values[0]!);
    return forward({ ...request, search: `?${search.toString()}` });
  };
}

/** A date-time of the query naming a leap second read as the second before it, not refused (D39). */
export function shiftsLeapSecond(match: Match, name: string): Handler {
  return (request, forward) => {
    const search = new URLSearchParams(request.search);
    const value = search.get(name);
    if (!match(request) || value === null || !/T\d{2}:\d{2}:60/i.test(value)) return forward(request);
    search.set(name, value.replace(/(T\d{2}:\d{2}):60/i, "$1:59"));
    return forward({ ...request, search: `?${search.toString()}` });
  };
}

/** An integer of the query written with a sign (`+1`) refused, not read as the integer (D28). */
export function refusesSignedInteger(match: Match, name: string): Handler {
  return (request, forward) => {
    const search = new URLSearchParams(request.search);
    const value = search.get(name);
    if (!match(request) || value === null || !value.startsWith("+")) return forward(request);
    search.set(name, "signed");
    return forward({ ...request, search: `?${search.toString()}` });
  };
}

/** How a server gets the reading of a body wrong, one way each (unreadable-bodies.ts has the checks). */
export type BodyReadingFault = "not-json" | "empty" | "not-sent-as-json" | "sent-as-another-json-type" | "over-size-limit";

const CRASH: Reply = { status: 500, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: "Internal Server Error" }) };
const isJsonMedia = (request: Req) => /^application\/([a-z0-9.-]+\+)?json\s*(;|$)/i.test(request.headers["content-type"] ?? "");

/**
 * One operation reads its body wrong: a body that is not JSON, or an empty one, crashes the
 * handler (500); or the Content-Type is never looked at (a text/plain body read as JSON); or
 * there is no size limit (a padded body read whole).
 */
export function readsBodyWrong(match: Match, how: BodyReadingFault): Handler {
  return async (request, forward) => {
    if (!match(request)) return forward(request);
    switch (how) {
      case "not-json":
        return request.body !== "" && parse(request.body) === undefined ? CRASH : forward(request);
      case "empty":
        return request.body === "" ? CRASH : forward(request);
      case "not-sent-as-json":
        return isJsonMedia(request) || parse(request.body) === undefined ? forward(request) : forward({ ...request, headers: { ...request.headers, "content-type": "application/json" } });
      // Any JSON media type read as application/json (`application/*+json`).
      case "sent-as-another-json-type":
        return isJsonMedia(request) ? forward({ ...request, headers: { ...request.headers, "content-type": "application/json" } }) : forward(request);
      case "over-size-limit": {
        const body = parse(request.body);
        return body && request.body.length > 64 * 1024 ? forward(withBody(request, body)) : forward(request);
      }
    }
  };
}

/**
 * How a server bounds a body's structure or size other than D39 says, one bound each: without
 * the bound (`too-deep`, `array-too-long`, `too-many-values`), or with the bound one lower
 * (`at-depth-limit`, `at-array-limit`, `at-value-limit`, `at-size-limit`).
 */
export type BodyBoundFault = "too-deep" | "array-too-long" | "too-many-values" | "at-depth-limit" | "at-array-limit" | "at-value-limit" | "at-size-limit";

/** Whether a parsed body is past the bound the fault is about (`lower`: at it or past it). */
function pastBound(body: Json, how: BodyBoundFault, lower: boolean): boolean {
  const { depth, longestArray, values } = structureOf(body);
  const past = (value: number, bound: number) => value > bound - (lower ? 1 : 0);
  if (how === "too-deep" || how === "at-depth-limit") return past(depth, STRUCTURE_BOUNDS.depth);
  if (how === "array-too-long" || how === "at-array-limit") return past(longestArray, STRUCTURE_BOUNDS.arrayItems);
  return past(values, STRUCTURE_BOUNDS.values);
}

/**
 * One operation bounds its bodies wrongly: with no bound, a body past it is read whole (JSON
 * parsed at any depth and length) and the members the operation does not declare are ignored,
 * so the sandbox gets the body without them; with a bound one lower, a body at D39's bound is
 * refused with the operation's 400 (the sandbox is sent a body it cannot read instead).
 */
export function boundsBodyWrong(match: Match, how: BodyBoundFault, declared: string[]): Handler {
  return async (request, forward) => {
    if (!match(request)) return forward(request);
    const refuse = () => forward({ ...request, body: "{" });
    if (how === "at-size-limit") return Buffer.byteLength(request.body) >= BODY_SIZE_LIMIT ? refuse() : forward(request);
    const body = parse(request.body);
    if (!body) return forward(request);
    if (how.startsWith("at-")) return pastBound(body, how, true) ? refuse() : forward(request);
    if (!pastBound(body, how, false)) return forward(request);
    return forward(withBody(request, Object.fromEntries(Object.entries(body).filter(([name]) => declared.includes(name)))));
  };
}

/**
 * One operation compares its Content-Type exactly (`application/json`, with or without
 * parameters): the same media type written in another case, or with whitespace before its
 * parameters, is refused with the operation's 400 (the sandbox is sent a body it cannot read).
 */
export function comparesMediaTypeExactly(match: Match): Handler {
  return (request, forward) => {
    if (!match(request) || /^application\/json(;|$)/.test(request.headers["content-type"] ?? "")) return forward(request);
    return forward({ ...request, body: "{" });
  };
}

/** A refused creation that still creates (the refusal is a lie). */
export function refusesButCreates(match: Match, valid: Json): Handler {
  return async (request, forward) => {
    if (!match(request)) return forward(request);
    const reply = await forward(request);
    if (reply.status < 400 || reply.status >= 500) return reply;
    await forward(withBody(request, valid));
    return reply;
  };
}

/** An invalid body repaired on the way in (and so accepted). */
export function repairs(match: Match, repair: (body: Json) => void): Handler {
  return (request, forward) => {
    const body = match(request) ? parse(request.body) : undefined;
    if (!body) return forward(request);
    repair(body);
    return forward(withBody(request, body));
  };
}

/**
 * Every 400 of the operation carrying the code `from` answered with `to`, another code its 400
 * documents: the code the document ties to one constraint given to every malformed request, or
 * the other way round (D18, D21, D32).
 */
export function relabelsRefusals(match: Match, from: string, to: string): Handler {
  return async (request, forward) => {
    const reply = await forward(request);
    if (!match(request) || reply.status !== 400) return reply;
    return editReply(reply, (body) => {
      if (body.code === from) body.code = to;
      else if (body.error?.code === from) body.error.code = to;
      else if (body.error?.errorCode === from) body.error.errorCode = to;
    });
  };
}

// 4. Positive data

/** A valid body refused when it matches a condition the document does not state. */
export function refusesValid(match: Match, refuse: (body: Json) => boolean): Handler {
  return async (request, forward) => {
    const body = match(request) ? parse(request.body) : undefined;
    if (body && refuse(body)) return { status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ success: false, code: "VALIDATION_ERROR", error: { code: "VALIDATION_ERROR", message: "invalid", details: "" } }) };
    return forward(request);
  };
}

// 5. Consistency

/** A reply changed on the way back. */
export function changesReply(match: Match, edit: (data: Json) => void): Handler {
  return async (request, forward) => {
    const reply = await forward(request);
    return match(request) && ok(reply) ? editReply(reply, (body) => edit(dataOf(body))) : reply;
  };
}

/** Reads of a record served from a cache that no change clears. */
export function staleCache(reads: Match, idOf: (request: Req) => string | undefined): Handler {
  const cache = new Map<string, Reply>();
  return async (request, forward) => {
    const id = reads(request) ? idOf(request) : undefined;
    if (id && cache.has(id)) return cache.get(id)!;
    const reply = await forward(request);
    if (id && ok(reply)) cache.set(id, reply);
    return reply;
  };
}

/** A change acknowledged and never made (queued and lost). */
export function acknowledgesOnly(match: Match): Handler {
  return async (request, forward) => (match(request) ? OK_EMPTY : forward(request));
}

// 5a. List filters

/** A request without one query parameter, and the value it had. */
function withoutQuery(request: Req, name: string): { request: Req; value: string | null } {
  const query = new URLSearchParams(request.search);
  const value = query.get(name);
  query.delete(name);
  return { request: { ...request, search: query.size > 0 ? `?${query}` : "" }, value };
}

/** A list filter ignored: the server never reads the query parameter, and lists as without it. */
export function ignoresFilter(match: Match, name: string): Handler {
  return (request, forward) => forward(match(request) ? withoutQuery(request, name).request : request);
}

/** A list filter inverted: the server lists the items the filter leaves out (`keeps` says what it keeps). */
export function invertsFilter(match: Match, name: string, path: string[], keeps: (item: unknown, bound: string) => boolean): Handler {
  return async (request, forward) => {
    const { request: unfiltered, value } = match(request) ? withoutQuery(request, name) : { request, value: null };
    if (value === null) return forward(request);
    const reply = await forward(unfiltered);
    if (!ok(reply)) return reply;
    return editReply(reply, (body) => {
      const holder = path.slice(0, -1).reduce<Json | undefined>((node, k) => (node && typeof node[k] === "object" ? node[k] : undefined), body);
      const last = path[path.length - 1]!;
      if (holder && Array.isArray(holder[last])) holder[last] = holder[last].filter((item: unknown) => !keeps(item, value));
    });
  };
}

// 6. Idempotency key space

const idempotencyKeyOf = (request: Req) => request.headers["idempotency-key"] ?? request.headers["x-idempotency-key"];
const withIdempotencyKey = (request: Req, value: string): Req => {
  const name = request.headers["idempotency-key"] !== undefined ? "idempotency-key" : "x-idempotency-key";
  return { ...request, headers: { ...request.headers, [name]: value } };
};

/** One idempotency key space for every API key (of any account) on one operation. */
export function sharesIdempotency(match: Match): Handler {
  const stored = new Map<string, Reply>();
  return async (request, forward) => {
    const key = idempotencyKeyOf(request);
    if (!match(request) || !key) return forward(request);
    const seen = stored.get(key);
    if (seen) return seen;
    const reply = await forward(request);
    if (ok(reply)) stored.set(key, reply);
    return reply;
  };
}

/**
 * Responses stored by idempotency key alone: a key of another API key is not replayed to it
 * (the owner is checked) but its new response takes the first one's place, so the first key's
 * replay returns another record.
 */
export function lastWriterWins(match: Match): Handler {
  const stored = new Map<string, { apiKey?: string; reply: Reply }>();
  let n = 0;
  return async (request, forward) => {
    const key = idempotencyKeyOf(request);
    if (!match(request) || !key) return forward(request);
    const seen = stored.get(key);
    if (seen && seen.apiKey === keyOf(request)) return seen.reply;
    // The correct server below keeps its own spaces: a distinct key makes it create.
    const reply = await forward(withIdempotencyKey(request, `${key}-${(n += 1)}`));
    if (ok(reply)) stored.set(key, { apiKey: keyOf(request), reply });
    return reply;
  };
}

/** The second key of the primary account shares the primary key's idempotency key space. */
export function secondKeySharesSpace(family: FamilyId, match: Match): Handler {
  return (request, forward, keys) => {
    const own = familyKeys(keys, family);
    return forward(match(request) && own.primarySecondKey && keyOf(request) === own.primarySecondKey ? withKey(request, own.primary) : request);
  };
}

// 7. Rate limits

/** A 429 turned into the answer another account gets (the limit announced, not enforced). */
export function unenforced(match: Match): Handler {
  return async (request, forward, keys) => {
    const reply = await forward(request);
    if (!match(request) || reply.status !== 429) return reply;
    const other = await forward(withKey(request, keys.familyB.secondAccount));
    const limits = Object.fromEntries(Object.entries(reply.headers).filter(([n]) => n.startsWith("x-ratelimit")));
    return { ...other, headers: { ...other.headers, ...limits } };
  };
}

/** A 429 whose rate-limit headers describe another limit than the one used up (requests left, a larger figure). */
export function reportsAnotherLimit(match: Match): Handler {
  return async (request, forward) => {
    const reply = await forward(request);
    if (!match(request) || reply.status !== 429 || reply.headers["x-ratelimit-limit"] === undefined) return reply;
    return { ...reply, headers: { ...reply.headers, "x-ratelimit-limit": String(Number(reply.headers["x-ratelimit-limit"]) * 10), "x-ratelimit-remaining": "1" } };
  };
}

/**
 * The rate-limit headers of one operation's answers on the second account describe its other
 * limit rather than the general one it used up (D27: the closest to exhaustion): requests left
 * where there are none, on the admitted request that used the general limit up or (`refusals`)
 * only on the 429 that follows.
 */
export function describesAnotherThanClosest(match: Match, refusals: boolean): Handler {
  return async (request, forward, keys) => {
    const reply = await forward(request);
    if (!match(request) || keyOf(request) !== keys.familyB.secondAccount || reply.headers["x-ratelimit-remaining"] !== "0" || (reply.status === 429) !== refusals) return reply;
    return { ...reply, headers: { ...reply.headers, "x-ratelimit-remaining": "7" } };
  };
}

/**
 * The admitted answers of one operation describe a limit farther from exhaustion than its own
 * (another figure, more requests left), while its own is the closest (D27).
 */
export function describesFartherLimit(match: Match): Handler {
  return async (request, forward) => {
    const reply = await forward(request);
    const limit = reply.headers["x-ratelimit-limit"];
    if (!match(request) || !ok(reply) || limit === undefined) return reply;
    return { ...reply, headers: { ...reply.headers, "x-ratelimit-limit": String(Number(limit) * 8), "x-ratelimit-remaining": String(Number(reply.headers["x-ratelimit-remaining"]) + 50) } };
  };
}

/** No rate-limit headers and no limit at all. */
export const noLimitsNoHeaders: Handler = async (request, forward) => {
  const reply = await forward(request);
  const headers = Object.fromEntries(Object.entries(reply.headers).filter(([n]) => !n.startsWith("x-ratelimit")));
  return { ...reply, headers };
};

/** One account's requests counted on another's limit. */
export function countsOnAnotherAccount(match: Match): Handler {
  return (request, forward, keys) => forward(match(request) && keyOf(request) === keys.familyB.primary && keys.familyB.rateLimits ? withKey(request, keys.familyB.rateLimits) : request);
}

/**
 * Ids from a coarse clock: a creation answered within 50 ms of an earlier one gets that one's id
 * (each is still a record of its own behind it), as a server whose ids are the creation time
 * alone gives creations made together.
 */
export function idsOfTheSameMoment(match: Match): Handler {
  let last: { at: number; id: unknown } | undefined;
  return async (request, forward) => {
    const reply = await forward(request);
    if (!match(request) || !ok(reply)) return reply;
    const at = Date.now();
    return editReply(reply, (body) => {
      const record = dataOf(body);
      if (last && at - last.at < 50) record.id = last.id;
      else last = { at, id: record.id };
    });
  };
}

/** One operation counted on no one's limit (sent as another account). */
export function notCounted(match: Match, family: FamilyId = "family-b"): Handler {
  return (request, forward, keys) => {
    const own = familyKeys(keys, family);
    return forward(match(request) && keyOf(request) === own.rateLimits ? withKey(request, own.secondAccount) : request);
  };
}

// 8. Cross-origin access (D44)

/** The ways a server breaks D44 at one operation. */
export type CorsFault = "grants-any-origin" | "wildcard-origin" | "preflight-needs-key" | "method-not-allowed" | "header-not-allowed" | "any-header-allowed" | "header-not-exposed" | "no-vary" | "credentials";

const isPreflight = (request: Req) => request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined;
/** A preflight as the request it announces (its method), for matching it to an operation. */
const announced = (request: Req): Req => (isPreflight(request) ? { ...request, method: request.headers["access-control-request-method"]! } : request);
const withHeaders = (reply: Reply, edit: (headers: Record<string, string>) => void): Reply => {
  const headers = { ...reply.headers };
  edit(headers);
  return { ...reply, headers };
};
/** A comma-separated list without the names given (compared without case). */
const without = (list: string | undefined, names: string[]) =>
  (list ?? "").split(",").map((item) => item.trim()).filter((item) => item && !names.some((name) => name.toLowerCase() === item.toLowerCase())).join(", ");

/**
 * D44 broken at one operation (its preflights and its requests), one way: `granted` are the
 * origins the sandbox grants, `hidden` the response header a server forgets to expose there.
 */
export function breaksCors(match: Match, how: CorsFault, granted: readonly string[], hidden?: string): Handler {
  return async (request, forward) => {
    if (!match(announced(request))) return forward(request);
    const origin = request.headers.origin;
    const isGranted = origin !== undefined && granted.includes(origin);
    switch (how) {
      case "grants-any-origin": {
        // Every origin is answered as a granted one, named back.
        if (origin === undefined || isGranted) return forward(request);
        const reply = await forward({ ...request, headers: { ...request.headers, origin: granted[0]! } });
        return withHeaders(reply, (h) => void (h["access-control-allow-origin"] = origin));
      }
      case "preflight-needs-key": {
        // Authentication before CORS: a preflight is read as the request it announces, without its key.
        if (!isPreflight(request) || !isGranted) return forward(request);
        const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !name.startsWith("access-control-request-")));
        return forward({ ...request, method: request.headers["access-control-request-method"]!, headers });
      }
      default: {
        const reply = await forward(request);
        if (how === "no-vary") return withHeaders(reply, (h) => void delete h.vary);
        if (!isGranted) return reply;
        return withHeaders(reply, (h) => {
          if (how === "wildcard-origin") h["access-control-allow-origin"] = "*";
          if (how === "credentials") h["access-control-allow-credentials"] = "true";
          if (how === "method-not-allowed" && isPreflight(request)) h["access-control-allow-methods"] = without(h["access-control-allow-methods"], [request.headers["access-control-request-method"]!]);
          // The last header the preflight announces is not allowed (the API key header, an idempotency key, Content-Type...).
          const last = (request.headers["access-control-request-headers"] ?? "").split(",").map((n) => n.trim()).filter(Boolean).at(-1);
          if (how === "header-not-allowed" && isPreflight(request) && last) h["access-control-allow-headers"] = without(h["access-control-allow-headers"], [last]);
          if (how === "any-header-allowed" && isPreflight(request)) h["access-control-allow-headers"] = "*";
          if (how === "header-not-exposed" && !isPreflight(request) && hidden) h["access-control-expose-headers"] = without(h["access-control-expose-headers"], [hidden]);
        });
      }
    }
  };
}

/** Every operation's grants by host alone: the granted host on another port (another origin) is granted too. */
export function grantsByHost(granted: readonly string[]): Handler {
  return async (request, forward) => {
    const origin = request.headers.origin;
    const sameHost = (granted.map((g) => new URL(g)) as URL[]).find((g) => origin !== undefined && origin !== "null" && !granted.includes(origin) && new URL(origin).hostname === g.hostname);
    if (!sameHost || origin === undefined) return forward(request);
    const reply = await forward({ ...request, headers: { ...request.headers, origin: sameHost.origin } });
    return withHeaders(reply, (h) => void (h["access-control-allow-origin"] = origin));
  };
}

/** Preflights at one operation counted against the limit of requests without a key: each goes through the pipeline once before it is answered. */
export function countsPreflights(match: Match): Handler {
  return async (request, forward) => {
    if (isPreflight(request) && match(announced(request))) {
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name !== "origin" && !name.startsWith("access-control-request-")));
      await forward({ ...request, headers });
    }
    return forward(request);
  };
}

/** An OPTIONS from a granted origin without Access-Control-Request-Method, on one operation's path, taken for a preflight of that operation. */
export function optionsTakenForPreflight(match: Match, method: string, granted: readonly string[]): Handler {
  return (request, forward) => {
    const bare = request.method === "OPTIONS" && request.headers["access-control-request-method"] === undefined && granted.includes(request.headers.origin ?? "");
    return forward(bare && match({ ...request, method }) ? { ...request, headers: { ...request.headers, "access-control-request-method": method } } : request);
  };
}
