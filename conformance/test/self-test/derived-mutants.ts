/**
 * Broken servers for the generic checks (src/derived/): a proxy in front of the correct sandbox
 * that breaks one rule at one operation, the kind of fault the hand-written checks let through
 * (a key ignored only when the record exists, another account's record served, an invalid body
 * repaired and accepted, values changed on the way back, idempotency keys shared, a limit
 * announced and not enforced...). `caughtBy` names the derived result that must fail.
 *
 * Unlike mutants.ts, a handler may forward more than once (try the request with the owner's key,
 * fall back to the original), which is what most of these faults need.
 */
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import type { Profile } from "../../src/core/profiles/index.ts";
import type { DerivedClass } from "../../src/derived/index.ts";
import { OTHER_DECISIONS, startProxy, type Exchange as Req, type Forward, type Reply } from "./mutants.ts";

export interface DerivedKeys {
  familyA: { primary: string; secondAccount: string; rateLimits?: string };
  familyB: { primary: string; secondAccount: string; rateLimits?: string };
}

type Handler = (request: Req, forward: Forward, keys: DerivedKeys) => Promise<Reply>;

export interface DerivedMutation {
  name: string;
  derivedClass: DerivedClass;
  family: FamilyId;
  /** The operation whose rule is broken. */
  operation: string;
  breaks: string;
  /** Id prefix of a derived result that must fail. */
  caughtBy: string;
  profile?: Profile;
  /** Needs the small rate-limit plan and the exhaust stage. */
  needsRateLimits?: boolean;
  /** Name a second key of the primary account in the target (the proxy maps it). */
  primarySecondKey?: boolean;
  handle: Handler;
}

/** A made-up second key of the primary account, which the proxies map to the primary key. */
export const SECOND_KEY = { "family-a": "sk_test_derivedsecondkeyofprimary0000000", "family-b": "sdk_test_derivedsecondkeyofprimary000000" };

type Json = Record<string, any>;
const ok = (reply: Reply) => reply.status >= 200 && reply.status < 300;
const keyOf = (request: Req) => request.headers["x-api-key"];
const withKey = (request: Req, key: string): Req => ({ ...request, headers: { ...request.headers, "x-api-key": key } });
const at = (method: string, path: RegExp) => (request: Req) => request.method === method && path.test(request.path);
const parse = (text: string): Json | undefined => {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
};
const editReply = (reply: Reply, edit: (body: Json) => void): Reply => {
  const body = parse(reply.body);
  if (!body) return reply;
  edit(body);
  return { ...reply, body: JSON.stringify(body) };
};
const dataOf = (body: Json) => (body.data && typeof body.data === "object" ? body.data : body);
const familyKeys = (keys: DerivedKeys, family: FamilyId) => (family === "family-a" ? keys.familyA : keys.familyB);
const otherKeys = (keys: DerivedKeys, family: FamilyId) => (family === "family-a" ? keys.familyB : keys.familyA);

/** Class 1: a key that is no key of this family is ignored when the owner's key would succeed. */
function ignoresKey(family: FamilyId, match: (r: Req) => boolean, mode: "none" | "invalid" | "other-family"): Handler {
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

/** Class 2: the second account's key acts as the first account's on one operation. */
function crossesTenants(family: FamilyId, match: (r: Req) => boolean): Handler {
  return (request, forward, keys) => forward(match(request) && keyOf(request) === familyKeys(keys, family).secondAccount ? withKey(request, familyKeys(keys, family).primary) : request);
}

/** Class 3: an invalid body is repaired on the way in (and so accepted). */
function repairs(match: (r: Req) => boolean, repair: (body: Json) => void): Handler {
  return (request, forward) => {
    const body = match(request) ? parse(request.body) : undefined;
    if (!body) return forward(request);
    repair(body);
    return forward({ ...request, body: JSON.stringify(body) });
  };
}

/** Class 3: a refused creation that still creates (the refusal is a lie). */
function refusesButCreates(match: (r: Req) => boolean, valid: Json): Handler {
  return async (request, forward) => {
    if (!match(request)) return forward(request);
    const reply = await forward(request);
    if (reply.status < 400 || reply.status >= 500) return reply;
    await forward({ ...request, body: JSON.stringify(valid) });
    return reply;
  };
}

/** Class 4: a valid body refused when it matches a condition the document does not state. */
function refusesValid(match: (r: Req) => boolean, refuse: (body: Json) => boolean): Handler {
  return async (request, forward) => {
    const body = match(request) ? parse(request.body) : undefined;
    if (body && refuse(body)) return { status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ success: false, code: "VALIDATION_ERROR", error: { code: "VALIDATION_ERROR", message: "invalid", details: "" } }) };
    return forward(request);
  };
}

/** Class 5: a reply changed on the way back. */
function changesReply(match: (r: Req) => boolean, edit: (data: Json) => void): Handler {
  return async (request, forward) => {
    const reply = await forward(request);
    return match(request) && ok(reply) ? editReply(reply, (body) => edit(dataOf(body))) : reply;
  };
}

/** Class 5: part of an update dropped on the way in. */
function dropsOnUpdate(match: (r: Req) => boolean, member: string): Handler {
  return repairs(match, (body) => void delete body[member]);
}

/** Class 6: one idempotency key space for every API key (of any account) on one operation. */
function sharesIdempotency(match: (r: Req) => boolean, header: string): Handler {
  const stored = new Map<string, Reply>();
  return async (request, forward) => {
    const key = request.headers[header];
    if (!match(request) || !key) return forward(request);
    const seen = stored.get(key);
    if (seen) return seen;
    const reply = await forward(request);
    if (ok(reply)) stored.set(key, reply);
    return reply;
  };
}

/** The second key of the primary account: mapped to the primary key, its idempotency keys kept apart (or, broken, shared). */
function secondKeyOfPrimary(family: FamilyId, shared: boolean, inner?: Handler): Handler {
  return (request, forward, keys) => {
    const next = inner ?? ((r: Req, f: Forward) => f(r));
    if (keyOf(request) !== SECOND_KEY[family]) return next(request, forward, keys);
    let mapped = withKey(request, familyKeys(keys, family).primary);
    if (!shared) {
      for (const name of ["idempotency-key", "x-idempotency-key"]) {
        if (mapped.headers[name]) mapped = { ...mapped, headers: { ...mapped.headers, [name]: `${mapped.headers[name]}-second-key` } };
      }
    }
    return next(mapped, forward, keys);
  };
}

/** Class 7: a 429 turned into the answer another account gets (the limit announced, not enforced). */
function unenforced(match: (r: Req) => boolean): Handler {
  return async (request, forward, keys) => {
    const reply = await forward(request);
    if (!match(request) || reply.status !== 429) return reply;
    const other = await forward(withKey(request, keys.familyB.secondAccount));
    const limits = Object.fromEntries(Object.entries(reply.headers).filter(([n]) => n.startsWith("x-ratelimit")));
    return { ...other, headers: { ...other.headers, ...limits } };
  };
}

/** Class 7: no rate-limit headers and no limit at all. */
const noLimitsNoHeaders: Handler = async (request, forward) => {
  const reply = await forward(request);
  const headers = Object.fromEntries(Object.entries(reply.headers).filter(([n]) => !n.startsWith("x-ratelimit")));
  return { ...reply, headers };
};

/** Class 7: one account's requests counted on another's limit. */
function countsOnAnotherAccount(match: (r: Req) => boolean, from: "primary", onto: "rateLimits"): Handler {
  return (request, forward, keys) => forward(match(request) && keyOf(request) === keys.familyB[from] && keys.familyB[onto] ? withKey(request, keys.familyB[onto]!) : request);
}

/** Class 7: one operation counted on no one's limit (sent as another account). */
function notCounted(match: (r: Req) => boolean): Handler {
  return (request, forward, keys) => forward(match(request) && keyOf(request) === keys.familyB.rateLimits ? withKey(request, keys.familyB.secondAccount) : request);
}

const A = {
  createCharge: at("POST", /^\/v1\/charges$/),
  getCharge: at("GET", /^\/v1\/charges\/[^/]+$/),
  getMerchant: at("GET", /^\/v1\/merchant$/),
};
const B = {
  getHealth: at("GET", /^\/sdk\/status\/health$/),
  createCustomer: at("POST", /^\/api\/v1\/sdk\/customers$/),
  getCustomer: at("GET", /^\/api\/v1\/sdk\/customers\/[^/]+$/),
  updateCustomer: at("PUT", /^\/api\/v1\/sdk\/customers\/[^/]+$/),
  deleteCustomer: at("DELETE", /^\/api\/sdk\/customers\/[^/]+$/),
  getBoleto: at("GET", /^\/sdk\/boleto\/[^/]+$/),
  cancelBoleto: at("DELETE", /^\/api\/v1\/sdk\/boleto\/[^/]+\/cancel$/),
  createPixCharge: at("POST", /^\/pix$/),
  getPixCharge: at("GET", /^\/pix\/(?!query$|payment$)[^/]+$/),
  getPixQrCode: at("GET", /^\/pix\/[^/]+\/qrcode$/),
  queryPixKey: at("POST", /^\/pix\/query$/),
  createPixPayment: at("POST", /^\/pix\/payment$/),
  createTransaction: at("POST", /^\/transactions$/),
  listTransactions: at("GET", /^\/transactions$/),
  getTransaction: at("GET", /^\/transactions\/[^/]+$/),
  getTransactionStatus: at("GET", /^\/transactions\/[^/]+\/status$/),
};

const m = (derivedClass: DerivedClass, family: FamilyId, operation: string, variant: string, breaks: string, handle: Handler, extra: Partial<DerivedMutation> = {}): DerivedMutation => ({
  name: `${derivedClass}:${operation}:${variant}`,
  derivedClass,
  family,
  operation,
  breaks,
  caughtBy: `${family}/derived/${derivedClass}/${operation}/${variant}`,
  handle,
  ...extra,
});

const auth = (family: FamilyId, operation: string, match: (r: Req) => boolean, mode: "none" | "invalid" | "other-family") =>
  m("ignored-authentication", family, operation, { none: "no-key", invalid: "unissued-key", "other-family": "other-family-key" }[mode], `a request with ${mode === "none" ? "no key" : mode === "invalid" ? "a key no server issued" : "the other family's key"} is refused with 401`, ignoresKey(family, match, mode));
const tenant = (operation: string, match: (r: Req) => boolean, family: FamilyId = "family-b", variant = "second-account") =>
  m("tenant-isolation", family, operation, variant, "another account cannot read, change or list the first account's records", crossesTenants(family, match));
const negative = (family: FamilyId, operation: string, variant: string, match: (r: Req) => boolean, repair: (body: Json) => void, extra: Partial<DerivedMutation> = {}) =>
  m("negative-data", family, operation, variant, "a body breaking a documented constraint is refused", repairs(match, repair), extra);

export const DERIVED_MUTATIONS: DerivedMutation[] = [
  // 1. Ignored authentication
  auth("family-a", "getCharge", A.getCharge, "none"),
  auth("family-a", "createCharge", A.createCharge, "invalid"),
  auth("family-a", "getMerchant", A.getMerchant, "other-family"),
  auth("family-b", "getPixCharge", B.getPixCharge, "none"),
  auth("family-b", "getTransaction", B.getTransaction, "invalid"),
  auth("family-b", "getTransactionStatus", B.getTransactionStatus, "other-family"),
  auth("family-b", "listTransactions", B.listTransactions, "none"),
  auth("family-b", "updateCustomer", B.updateCustomer, "invalid"),
  auth("family-b", "getPixQrCode", B.getPixQrCode, "other-family"),
  auth("family-b", "getBoleto", B.getBoleto, "none"),
  auth("family-b", "createTransaction", B.createTransaction, "invalid"),
  auth("family-b", "queryPixKey", B.queryPixKey, "none"),
  // 2. Tenant isolation
  tenant("getPixCharge", B.getPixCharge),
  tenant("getPixQrCode", B.getPixQrCode),
  tenant("getTransaction", B.getTransaction),
  tenant("getTransactionStatus", B.getTransactionStatus),
  tenant("getBoleto", B.getBoleto),
  tenant("cancelBoleto", B.cancelBoleto),
  tenant("updateCustomer", B.updateCustomer),
  tenant("deleteCustomer", B.deleteCustomer),
  tenant("listTransactions", B.listTransactions, "family-b", "second-account-list"),
  // 3. Negative data
  negative("family-a", "createCharge", "fraction-amount", A.createCharge, (b) => typeof b.amount === "number" && (b.amount = Math.round(b.amount))),
  negative("family-a", "createCharge", "outside-enum-method", A.createCharge, (b) => typeof b.method === "string" && (b.method = "pix")),
  negative("family-a", "createCharge", "without-method", A.createCharge, (b) => (b.method ??= "pix"), { profile: "full" }),
  negative("family-b", "createCustomer", "without-email", B.createCustomer, (b) => (b.email ??= "repaired@example.com")),
  negative("family-b", "createCustomer", "without-address.city", B.createCustomer, (b) => b.address && (b.address.city ??= "São Paulo")),
  negative("family-b", "createCustomer", "wrong-type-name", B.createCustomer, (b) => typeof b.name === "number" && (b.name = String(b.name))),
  negative("family-b", "updateCustomer", "wrong-type-notes", B.updateCustomer, (b) => typeof b.notes === "number" && (b.notes = String(b.notes))),
  negative("family-b", "createPixCharge", "wrong-type-amount", B.createPixCharge, (b) => typeof b.amount === "string" && (b.amount = 10)),
  negative("family-b", "createTransaction", "without-amount", B.createTransaction, (b) => (b.amount ??= 10), { profile: "full" }),
  m("negative-data", "family-b", "createTransaction", "nothing-created", "a refused creation creates nothing", refusesButCreates(B.createTransaction, { amount: 12.34 }), { profile: "full" }),
  // 4. Positive data
  m("positive-data", "family-a", "createCharge", "generated-bodies", "a charge of any amount within its schema is accepted", refusesValid(A.createCharge, (b) => typeof b.amount === "number" && b.amount % 100 !== 0)),
  m("positive-data", "family-b", "createCustomer", "generated-bodies", "a customer with a short name is accepted", refusesValid(B.createCustomer, (b) => typeof b.name === "string" && b.name.length < 6)),
  m("positive-data", "family-b", "createPixCharge", "generated-bodies", "a PIX charge of any amount within the bounds is accepted", refusesValid(B.createPixCharge, (b) => typeof b.amount === "number" && !Number.isInteger(b.amount))),
  // 5. Consistency
  m("consistency", "family-a", "createCharge", "returns-what-was-sent", "a charge returns the reference sent", changesReply(A.createCharge, (d) => d.reference && (d.reference = `${d.reference}-x`))),
  m("consistency", "family-b", "createCustomer", "returns-what-was-sent", "a customer returns the name sent", changesReply(B.createCustomer, (d) => d.name && (d.name = `${d.name} Jr`))),
  m("consistency", "family-b", "createPixCharge", "returns-what-was-sent", "a PIX charge read returns its amount", changesReply(B.getPixCharge, (d) => typeof d.amount === "number" && (d.amount += 1))),
  m("consistency", "family-b", "createTransaction", "returns-what-was-sent", "a transaction returns the amount sent", changesReply(B.createTransaction, (d) => typeof d.amount === "number" && (d.amount += 1))),
  m("consistency", "family-b", "updateCustomer", "read-shows-change", "an update changes what it names", dropsOnUpdate(B.updateCustomer, "email")),
  // 6. Idempotency key space
  m("idempotency-key-space", "family-b", "createPixCharge", "another-account", "X-Idempotency-Key spaces are per API key", sharesIdempotency(B.createPixCharge, "x-idempotency-key")),
  m("idempotency-key-space", "family-b", "createTransaction", "another-account", "X-Idempotency-Key spaces are per API key", sharesIdempotency(B.createTransaction, "x-idempotency-key")),
  m("idempotency-key-space", "family-a", "createCharge", "second-key-same-account", "Idempotency-Keys are scoped per API key, also two keys of one account", secondKeyOfPrimary("family-a", true), { primarySecondKey: true }),
  m("idempotency-key-space", "family-b", "createPixCharge", "second-key-same-account", "X-Idempotency-Key spaces are per API key, also two keys of one account", secondKeyOfPrimary("family-b", true), { primarySecondKey: true }),
  m("idempotency-key-space", "family-b", "createTransaction", "second-key-same-account", "X-Idempotency-Key spaces are per API key, also two keys of one account", secondKeyOfPrimary("family-b", true), { primarySecondKey: true }),
  // 7. Rate limits
  m("rate-limits", "family-b", "getHealth", "general-limit-enforced", "a used-up general limit gives 429", unenforced(B.getHealth), { needsRateLimits: true }),
  m("rate-limits", "family-b", "createPixCharge", "pix-limit-enforced", "a used-up PIX limit gives 429", unenforced(B.createPixCharge), { needsRateLimits: true }),
  m("rate-limits", "family-b", "createTransaction", "transactions-limit-enforced", "a used-up transaction limit gives 429", unenforced(B.createTransaction), { needsRateLimits: true }),
  m("rate-limits", "family-b", "listTransactions", "queries-limit-enforced", "a used-up query limit gives 429", unenforced(B.listTransactions), { needsRateLimits: true }),
  m("rate-limits", "family-b", "getHealth", "general-limit-enforced", "without headers the published 100 per minute apply", noLimitsNoHeaders, { name: "rate-limits:no-headers-no-limit", needsRateLimits: false } as Partial<DerivedMutation>),
  m("rate-limits", "family-b", "getHealth", "other-account-unaffected", "limits are per account", countsOnAnotherAccount(B.getHealth, "primary", "rateLimits"), { needsRateLimits: true }),
  m("rate-limits", "family-b", "createPixPayment", "counts-against-pix-limit", "PIX payments count against the PIX limit", notCounted(B.createPixPayment), { needsRateLimits: true }),
];

/**
 * A faithful server that decided differently where the document is silent (mutants.ts'
 * OTHER_DECISIONS) and also: serves PIX and transactions under `/v2` (the target's
 * pathPrefix), answers 403 for another account's records, and has a second key of the primary
 * account with its own idempotency key space.
 */
export const FAITHFUL_PREFIX = "/v2";
export const faithfulOtherDecisions: Handler = async (request, forward, keys) => {
  let inner = request;
  if (/^\/v2\/(pix|transactions)/.test(inner.path)) inner = { ...inner, path: inner.path.slice(FAITHFUL_PREFIX.length) };
  else if (/^\/(pix|transactions)/.test(inner.path)) return { status: 404, headers: { "content-type": "application/json" }, body: JSON.stringify({ success: false, error: { code: "NOT_FOUND", message: "no such path", details: "" } }) };
  return secondKeyOfPrimary("family-a", false, (r1, f1, k1) => secondKeyOfPrimary("family-b", false, async (r2, f2) => {
    const reply = await f2(r2);
    const tenant = reply.status === 404 && [keys.familyA.secondAccount, keys.familyB.secondAccount].includes(keyOf(r2) ?? "");
    return OTHER_DECISIONS.response!(r2, tenant ? { ...reply, status: 403 } : reply);
  })(r1, f1, k1))(inner, forward, keys);
};

export function startDerivedMutant(upstream: string, handle: Handler, keys: DerivedKeys): Promise<{ url: string; close(): Promise<void> }> {
  return startProxy(upstream, (request, forward) => handle(request, forward, keys));
}
