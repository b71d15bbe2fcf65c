/**
 * Broken servers made from the contract model: for every operation of a kind, a server with one
 * fault there (the kinds are the generic checks' own: id-links.ts, positive-data.ts, the list
 * filters of list-filters.ts). Nothing
 * here names an operation: adding an operation to the contract adds its broken servers.
 */
import { COMPARISON_WORDS, compileOpenApiSchema, echoesOf, listItemsOf, loadFamilyContract, MALFORMED_REQUEST_CODE, OperationIndex, satisfiesFilter, type ContractOperation, type FamilyContract, type FamilyId } from "@payment-collection/contract/model/index.ts";
import { DOMAIN_FORMATS, DOMAIN_NUMBER_FORMATS } from "@payment-collection/contract/model/domain-formats.ts";
import { DOMAIN_FORMAT_EXTENSION } from "@payment-collection/contract/model/json-schema.ts";
import { breakersOf } from "../../src/derived/constraint-breakers.ts";
import type { Profile } from "../../src/core/profiles/index.ts";
import type { Target } from "../../src/core/target.ts";
import { isDecisionElement, profileSchema } from "../../src/core/profiles/schema-profile.ts";
import { classStatements, type DerivedClass } from "../../src/derived/index.ts";
import { loadCatalogue, statementsFor } from "../../src/core/statement-map.ts";
import { checksFor } from "@payment-collection/contract/statements.ts";
import { VARIANT_STATEMENTS as FRACTION_STATEMENTS, parameterVariants, variantsOf } from "../../src/derived/negative-data.ts";
import { changesRecord, creationOf, createsRecord, idempotencyHeaders, isLinkedMember, isList, pathParameters, readerOfResource, readOf, resourceOf } from "../../src/derived/id-links.ts";
import { boundsLeftOpen, isPositiveDataOperation, isProse } from "../../src/derived/positive-data.ts";
import { perApiKeyElements } from "../../src/derived/idempotency-key-space.ts";
import { filterDecision, listFilters } from "../../src/derived/list-filters.ts";
import { BUCKET_STATEMENT, byCostOfUsingUp } from "../../src/derived/rate-limits.ts";
import { limitsOf, type Bucket } from "../../src/derived/rate-limit-figures.ts";
import { asserted } from "../../src/core/profiles/document-word.ts";
import { keywordOf, objectView, typeOf } from "../../src/derived/request-schema.ts";
import { refusesEmptyObject } from "../../src/derived/unreadable-bodies.ts";
import { VOLATILE_MEMBERS } from "../../src/derived/shared.ts";
import { countsReadOn, DECISION as CORS_DECISION, documentedResponseHeaders } from "../../src/derived/cors.ts";
import { TEST_CORS_ORIGINS } from "@payment-collection/sandbox/harness/temporary-sandbox.ts";
import type { Exchange as Req } from "./mutants.ts";
import * as fault from "./derived-faults.ts";
import type { Handler, Json, KeyFault, Lenience, Match } from "./derived-faults.ts";

export interface DerivedMutation {
  name: string;
  derivedClass: DerivedClass;
  family: FamilyId;
  /** The operation whose rule is broken. */
  operation: string;
  breaks: string;
  /** Id prefix of a derived result that must fail. */
  caughtBy: string;
  /**
   * Catalogue ids (spec/statements.yaml) of the statements this server breaks: a failing result
   * that kills it must name one of them.
   */
  statements?: string[];
  /** The decision it breaks where the contract does not model it (no statement names it): a result that kills it names it. */
  decisions?: string[];
  profile?: Profile;
  /** Needs the small rate-limit plan and the exhaust stage. */
  needsRateLimits?: boolean;
  /** Changes the target the suites get (a plan it must not declare...). */
  adjustTarget?: (target: Target) => void;
  handle: Handler;
}

const FAMILIES: FamilyId[] = ["family-a", "family-b"];
const contracts = new Map<FamilyId, { contract: FamilyContract; index: OperationIndex }>();
function contractOf(family: FamilyId) {
  let entry = contracts.get(family);
  if (!entry) {
    const contract = loadFamilyContract(family);
    entry = { contract, index: new OperationIndex(contract.operations) };
    contracts.set(family, entry);
  }
  return entry;
}

/** Requests of one operation, as the proxy receives them. */
export function matcher(family: FamilyId, operationId: string): Match {
  const { index } = contractOf(family);
  return (request) => index.match(request.method, request.path)?.operationId === operationId;
}

/** The id a request names in its path (its first path parameter). */
function idIn(family: FamilyId): (request: Req) => string | undefined {
  const { index } = contractOf(family);
  return (request) => Object.values(index.match(request.method, request.path)?.pathParams ?? {})[0];
}

const all = () => FAMILIES.flatMap((family) => contractOf(family).contract.operations.map((op) => ({ family, op, contract: contractOf(family).contract })));

const catalogue = loadCatalogue();

/**
 * The statements a generic check's broken server breaks at one operation: those the catalogue
 * says the class enforces (`enforcedBy`) that the operation's responses encode, or all of the
 * class's when none is encoded there.
 */
export function derivedStatements(derivedClass: DerivedClass, family: FamilyId, operationId: string): string[] {
  const { contract } = contractOf(family);
  const op = contract.operations.find((o) => o.operationId === operationId);
  const ofOperation = new Set((op?.responses ?? []).flatMap((r) => statementsFor(catalogue, contract, { family, operationId, status: r.status })));
  // "amount is an integer" belongs to negative data's fraction variant only (negativeData() adds it there).
  const ofClass = classStatements(derivedClass, family, catalogue).filter((id) => !FRACTION_STATEMENTS.includes(id));
  const here = ofClass.filter((id) => ofOperation.has(id));
  return here.length > 0 ? here : ofClass;
}

/** The wire statements the catalogue encodes as one request member of an operation (`method`, `amount`...). */
export function requestMemberStatements(family: FamilyId, operationId: string, member: string): string[] {
  return catalogue.statements
    .filter((s) => s.wire && checksFor(s, family).some((enc) => {
      const e = enc as unknown as Record<string, unknown>;
      return e.check === "property" && e.request === true && e.operation === operationId && e.path === member;
    }))
    .map((s) => s.id);
}

function mutation(derivedClass: DerivedClass, family: FamilyId, op: ContractOperation, variant: string, fault: string, breaks: string, handle: Handler, profile?: Profile): DerivedMutation {
  return {
    name: `${derivedClass}:${op.operationId}:${fault}`,
    derivedClass,
    family,
    operation: op.operationId,
    breaks,
    caughtBy: `${family}/derived/${derivedClass}/${op.operationId}/${variant}`,
    statements: derivedStatements(derivedClass, family, op.operationId),
    handle,
    ...(profile ? { profile } : {}),
  };
}

const example = (op: ContractOperation): Json => (op.requestBody?.example && typeof op.requestBody.example === "object" ? (op.requestBody.example as Json) : {});
const successExample = (op: ContractOperation): Json => {
  const body = op.responses.find((r) => r.status.startsWith("2"))?.example as Json | undefined;
  return body?.data && typeof body.data === "object" ? body.data : (body ?? {});
};

// 1. Ignored authentication: every operation that documents a 401 ignores one kind of bad key.

const KEY_FAULTS: Array<[KeyFault, string]> = [["none", "no-key"], ["invalid", "unissued-key"], ["other-family", "other-family-key"], ["beside-query", "key-also-in-query"]];

function ignoredAuthentication(): DerivedMutation[] {
  return all()
    .filter(({ op }) => op.responses.some((r) => r.status === "401"))
    .map(({ family, op }, i) => {
      const [mode, variant] = KEY_FAULTS[i % KEY_FAULTS.length]!;
      // D46 (full): the key beside a credential in the query; the check's variants name the credential (key-also-in-query-<name>).
      if (mode === "beside-query") return mutation("ignored-authentication", family, op, variant, variant, "a request with its key and a credential also in the URL query is refused with 401 (D46)", fault.ignoresKey(family, matcher(family, op.operationId), mode), "full");
      return mutation("ignored-authentication", family, op, variant, variant, `a request with ${variant.replace(/-/g, " ")} is refused with 401`, fault.ignoresKey(family, matcher(family, op.operationId), mode));
    });
}

// 2. Tenant isolation: every operation on a record, every list, every change, every body naming a record.

function tenantIsolation(): DerivedMutation[] {
  const out: DerivedMutation[] = [];
  for (const { family, op } of all()) {
    const match = matcher(family, op.operationId);
    const breaks = "another account cannot read, change, list or use the first account's records";
    if (pathParameters(op).length > 0) out.push(mutation("tenant-isolation", family, op, "second-account", "served-to-another-account", breaks, fault.crossesTenants(family, match)));
    if (isList(op)) out.push(mutation("tenant-isolation", family, op, "second-account-list", "lists-another-account", breaks, fault.crossesTenants(family, match)));
    if (changesRecord(op)) out.push(mutation("tenant-isolation", family, op, "second-account", "changes-then-refuses", "a refused change by another account changes nothing", fault.changesThenRefuses(family, match)));
    const linked = Object.keys(example(op)).filter((name) => isLinkedMember(name) && objectView(op.requestBody?.schema)?.required.includes(name));
    if (pathParameters(op).length === 0 && op.method !== "GET" && linked.length > 0) {
      const decided = op.requestBody && isDecisionElement(op.requestBody.schema);
      out.push(mutation("tenant-isolation", family, op, "second-account-linked", "uses-another-accounts-record", `another account cannot use the first account's ${linked.join(", ")}`, fault.crossesTenants(family, match), decided ? "full" : undefined));
    }
  }
  return out;
}

// 3. Negative data: per request body and kind of constraint, the first member with one, not checked.

interface Constraint {
  kind: string;
  /** The variant name the check gives it (negative-data.ts). */
  variant: (name: string) => string;
  holds(schema: Json, name: string, view: { required: string[] }, body: Json): boolean;
  lenience(schema: Json): Lenience;
}

const JSON_TYPE: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === "string",
  number: (v) => typeof v === "number",
  integer: (v) => typeof v === "number",
  boolean: (v) => typeof v === "boolean",
  object: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
  array: Array.isArray,
};

const CONSTRAINTS: Constraint[] = [
  { kind: "required", variant: (n) => `without-${n}`, holds: (_s, name, view, body) => view.required.includes(name) && name in body, lenience: () => ({ broken: (_v, present) => !present }) },
  { kind: "type", variant: (n) => `wrong-type-${n}`, holds: (s) => !!typeOf(s) && !!JSON_TYPE[typeOf(s)!], lenience: (s) => ({ broken: (v, present) => present && v !== null && !JSON_TYPE[typeOf(s)!]!(v) }) },
  { kind: "integer", variant: (n) => `fraction-${n}`, holds: (s) => typeOf(s) === "integer", lenience: () => ({ broken: (v) => typeof v === "number" && !Number.isInteger(v), lenient: (v) => Math.round(v as number) }) },
  {
    kind: "enum",
    variant: (n) => `outside-enum-${n}`,
    holds: (s) => Array.isArray(keywordOf(s, "enum")),
    lenience: (s) => ({ broken: (v) => typeof v === "string" && !(keywordOf(s, "enum") as unknown[]).includes(v), lenient: () => (keywordOf(s, "enum") as unknown[])[0] }),
  },
  {
    kind: "maxLength",
    variant: (n) => `over-maxLength-${n}`,
    holds: (s) => typeof keywordOf(s, "maxLength") === "number",
    lenience: (s) => ({ broken: (v) => typeof v === "string" && v.length > (keywordOf(s, "maxLength") as number), lenient: (v) => (v as string).slice(0, keywordOf(s, "maxLength") as number) }),
  },
];

const LENIENT_BREAKS: Record<string, string> = {
  required: "a missing required member is refused, not defaulted",
  type: "a member of the wrong type is refused, not replaced by a default",
  integer: "a fraction where the schema says integer is refused, not rounded",
  enum: "a value outside the enum is refused, not mapped to a default",
  maxLength: "a string over its maxLength is refused, not truncated",
};

const TYPE_DEFAULT: Record<string, unknown> = { string: "default", number: 1, integer: 1, boolean: false };

/** The first member of the body with the constraint, preferring one the document states (seed). */
function firstConstrained(op: ContractOperation, constraint: Constraint): { name: string; profile: Profile; schema: Json } | undefined {
  for (const profile of ["seed", "full"] as const) {
    const view = objectView(profileSchema(op.requestBody!.schema, profile));
    if (!view || (profile === "seed" && isDecisionElement(op.requestBody!.schema))) continue;
    for (const [name, schema] of Object.entries(view.properties)) {
      if (constraint.holds(schema, name, view, example(op))) return { name, profile, schema };
    }
  }
  return undefined;
}

function negativeData(): DerivedMutation[] {
  const out: DerivedMutation[] = [];
  for (const { family, op } of all()) {
    if (!op.requestBody) continue;
    for (const constraint of CONSTRAINTS) {
      const found = firstConstrained(op, constraint);
      if (!found) continue;
      const fallback = example(op)[found.name] ?? TYPE_DEFAULT[typeOf(found.schema) ?? "string"];
      const handle = fault.lenientMember(matcher(family, op.operationId), [found.name], constraint.lenience(found.schema), fallback);
      const broken = mutation("negative-data", family, op, constraint.variant(found.name), constraint.variant(found.name), LENIENT_BREAKS[constraint.kind]!, handle, found.profile === "full" ? "full" : undefined);
      // The member's own statements, and for a fraction in family A "amount is an integer".
      const member = [...requestMemberStatements(family, op.operationId, found.name), ...(constraint.kind === "integer" && family === "family-a" ? FRACTION_STATEMENTS : [])];
      if (member.length > 0) broken.statements = member;
      out.push(broken);
    }
  }
  return out;
}

// 3a. Domain formats: every body with a member the check breaks by its domain format (a CPF's check
// digits, a PIX key's forms, an amount's centavos) lets one such value through; where the
// operation documents a 404, another answers it as a value that names nothing.

/** Why a value breaks a domain format (number or string), or null. */
function domainProblem(format: string, value: unknown): string | null {
  if (Object.hasOwn(DOMAIN_FORMATS, format)) return typeof value === "string" ? DOMAIN_FORMATS[format as keyof typeof DOMAIN_FORMATS](value) : null;
  if (Object.hasOwn(DOMAIN_NUMBER_FORMATS, format)) return typeof value === "number" ? DOMAIN_NUMBER_FORMATS[format as keyof typeof DOMAIN_NUMBER_FORMATS](value) : null;
  return null;
}

/** The first member of the body the check breaks by its domain format, under the first profile that holds one (seed, then full), with the variant that does. */
function firstDomainFormatted(op: ContractOperation): { name: string; format: string; profile: Profile; variant: string } | undefined {
  const full = objectView(op.requestBody!.schema);
  for (const profile of ["seed", "full"] as const) {
    const view = objectView(profileSchema(op.requestBody!.schema, profile));
    if (!view || !full || (profile === "seed" && isDecisionElement(op.requestBody!.schema))) continue;
    for (const [name, schema] of Object.entries(view.properties)) {
      const format = keywordOf(schema, DOMAIN_FORMAT_EXTENSION);
      const breaker = breakersOf(schema, full.properties[name] ?? schema, example(op)[name]).find((b) => b.breaks === DOMAIN_FORMAT_EXTENSION);
      if (typeof format === "string" && breaker) return { name, format, profile, variant: `${breaker.keyword}-${name}` };
    }
  }
  return undefined;
}

function domainFormatFaults(): DerivedMutation[] {
  const out: DerivedMutation[] = [];
  for (const { family, op } of all()) {
    const found = op.requestBody ? firstDomainFormatted(op) : undefined;
    if (!found) continue;
    const { name, format, profile, variant } = found;
    const broken = (value: unknown) => domainProblem(format, value) !== null;
    const a = /^[aeiou]/i.test(name) ? "an" : "a";
    // An amount is rounded to centavos; a string has no repair, so the last accepted value stands in.
    const lenient = format === "brl-amount" ? (value: unknown) => Math.round((value as number) * 100) / 100 : undefined;
    const handle = fault.lenientMember(matcher(family, op.operationId), [name], { broken: (value, present) => present && broken(value), lenient }, example(op)[name]);
    out.push(mutation("negative-data", family, op, variant, `lenient-${format}-${name}`, `${a} ${name} that breaks its domain format (${format}) is refused, not taken`, handle, profile === "full" ? "full" : undefined));
    // A string that may name a record (a key, a document) looked up unchecked. The documented 400
    // (D32) is full's: under seed any 4xx refuses.
    if (Object.hasOwn(DOMAIN_FORMATS, format) && op.responses.some((r) => r.status === "404")) {
      out.push(mutation("negative-data", family, op, variant, `unknown-not-malformed-${name}`, `${a} ${name} that breaks its domain format (${format}) gets the documented 400, not the 404 of a value that names nothing`, fault.refusesAsUnknown(matcher(family, op.operationId), name, broken), "full"));
    }
  }
  return out;
}

// 3b. Unreadable bodies: every operation with a body reads it wrong one way (the ways taken in turn).

const BODY_READING_FAULTS: Array<[fault.BodyReadingFault, string]> = [
  ["not-json", "a body that is not JSON is refused with a 4xx, not a 5xx"],
  ["empty", "an empty body, where members are required, is refused with a 4xx, not a 5xx"],
  ["not-sent-as-json", "a body not sent as application/json is refused with the documented 400 (D39)"],
  ["sent-as-another-json-type", "a body sent as another JSON media type is refused with the documented 400 (D39)"],
  ["sent-without-content-type", "a body sent without a Content-Type is refused with the documented 400 (D39)"],
  ["over-size-limit", "a body past 1 MiB is refused with the documented 400 (D39)"],
];

function unreadableBodies(): DerivedMutation[] {
  return all()
    .filter(({ op }) => op.requestBody)
    .map(({ family, op }, i) => {
      const [how, breaks] = BODY_READING_FAULTS[i % BODY_READING_FAULTS.length]!;
      // The document's word only where the body is, and (empty) where its members are required by it.
      const seed = (how === "not-json" || how === "empty") && !isDecisionElement(op.requestBody!.schema) && (how === "not-json" || refusesEmptyObject(profileSchema(op.requestBody!.schema, "seed")));
      const broken = mutation("negative-data", family, op, how, `reads-body-wrong-${how}`, breaks, fault.readsBodyWrong(matcher(family, op.operationId), how), seed ? undefined : "full");
      broken.statements = [...unreadableStatements(family, op, how)];
      return broken;
    });
}

/** The statements a body-reading fault breaks: every body is JSON; not sent as JSON also the operation's Content-Type; over the limit only D39 (the class's own). */
function unreadableStatements(family: FamilyId, op: ContractOperation, how: fault.BodyReadingFault): string[] {
  const json = catalogue.statements.filter((s) => checksFor(s, family).some((e) => (e as { check?: string }).check === "content-types")).map((s) => s.id);
  if (how === "over-size-limit") return derivedStatements("negative-data", family, op.operationId);
  return json;
}

// 3b'. Bounds of a body: one server per variant of D39's bounds, on the first operation of each
// family that takes them all (those whose valid bodies must be accepted: positive data's).
// Without one structure bound, or with a bound one lower. How a server bounds bodies is not
// the operation's own, so one operation per family shows each variant catching its fault.

const BODY_BOUND_FAULTS: Array<[fault.BodyBoundFault, string]> = [
  ["too-deep", "a body nested past D39's depth is refused with the documented 400, not read whole"],
  ["array-too-long", "a body with an array past D39's items is refused with the documented 400, not read whole"],
  ["too-many-values", "a body past D39's values is refused with the documented 400, not read whole"],
  ["at-depth-limit", "a body nested exactly D39's depth is read, not refused"],
  ["at-array-limit", "a body with an array of exactly D39's items is read, not refused"],
  ["at-value-limit", "a body of exactly D39's values is read, not refused"],
  ["at-size-limit", "a body of exactly 1 MiB is read, not refused"],
];

function bodyBounds(): DerivedMutation[] {
  return FAMILIES.flatMap((family) => {
    const { contract } = contractOf(family);
    const op = contract.operations.find((o) => isPositiveDataOperation(contract, o));
    if (!op) return [];
    const declared = Object.keys(objectView(op.requestBody!.schema)?.properties ?? {});
    return [
      ...BODY_BOUND_FAULTS.map(([how, breaks]) => {
        const name = how.startsWith("at-") ? `bound-one-lower-${how}` : `no-bound-${how}`;
        return mutation("negative-data", family, op, how, name, breaks, fault.boundsBodyWrong(matcher(family, op.operationId), how, declared), "full");
      }),
      mutation("negative-data", family, op, "json-type-written-otherwise", "compares-media-type-exactly", "a body sent as application/json written in another case, with whitespace before its parameters, is read (D39, RFC 9110)", fault.comparesMediaTypeExactly(matcher(family, op.operationId)), "full"),
    ];
  });
}

// 3c. Parameters: every operation with a query or header parameter a check can break lets one such parameter (its last) break its schema.

/** A parameter's value as the schema reads it: a query number is sent as text. */
const asTyped = (schema: Json, value: string): unknown => (["integer", "number"].includes(typeOf(schema) ?? "") && /^[+-]?\d+(\.\d+)?$/.test(value) ? Number(value) : value);

/** The parameter of an operation a check breaks under the profile (its last), with the first way it breaks it. */
function breakableParameter(op: ContractOperation, profile: Profile) {
  const parameter = [...op.parameters].reverse().find((p) => p.name.toLowerCase() !== "x-api-key" && asserted(profile, { kind: "parameter", parameter: p, operation: op }) && parameterVariants(p, profile, p.example ?? "x".repeat(16)).length > 0);
  if (!parameter) return undefined;
  const [variant] = parameterVariants(parameter, profile, parameter.example ?? "x".repeat(16));
  const validate = compileOpenApiSchema(profileSchema(parameter.schema, profile), "3.0") as (value: unknown) => boolean;
  const refuses = (value: string) => !validate(asTyped(parameter.schema as Json, value));
  return { parameter, variant: variant!, where: parameter.in as "query" | "header", refuses };
}

// 3c-1. Header lengths in characters (D45): every operation with a header parameter that has a
// minimum length counts it in bytes, under full.

function headerCharacterFaults(): DerivedMutation[] {
  return all().flatMap(({ family, op }) =>
    op.parameters
      .filter((p) => p.in === "header" && typeof keywordOf(profileSchema(p.schema, "full"), "minLength") === "number" && Number(keywordOf(profileSchema(p.schema, "full"), "minLength")) > 1)
      .map((p) => {
        const minLength = Number(keywordOf(profileSchema(p.schema, "full"), "minLength"));
        return mutation("negative-data", family, op, `header-${p.name}-under-minLength-in-characters`, `counts-header-bytes-${p.name}`, `a header ${p.name} of fewer characters than its minimum is refused, however many bytes it takes (D45)`, fault.countsHeaderBytes(matcher(family, op.operationId), p.name, minLength), "full");
      }),
  );
}

// 3c-2. Integers of a query (D28): every operation with an integer query parameter reads it in
// any number notation, under full (each notation is its own variant: the first one catches it).

function integerNotationFaults(): DerivedMutation[] {
  return all().flatMap(({ family, op }) =>
    op.parameters
      .filter((p) => p.in === "query" && typeOf(profileSchema(p.schema, "full")) === "integer")
      .flatMap((p) => [
        mutation("negative-data", family, op, `query-${p.name}-exponent`, `reads-any-number-notation-${p.name}`, `a query ${p.name} written other than in decimal digits is refused, not read as the number (D28)`, fault.readsAnyNumberNotation(matcher(family, op.operationId), p.name), "full"),
        mutation("negative-data", family, op, `query-${p.name}-signed`, `refuses-signed-integer-${p.name}`, `a query ${p.name} written with a sign is read as the integer (D28)`, fault.refusesSignedInteger(matcher(family, op.operationId), p.name), "full"),
      ]),
  );
}

// 3c-2b. Leap seconds (D39): every operation with a date-time query parameter reads one that
// names a leap second as the second before it, under full.

function leapSecondFaults(): DerivedMutation[] {
  return all().flatMap(({ family, op }) =>
    op.parameters
      .filter((p) => p.in === "query" && keywordOf(profileSchema(p.schema, "full"), "format") === "date-time")
      .map((p) => mutation("negative-data", family, op, `query-${p.name}-leap-second`, `shifts-leap-second-${p.name}`, `a query ${p.name} naming a leap second is refused, not read as the second before it (D39)`, fault.shiftsLeapSecond(matcher(family, op.operationId), p.name), "full")),
  );
}

// 3c-3. Query parameters given twice (D32): every operation with a query parameter reads its
// last one given twice as its first value, under full.

function repeatedQueryFaults(): DerivedMutation[] {
  return all().flatMap(({ family, op }) => {
    const last = [...op.parameters].reverse().find((p) => p.in === "query" && p.example !== undefined);
    return last ? [mutation("negative-data", family, op, `query-${last.name}-given-twice`, `takes-first-of-repeated-${last.name}`, `a query ${last.name} given twice is refused, not read as its first value (D32)`, fault.takesFirstOfRepeated(matcher(family, op.operationId), last.name), "full")] : [];
  });
}

function parameterFaults(): DerivedMutation[] {
  const out: DerivedMutation[] = [];
  const refusalShapes = new Set<string>();
  for (const { family, op } of all()) {
    // Lenience: under the first profile that breaks a parameter of the operation.
    for (const profile of ["seed", "full"] as const) {
      const found = breakableParameter(op, profile);
      if (!found) continue;
      const { parameter, variant, where, refuses } = found;
      let fresh = 0;
      const valid = () => (/idempotency/i.test(parameter.name) ? `lenient-parameter-${process.pid}-${(fresh += 1)}` : String(parameter.example ?? "payment-collection"));
      out.push(mutation("negative-data", family, op, variant.name, `lenient-${where}-${parameter.name}`, `a ${where} ${parameter.name} that breaks its schema is refused, not replaced or ignored`, fault.lenientParameter(matcher(family, op.operationId), where, parameter.name, refuses, valid), profile === "full" ? "full" : undefined));
      break;
    }
    // The wrong answer (full: D32, D45 say which), once per documented 400 body: the check that
    // catches it is the same on every operation that shares one.
    const found = breakableParameter(op, "full");
    const shape = JSON.stringify(op.responses.find((r) => r.status === "400")?.schema ?? null);
    if (!found || refusalShapes.has(shape)) continue;
    refusalShapes.add(shape);
    const { parameter, variant, where, refuses } = found;
    out.push(mutation("negative-data", family, op, variant.name, `undocumented-refusal-${where}-${parameter.name}`, `a ${where} ${parameter.name} that breaks its schema gets the documented 400 (D32, D45)`, fault.refusesParameterUndocumented(matcher(family, op.operationId), where, parameter.name, refuses), "full"));
  }
  return out;
}

// 3d. Refusal codes: every operation whose 400 documents more than one code answers a refusal
// with the wrong one: the code the contract ties to a constraint (x-refusal-codes) given as the
// code of any malformed request, and that code given to every refusal.

/** The error codes the operation's 400 documents, wherever its body keeps the code. */
function refusalCodes(op: ContractOperation): string[] {
  const schema = op.responses.find((r) => r.status === "400")?.schema as Json | undefined;
  const error = schema?.properties?.error?.properties;
  const codes = schema?.properties?.code?.enum ?? error?.code?.enum ?? error?.errorCode?.enum;
  return Array.isArray(codes) ? codes.map(String) : [];
}

/** The negative-data variants of an operation under a profile (body and parameters), with the code each must be refused with if the contract ties one. */
function refusalVariants(op: ContractOperation, family: FamilyId, profile: Profile): Array<{ name: string; code?: string }> {
  const body = example(op);
  const bodies = op.requestBody && !(profile === "seed" && isDecisionElement(op.requestBody.schema)) ? variantsOf(profileSchema(op.requestBody.schema, profile), body, { family, accepted: (name) => body[name], full: op.requestBody.schema, path: [] }) : [];
  const parameters = op.parameters
    .filter((p) => p.name.toLowerCase() !== "x-api-key" && asserted(profile, { kind: "parameter", parameter: p, operation: op }))
    .flatMap((p) => parameterVariants(p, profile, p.example ?? "x".repeat(16)));
  return [...bodies, ...parameters];
}

function refusalCodeFaults(): DerivedMutation[] {
  const out: DerivedMutation[] = [];
  for (const { family, op } of all()) {
    const codes = refusalCodes(op);
    if (codes.length < 2 || !codes.includes(MALFORMED_REQUEST_CODE)) continue;
    const match = matcher(family, op.operationId);
    const tied = new Set<string>();
    for (const profile of ["seed", "full"] as const) {
      for (const variant of refusalVariants(op, family, profile)) {
        if (!variant.code || tied.has(variant.code)) continue;
        tied.add(variant.code);
        out.push(mutation("negative-data", family, op, variant.name, `untied-code-${variant.code}`, `a refusal for the constraint the contract ties to ${variant.code} carries ${variant.code}`, fault.relabelsRefusals(match, variant.code, MALFORMED_REQUEST_CODE), profile === "full" ? "full" : undefined));
      }
    }
    // Every other malformed request: the code of malformed requests (full), not the code of one constraint.
    const untied = refusalVariants(op, family, "full").find((variant) => !variant.code);
    const other = [...tied][0] ?? codes.find((code) => code !== MALFORMED_REQUEST_CODE)!;
    if (untied) out.push(mutation("negative-data", family, op, untied.name, `every-refusal-${other}`, `a malformed request whose constraint the contract ties to no code carries ${MALFORMED_REQUEST_CODE} (D18, D21, D32), not ${other}`, fault.relabelsRefusals(match, MALFORMED_REQUEST_CODE, other), "full"));
  }
  return out;
}

// 4. Positive data: per operation the class covers, one unstated condition per kind of member it generates.

interface Refusal {
  fault: string;
  breaks: string;
  applies(schema: Json, value: unknown): boolean;
  refuse(value: unknown): boolean;
}

const REFUSALS: Refusal[] = [
  { fault: "refuses-cents", breaks: "an amount with cents within the schema is accepted", applies: (s) => typeOf(s) === "number", refuse: (v) => typeof v === "number" && !Number.isInteger(v) },
  { fault: "refuses-uneven", breaks: "an integer within the schema is accepted, round or not", applies: (s) => typeOf(s) === "integer", refuse: (v) => typeof v === "number" && v % 100 !== 0 },
  { fault: "refuses-plus-address", breaks: "an e-mail with a plus sign is accepted", applies: (s) => keywordOf(s, "format") === "email", refuse: (v) => typeof v === "string" && v.split("@")[0]!.includes("+") },
  { fault: "refuses-digits-in-text", breaks: "free text with digits is accepted", applies: (s, v) => typeOf(s) === "string" && keywordOf(s, "format") === undefined && keywordOf(s, "enum") === undefined && isProse(v), refuse: (v) => typeof v === "string" && /\d/.test(v) },
];

function positiveData(): DerivedMutation[] {
  const out: DerivedMutation[] = [];
  for (const { family, op, contract } of all()) {
    if (!isPositiveDataOperation(contract, op)) continue;
    const view = objectView(op.requestBody!.schema)!;
    for (const refusal of REFUSALS) {
      const name = Object.keys(example(op)).find((n) => !isLinkedMember(n) && view.properties[n] && refusal.applies(view.properties[n]!, example(op)[n]));
      if (!name) continue;
      // A member whose bounds a decision sets (D03's amounts) takes only the values the document shows under seed.
      const decided = isDecisionElement(op.requestBody!.schema) || isDecisionElement(view.properties[name]) || boundsLeftOpen(view.properties[name]!, "seed");
      const handle = fault.refusesValid(matcher(family, op.operationId), (body) => refusal.refuse(body[name]));
      out.push(mutation("positive-data", family, op, "generated-bodies", `${refusal.fault}-${name}`, `${refusal.breaks} (${name})`, handle, decided ? "full" : undefined));
    }
    for (const name of unexampled(op)) {
      const match = matcher(family, op.operationId);
      out.push(mutation("positive-data", family, op, "generated-bodies", `refuses-optional-${name}`, `a body carrying the optional ${name}, which no example carries, is accepted`, fault.refusesValid(match, (body) => name in body), everyMemberProfile(contract, op, name)));
      if (objectView(view.properties[name])) {
        const emptied = fault.changesReply(match, (d) => void (d[name] && typeof d[name] === "object" && (d[name] = {})));
        out.push(mutation("positive-data", family, op, "generated-bodies", `empties-optional-${name}`, `a body carrying the optional ${name} is answered as documented (not with an empty ${name})`, emptied, everyMemberProfile(contract, op, name)));
      }
    }
  }
  return out;
}

/** Optional members of an operation's request no contract example carries: only a body of every member sends them. */
function unexampled(op: ContractOperation): string[] {
  const view = objectView(op.requestBody?.schema);
  return view ? Object.keys(view.properties).filter((name) => !view.required.includes(name) && !isLinkedMember(name) && !(name in example(op))) : [];
}

/**
 * The profile under which a body of every member carries an optional member: seed where the
 * document names it (for an object, one of its members) and bounds its value itself, or an
 * example of the operation or (an update) of its resource's creation shows one.
 */
function everyMemberProfile(contract: FamilyContract, op: ContractOperation, name: string): Profile | undefined {
  const [parameter] = pathParameters(op);
  const creation = parameter && op.method !== "POST" ? creationOf(contract, resourceOf(op, parameter) ?? "") : undefined;
  const shown = name in example(op) || (creation !== undefined && name in example(creation));
  const seedSends = (schema: Json): boolean => {
    const view = objectView(schema);
    if (isDecisionElement(schema)) return false;
    return view ? Object.values(view.properties).some(seedSends) : !boundsLeftOpen(schema, "seed") || shown;
  };
  return seedSends(objectView(op.requestBody!.schema)!.properties[name]!) && !isDecisionElement(op.requestBody!.schema) ? undefined : "full";
}

// 5. Consistency: creations answer, reads show, changes happen, and every read of a record agrees.

/** A value changed the way a server gets it wrong: a fee added, a unit confused, a column too short, another state. */
function altered(value: unknown, how: "creation" | "read", states: unknown[] = []): unknown {
  if (typeof value === "number") return how === "creation" ? value + 1 : value * 100;
  if (typeof value === "string" && states.includes(value)) return states.find((s) => s !== value);
  if (typeof value === "string") return how === "creation" ? value.slice(0, Math.max(1, value.length - 3)) : value.toUpperCase() === value ? value.toLowerCase() : value.toUpperCase();
  return value;
}

/** Members both examples carry at the top level (not ids, not links, not volatile). */
function sharedMembers(sent: Json, received: Json): string[] {
  return Object.keys(sent).filter((n) => n in received && n !== "id" && !isLinkedMember(n) && !VOLATILE_MEMBERS.has(n) && typeof sent[n] !== "object");
}

/** The profile under which a run sends a request member: seed leaves out the decisions' members. */
function sentUnder(op: ContractOperation, member: string): Profile | undefined {
  const schema = op.requestBody?.schema;
  const property = objectView(schema)?.properties[member];
  return schema && !isDecisionElement(schema) && isDecisionElement(property) ? "full" : undefined;
}

function consistency(): DerivedMutation[] {
  const out: DerivedMutation[] = [];
  for (const { family, op, contract } of all()) {
    const match = matcher(family, op.operationId);
    if (createsRecord(contract, op)) {
      const [first] = sharedMembers(example(op), successExample(op));
      if (first) out.push(mutation("consistency", family, op, "returns-what-was-sent", `creation-alters-${first}`, `a creation returns the ${first} sent`, fault.changesReply(match, (d) => void (d[first] = altered(d[first], "creation"))), sentUnder(op, first)));
      for (const name of unexampled(op).filter((n) => n in successExample(op))) {
        // The optional member ignored on the way in, or its first nested text changed on the way back.
        out.push(mutation("consistency", family, op, "returns-what-was-sent", `ignores-optional-${name}`, `a creation keeps the optional ${name} sent`, fault.repairs(match, (b) => void delete b[name]), everyMemberProfile(contract, op, name)));
        const leaf = Object.entries(objectView(objectView(op.requestBody!.schema)!.properties[name])?.properties ?? {}).find(([, sub]) => typeOf(sub) === "string" && keywordOf(sub, "pattern") === undefined)?.[0];
        if (leaf) out.push(mutation("consistency", family, op, "returns-what-was-sent", `creation-alters-${name}.${leaf}`, `a creation returns the ${name}'s ${leaf} sent`, fault.changesReply(match, (d) => void (d[name] && typeof d[name] === "object" && ((d[name] as Json)[leaf] = altered((d[name] as Json)[leaf], "creation")))), everyMemberProfile(contract, op, name)));
      }
      // A member that echoes a request member (x-echoes) given back otherwise than sent: its first text changed.
      for (const echo of echoesOf(op.responses.find((r) => r.status.startsWith("2"))?.schema)) {
        const path = echo.member.replace(/^data\./, "").split(".");
        const edit = (d: Json) => {
          const parent = path.slice(0, -1).reduce<Json | undefined>((node, name) => (node?.[name] && typeof node[name] === "object" ? node[name] : undefined), d);
          const value = parent?.[path.at(-1)!];
          const text = value && typeof value === "object" ? Object.keys(value).find((k) => typeof value[k] === "string") : undefined;
          if (text) value[text] = altered(value[text], "creation");
          else if (parent) parent[path.at(-1)!] = altered(value, "creation");
        };
        const decided = !asserted("seed", { kind: "keyword", schema: echo.schema, keyword: "x-echoes" });
        out.push(mutation("consistency", family, op, "returns-what-was-sent", `echo-alters-${echo.member}`, `${echo.member} is the ${echo.echoes} sent`, fault.changesReply(match, edit), decided ? "full" : sentUnder(op, echo.echoes)));
      }
      const reader = readerOfResource(contract, op.path.split("/").pop()!);
      const last = reader ? sharedMembers(example(op), successExample(reader)).pop() : undefined;
      if (reader && last) {
        out.push(mutation("consistency", family, op, "returns-what-was-sent", `read-alters-${last}`, `a later read (${reader.operationId}) returns the ${last} sent`, fault.changesReply(matcher(family, reader.operationId), (d) => void (d[last] = altered(d[last], "read"))), sentUnder(op, last)));
      }
    }
    if (!changesRecord(op)) {
      const [parameter] = pathParameters(op);
      const reader = parameter ? readOf(contract, resourceOf(op, parameter) ?? "", parameter) : undefined;
      const member = reader && reader.operationId !== op.operationId ? sharedMembers(successExample(reader), successExample(op))[0] : undefined;
      if (member) {
        const states = enumOf(op, member);
        out.push(mutation("consistency", family, op, "reads-agree", `disagrees-on-${member}`, `${op.operationId} agrees with ${reader!.operationId} on ${member}`, fault.changesReply(match, (d) => void (d[member] = altered(d[member], "read", states)))));
      }
      continue;
    }
    const [parameter] = pathParameters(op);
    const reader = readOf(contract, resourceOf(op, parameter!) ?? "", parameter!) ?? contract.operations.find((o) => o.method === "GET" && pathParameters(o).length > 0 && resourceOf(o, pathParameters(o)[0]!) === resourceOf(op, parameter!));
    if (!reader) continue;
    if (op.method === "PUT" || op.method === "PATCH") {
      out.push(mutation("consistency", family, op, "read-shows-change", "stale-read-cache", "a read after an update shows it (no stale cache)", fault.staleCache(matcher(family, reader.operationId), idIn(family))));
    } else {
      out.push(mutation("consistency", family, op, "read-shows-change", "acknowledged-not-done", `a ${op.operationId} that succeeds is done`, fault.acknowledgesOnly(match), "full"));
    }
  }
  return out;
}

/** The enum of a member of an operation's success record, found anywhere in its schema. */
function enumOf(op: ContractOperation, member: string): unknown[] {
  const text = JSON.stringify(op.responses.find((r) => r.status.startsWith("2"))?.schema ?? {});
  const found = new RegExp(`"${member}":\\{[^{}]*"enum":(\\[[^\\]]*\\])`).exec(text);
  return found ? (JSON.parse(found[1]!) as unknown[]) : [];
}

// 5a. List filters: every filter a list declares (`x-list-filter`) ignored, and inverted.

function listFilterFaults(): DerivedMutation[] {
  const out: DerivedMutation[] = [];
  for (const { family, op } of all()) {
    const path = listItemsOf(op.responses.find((r) => r.status.startsWith("2"))?.schema)?.path;
    if (!isList(op) || !path) continue;
    const match = matcher(family, op.operationId);
    for (const parameter of listFilters(op)) {
      const { member, comparison } = parameter.listFilter!;
      // Judged under seed only where the document states the whole filter (D15's are full's).
      const profile = filterDecision(op, parameter, "seed") ? "full" : undefined;
      const keeps = (item: unknown, bound: string) => satisfiesFilter(comparison, item && typeof item === "object" ? (item as Json)[member] : undefined, bound);
      const variant = `filter-${parameter.name}`;
      out.push(mutation("consistency", family, op, variant, `ignores-filter-${parameter.name}`, `a list filtered by ${parameter.name} keeps only the items whose ${member} ${COMPARISON_WORDS[comparison]} it`, fault.ignoresFilter(match, parameter.name), profile));
      out.push(mutation("consistency", family, op, variant, `inverts-filter-${parameter.name}`, `a list filtered by ${parameter.name} lists the items whose ${member} ${COMPARISON_WORDS[comparison]} it, not the others`, fault.invertsFilter(match, parameter.name, path, keeps), profile));
    }
  }
  return out;
}

// 6. Idempotency key space: every operation that takes an idempotency key, three ways to store it wrong.

function idempotencyKeySpace(): DerivedMutation[] {
  return all()
    .filter(({ op }) => idempotencyHeaders(op).length > 0)
    .flatMap(({ family, op }) => {
      const match = matcher(family, op.operationId);
      const header = idempotencyHeaders(op)[0];
      // Two keys of one account are two key spaces only where the header and its scoping per API key are the document's (else D36, full).
      const perKeyDecided = !perApiKeyElements(op).every((e) => asserted("seed", e));
      // A body naming a record of the account (a PIX payment's endToEndId) succeeds for that account's keys only.
      const accountOnly = Object.keys(example(op)).some((name) => isLinkedMember(name) && objectView(op.requestBody?.schema)?.required.includes(name));
      return [
        mutation("idempotency-key-space", family, op, "another-account", "one-space-for-all-keys", `${header} spaces are per API key`, fault.sharesIdempotency(match)),
        // Caught where both keys succeed: another account's, or (a record only its account may use) the second key's.
        mutation("idempotency-key-space", family, op, "", "last-writer-wins", `another API key's use of a ${header} leaves the first key's replay alone`, fault.lastWriterWins(match), perKeyDecided && accountOnly ? "full" : undefined),
        mutation("idempotency-key-space", family, op, "second-key-same-account", "one-space-per-account", `${header} spaces are per API key, also two keys of one account`, fault.secondKeySharesSpace(family, match), perKeyDecided ? "full" : undefined),
      ];
    });
}

// 7. Rate limits: per family and limit with more than one member, the member the class uses up
// last (never the one it uses up) counts against no one's limit (sent as another account).

function rateLimitMembership(): DerivedMutation[] {
  const out: DerivedMutation[] = [];
  for (const family of FAMILIES) {
    // Family A's limits are decision D09: held under full only.
    const profile: Profile = family === "family-a" ? "full" : "seed";
    for (const bucket of Object.keys(BUCKET_STATEMENT) as Bucket[]) {
      const members = contractOf(family).contract.operations.filter((o) => limitsOf(o, profile).some((l) => l.bucket === bucket));
      // The fault moves the member's requests to an account nothing uses up, which hides it only
      // for this limit when the member counts against no narrower one besides.
      const only = members.filter((o) => limitsOf(o, profile).every((l) => l.bucket === bucket || l.bucket === "general"));
      if (members.length < 2 || only.length === 0) continue;
      const member = [...only].sort(byCostOfUsingUp).at(-1)!;
      if (member === [...members].sort(byCostOfUsingUp)[0]) continue;
      const broken = mutation("rate-limits", family, member, `counts-against-${bucket}-limit`, `not-counted-against-${bucket}`, `${member.operationId} counts against the ${bucket} limit`, fault.notCounted(matcher(family, member.operationId), family), profile === "full" ? "full" : undefined);
      out.push({ ...broken, needsRateLimits: true, statements: [BUCKET_STATEMENT[bucket]] });
    }
  }
  return out;
}

// 8. Cross-origin access (D44, full): every operation breaks it one way (the ways taken in turn;
// one that forgets to expose a header where the operation documents none drops Vary instead);
// each family grants by host alone, and, on the operation the check reads the rate-limit counts
// on, counts its preflights and takes an OPTIONS without Access-Control-Request-Method for one.

const CORS_FAULTS: Array<[fault.CorsFault, string]> = [
  ["grants-any-origin", "an origin not granted gets no grant"],
  ["wildcard-origin", "a granted origin is named itself, never *"],
  ["preflight-needs-key", "a preflight from a granted origin is answered 204 without a key"],
  ["method-not-allowed", "a preflight from a granted origin is granted the operation's method"],
  ["header-not-allowed", "a preflight from a granted origin is granted every header the operation takes"],
  ["any-header-allowed", "a preflight from a granted origin is granted the contract's headers, named, not *"],
  ["header-not-exposed", "a granted origin may read every header the operation's responses document"],
  ["no-vary", "every answer carries Vary: Origin"],
  ["credentials", "no credentials mode is granted"],
];

function corsFaults(): DerivedMutation[] {
  const d44 = (m: DerivedMutation): DerivedMutation => ({ ...m, statements: [], decisions: [CORS_DECISION] });
  const out = all().map(({ family, op }, i) => {
    const hidden = documentedResponseHeaders(op).at(-1);
    const [how, breaks] = CORS_FAULTS[i % CORS_FAULTS.length]![0] === "header-not-exposed" && !hidden ? CORS_FAULTS.find(([h]) => h === "no-vary")! : CORS_FAULTS[i % CORS_FAULTS.length]!;
    return d44(mutation("cors", family, op, "", how, `${breaks} (D44)`, fault.breaksCors(matcher(family, op.operationId), how, TEST_CORS_ORIGINS, hidden), "full"));
  });
  for (const family of FAMILIES) {
    const { contract } = contractOf(family);
    const first = contract.operations[0]!;
    out.push(d44({ ...mutation("cors", family, first, "", "grants-by-host", "the granted host on another port is another origin, not granted (D44)", fault.grantsByHost(TEST_CORS_ORIGINS), "full"), name: `cors:${family}:grants-by-host`, caughtBy: `${family}/derived/cors/` }));
    const counted = countsReadOn(contract.operations);
    if (counted) out.push(d44(mutation("cors", family, counted, "preflight-not-counted", "preflights-counted", "a preflight counts against no rate limit (D44)", fault.countsPreflights(matcher(family, counted.operationId)), "full")));
    if (counted) out.push(d44(mutation("cors", family, counted, "not-a-preflight", "options-taken-for-preflight", "an OPTIONS without Access-Control-Request-Method is no preflight (D44)", fault.optionsTakenForPreflight(matcher(family, counted.operationId), counted.method, TEST_CORS_ORIGINS), "full")));
  }
  return out;
}

export const GENERATED_MUTATIONS: DerivedMutation[] = [...ignoredAuthentication(), ...tenantIsolation(), ...negativeData(), ...domainFormatFaults(), ...unreadableBodies(), ...bodyBounds(), ...parameterFaults(), ...headerCharacterFaults(), ...integerNotationFaults(), ...leapSecondFaults(), ...repeatedQueryFaults(), ...refusalCodeFaults(), ...positiveData(), ...consistency(), ...listFilterFaults(), ...idempotencyKeySpace(), ...rateLimitMembership(), ...corsFaults()];
