/**
 * Negative data: for every request body, each variant that breaks one constraint of the body
 * schema (as the profile sees it: under seed only the document's own) must be refused with a
 * 4xx and must create nothing: a required member dropped, a member of the wrong JSON type, a
 * fraction where the schema says integer, a value outside an enum, a string over maxLength, and
 * a value that breaks any other keyword of the member's schema (pattern, format, domain format
 * such as a CPF's check digits, minimum, maximum, minLength) or an object left with fewer
 * members than its minProperties. A value is used only when the contract's own validator of the
 * member refuses it, so each variant breaks what it says it breaks. Under full the refusal must
 * be the operation's documented 400 with its error body: a malformed request is a 400
 * VALIDATION_ERROR (D21 in family A, D32 in family B), so a malformed PIX key answered as an
 * unknown one (404) fails.
 * Also the bodies a server cannot read as JSON (unreadable-bodies.ts): cut short, empty, not
 * sent as JSON, past the size limit or a structure bound; and every query and header parameter
 * given a value that breaks one of its constraints (parameterRefusals), on every operation.
 * Nothing created: the refusal carries no new record, the resource's list (when the contract
 * has one) shows no new id, and a refused change leaves the record as the owner reads it.
 * Then, under full, the bodies exactly at those bounds, which must be read like any other.
 */
import { MALFORMED_REQUEST_CODE, tiedRefusalCode, type ContractOperation, type ContractParameter } from "@payment-collection/contract/model/index.ts";
import { profileSchema, type Profile } from "../core/profiles/index.ts";
import { createdIdOf, creationOf, isCreation, isList, pathParameters, resourceOf } from "./id-links.ts";
import { keywordOf, objectView, requestSchema, typeOf } from "./request-schema.ts";
import { breakersOf } from "./constraint-breakers.ts";
import { exampleRequestBody, freshRecord, notAnExemplar, plannedRequest, readerOf, successes, traffic } from "./traffic.ts";
import { describe, is2xx, isObject, jsonOf, sameValue, stable, type DerivedEnv, type Json, type PlannedRequest } from "./shared.ts";
import { quoted } from "../core/describe-response.ts";
import { errorCodeProblems, type ObservedResponse } from "../core/validate.ts";
import { reproduceUnreadable, unreadableVariants, withinBoundsVariants, type WithinBoundsVariant } from "./unreadable-bodies.ts";

/** The integer statement: only the fraction variants of family A enforce it. */
export const VARIANT_STATEMENTS = ["A-SERVICE-PRINCIPLE-amount-integer"];

interface Variant {
  name: string;
  apply(body: Json): void;
  statements?: string[];
  /** The code the contract ties to the constraint broken (x-refusal-codes), when it ties one. */
  code?: string;
}

const WRONG_TYPE: Record<string, unknown> = { string: 12345, number: "not-a-number", integer: "not-a-number", boolean: "not-a-boolean", object: "not-an-object", array: "not-an-array" };

/** A valid value of a member the body lacks (one the run saw accepted), for the breakers that alter a valid value. */
type AcceptedValue = (name: string) => unknown;

interface Walk {
  family: string;
  /** A valid value for a member the body lacks. */
  accepted: AcceptedValue;
  /** The contract's own schema of the object (every keyword, decided ones too). */
  full: unknown;
  /** Member path of the object in the body. */
  path: string[];
}

/** The variants of a body, one broken constraint each (nested objects the body carries included). */
export function variantsOf(schema: unknown, body: Json, walk: Walk): Variant[] {
  const { family, accepted, full, path } = walk;
  const view = objectView(schema);
  if (!view) return [];
  const fullView = objectView(full);
  const at = (root: Json): Json => path.reduce<Json>((node, k) => node[k] as Json, root);
  const dotted = (name: string) => [...path, name].join(".");
  const variants: Variant[] = [];
  for (const name of view.required) {
    if (name in body) variants.push({ name: `without-${dotted(name)}`, apply: (root) => void delete at(root)[name] });
  }
  for (const [name, sub] of Object.entries(view.properties)) {
    const type = typeOf(sub);
    // The code a tie of the member's schema (as the profile sees it) names for the broken keyword.
    const code = (keyword: string) => tiedRefusalCode(sub, keyword);
    if (type && WRONG_TYPE[type] !== undefined) variants.push({ name: `wrong-type-${dotted(name)}`, apply: (root) => void (at(root)[name] = WRONG_TYPE[type]), code: code("type") });
    if (type === "integer") {
      const base = typeof body[name] === "number" ? (body[name] as number) : Number(keywordOf(sub, "minimum") ?? 1);
      variants.push({ name: `fraction-${dotted(name)}`, apply: (root) => void (at(root)[name] = base + 0.5), statements: family === "family-a" ? [...VARIANT_STATEMENTS] : [], code: code("type") });
    }
    const values = keywordOf(sub, "enum");
    if (Array.isArray(values) && values.every((v) => typeof v === "string")) variants.push({ name: `outside-enum-${dotted(name)}`, apply: (root) => void (at(root)[name] = "not-a-documented-value"), code: code("enum") });
    const maxLength = keywordOf(sub, "maxLength");
    if (typeof maxLength === "number") variants.push({ name: `over-maxLength-${dotted(name)}`, apply: (root) => void (at(root)[name] = "x".repeat(maxLength + 1)), code: code("maxLength") });
    for (const breaker of breakersOf(sub, fullView?.properties[name] ?? sub, body[name] ?? accepted(name))) {
      variants.push({ name: `${breaker.keyword}-${dotted(name)}`, apply: (root) => void (at(root)[name] = breaker.value), code: code(breaker.breaks) });
    }
    if (isObject(body[name])) variants.push(...variantsOf(sub, body[name] as Json, { ...walk, full: fullView?.properties[name], path: [...path, name] }));
  }
  const minProperties = keywordOf(schema as Json, "minProperties");
  if (typeof minProperties === "number" && minProperties > 0 && Object.keys(body).length >= minProperties) {
    const where = path.length > 0 ? `-${path.join(".")}` : "";
    variants.push({ name: `under-minProperties${where}`, apply: (root) => {
      const node = at(root);
      for (const key of Object.keys(node).slice(minProperties - 1)) delete node[key];
    } });
    // The members it must have are the ones its schema names ("at least one of these"): a member
    // it does not name counts for none of them.
    variants.push({ name: `no-named-member${where}`, apply: (root) => {
      const node = at(root);
      for (const key of Object.keys(node)) delete node[key];
      for (let i = 0; i < minProperties; i++) node[`undeclared${i}`] = "x";
    } });
  }
  return variants;
}

/** The first value the run's accepted request bodies (any key's) gave a member of that name, at any depth. */
function acceptedValues(env: DerivedEnv): AcceptedValue {
  const bodies = traffic(env).filter((seen) => is2xx(seen.exchange)).map((seen) => seen.request);
  const find = (node: unknown, name: string): unknown => {
    if (!isObject(node)) return undefined;
    if (node[name] !== undefined) return node[name];
    for (const value of Object.values(node)) {
      const found = find(value, name);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return (name) => bodies.map((body) => find(body, name)).find((value) => value !== undefined);
}

/** Ids a list of the resource shows now (undefined when the contract has no list for it). */
async function listedIds(env: DerivedEnv, list: ContractOperation | undefined): Promise<Set<string> | undefined> {
  if (!list) return undefined;
  const response = await env.send(plannedRequest(env, list, {}), "primary");
  if (!is2xx(response)) return undefined;
  return new Set([...response.body.matchAll(/"(?:id|transactionId|pixId)"\s*:\s*"([^"]+)"/g)].map((m) => m[1]!));
}

async function operation(env: DerivedEnv, op: ContractOperation): Promise<void> {
  const schema = requestSchema(op, env.ctx.profile);
  const exemplar = successes(env, op.operationId).pop();
  const baseline = isObject(exemplar?.request) ? (exemplar!.request as Json) : exampleRequestBody(env, op);
  if (!baseline) return;
  const variants = variantsOf(schema, baseline, { family: env.family, accepted: acceptedValues(env), full: op.requestBody!.schema, path: [] });
  const unreadable = unreadableVariants(env, op);
  const within = withinBoundsVariants(env, op);
  if (variants.length + unreadable.length === 0) return;
  await env.attempt(op.operationId, "refusals", "bodies breaking one constraint each are refused", async () => {
    const [parameter] = pathParameters(op);
    const id = parameter ? await freshRecord(env, op, parameter) : undefined;
    const params = Object.fromEntries(pathParameters(op).map((p) => [p, id!]));
    const resource = op.path.split("/").filter((s) => s && !s.startsWith("{")).pop();
    const list = isCreation(env.ctx.contract, op) ? env.ctx.contract.operations.find((o) => isList(o) && o.path.endsWith(`/${resource}`)) : undefined;
    const reader = parameter ? readerOf(env, op, parameter) : undefined;
    const readOwner = async () => (reader ? stable(jsonOf((await env.send(plannedRequest(env, reader, { [parameter!]: id! }), "primary")).body)) : undefined);
    const before = await listedIds(env, list);
    const recordBefore = await readOwner();
    const exact = env.ctx.profile === "full";
    const basis = env.family === "family-a" ? "D21" : "D32";
    for (const variant of variants) {
      const body = structuredClone(baseline);
      variant.apply(body);
      const request = plannedRequest(env, op, params, body);
      const response = await env.send(request, "primary");
      env.judge(
        {
          operationId: op.operationId,
          variant: variant.name,
          title: `a body ${variant.name.replace(/-/g, " ")} is refused with ${exact ? `the documented 400 (${basis})` : "a 4xx"}`,
          covers: env.covered(op.operationId, response.status),
          statements: [...env.statementsOf(op.operationId, "400"), ...(variant.statements ?? [])],
          reproduction: env.reproduce(request, "primary"),
        },
        refusalProblems(env, op, { exact, basis, code: variant.code }, response),
      );
    }
    for (const variant of unreadable) {
      const request = variant.request(plannedRequest(env, op, params, baseline), baseline);
      const response = await env.send(request, "primary");
      env.judge(
        {
          operationId: op.operationId,
          variant: variant.name,
          title: `a body ${variant.what ?? variant.name.replace(/-/g, " ")} ${variant.exact ? "gets the documented 400 (D39)" : "is refused with a 4xx"}`,
          covers: env.covered(op.operationId, response.status),
          statements: [...env.statementsOf(op.operationId, "400"), ...variant.statements],
          reproduction: reproduceUnreadable(env, request),
        },
        refusalProblems(env, op, { exact: variant.exact, basis: "D39" }, response),
      );
    }
    const after = await listedIds(env, list);
    if (before && after) {
      const created = [...after].filter((x) => !before.has(x));
      const listing = plannedRequest(env, list!, {});
      env.judge({ operationId: op.operationId, variant: "nothing-created", title: `refused bodies created nothing (${list!.operationId} before and after)`, covers: env.covered(list!.operationId, 200), reproduction: `${env.reproduce(plannedRequest(env, op, params, variants.length > 0 ? baseline : undefined), "primary")}\n${env.reproduce(listing, "primary")}` }, created.length > 0 ? [`${created.length} new record(s) after refused bodies only: ${created.slice(0, 3).join(", ")}`] : []);
    }
    if (reader) {
      const recordAfter = await readOwner();
      env.judge({ operationId: op.operationId, variant: "nothing-changed", title: "refused changes left the record as it was", covers: [], reproduction: env.reproduce(plannedRequest(env, reader, { [parameter!]: id! }), "primary") }, sameValue(recordBefore, recordAfter) ? [] : [`the record changed after refused bodies only: ${quoted(recordAfter, 200)}`]);
    }
    // Last: these are accepted, and may create or change records.
    for (const variant of within) await withinBounds(env, op, variant, params, baseline);
  });
}

/**
 * A body at one of D39's bounds must be read like any other: accepted. One that is not is
 * compared with the same body without what puts it at the bound (sent only then): accepted
 * without it, it was refused for its structure; refused the same way without it, for another
 * reason, which this check cannot judge.
 */
async function withinBounds(env: DerivedEnv, op: ContractOperation, variant: WithinBoundsVariant, params: Record<string, string>, baseline: Json): Promise<void> {
  const plain = plannedRequest(env, op, params, baseline);
  const request = variant.request(plain, baseline);
  // Only a body the bound made is no exemplar: one sent as it was (its media type written
  // otherwise) is the baseline's text, which the run's other creations may share.
  if (request.body !== plain.body) notAnExemplar(env, request.body);
  const response = await env.send(request, "primary");
  const title = `a body ${variant.what} is read, not refused for ${variant.refusedFor ?? "its size or structure"} (D39)`;
  const success = op.responses.find((r) => r.status.startsWith("2"))?.status ?? "200";
  const base = { operationId: op.operationId, variant: variant.name, title, covers: env.covered(op.operationId, response.status), statements: env.statementsOf(op.operationId, success), reproduction: reproduceUnreadable(env, request) };
  if (is2xx(response)) return env.judge(base, []);
  if (response.status >= 500) return env.judge(base, [`answered ${describe(response)}; a body within D39's bounds must be read`]);
  const control = await env.send(variant.control(plannedRequest(env, op, params, baseline), baseline), "primary");
  if (is2xx(control)) return env.judge(base, [`answered ${describe(response)}, while the same body without it was accepted (${control.status}): refused for ${variant.refusedFor ?? "a size or structure within D39's bounds"}`]);
  if (control.status !== response.status) return env.judge(base, [`answered ${describe(response)}, while the same body without it answered ${control.status}: refused for ${variant.refusedFor ?? "a size or structure within D39's bounds"}`]);
  env.notApplicable(op.operationId, variant.name, title, `the same body without it was refused too (${describe(control)}): refused for another reason`);
}

/**
 * What is wrong with a refusal: not a 4xx, a record created, or (exact: where decisions say how
 * such input is refused, named by `basis`) not the documented 400 with its body.
 */
/**
 * How a refusal must look: a 4xx, or under full (`exact`) the documented 400 with its body, on
 * the grounds `basis` names. Its code is the one the contract ties to the broken constraint
 * (`code`, under either profile: the tie is the document's unless marked decided), else under
 * full the code of every malformed request (D21, D32, D18): a server answering each malformed
 * cancel with `ODE003`, the code of one constraint, fails.
 */
interface Refusal {
  exact: boolean;
  basis: string;
  code?: string;
}

function refusalProblems(env: DerivedEnv, op: ContractOperation, refusal: Refusal, response: ObservedResponse): string[] {
  const { exact, basis } = refusal;
  const created = is2xx(response) ? createdIdOf(jsonOf(response.body)) : undefined;
  const problems = created ? [`a record was created: ${created}`] : [];
  if (exact && response.status !== 400) return [...problems, `answered ${describe(response)}; expected the documented 400 (${basis})`];
  if (response.status < 400 || response.status >= 500) return [...problems, `answered ${describe(response)}; expected a 4xx refusal`];
  const code = refusal.code ?? (exact ? MALFORMED_REQUEST_CODE : undefined);
  const codeProblems = code ? errorCodeProblems(code, response) : [];
  return [...problems, ...(exact ? env.ctx.problems(op.operationId, "400", response) : []), ...codeProblems];
}

/** One query or header parameter of a request given a value that breaks one of its constraints. */
export interface ParameterVariant {
  name: string;
  parameter: ContractParameter;
  value: string;
  /** The code the contract ties to the constraint broken (x-refusal-codes), when it ties one. */
  code?: string;
  /** The decisions that make it wrong, where they are not D32's and D45's malformed input. */
  basis?: string;
  /** The parameter is given twice, with this value each time. */
  twice?: boolean;
}

/**
 * The values that break one constraint of a query or header parameter, as the profile holds it
 * (a decided keyword only under full): a number that is none, a fraction where the schema says
 * integer, a value outside the enum, a string over maxLength, and what breaks any other keyword
 * (minimum, maximum, minLength, pattern, format). `current` is a valid value, for the breakers
 * that alter one. A header value must be one HTTP can carry: an empty one is left out. Under
 * full also what only decisions make wrong: a query integer in another notation than decimal
 * digits (`1e0`, `1.0`, `0x1`, ` 1`: D28), a query parameter given twice (its valid value
 * each time: D32), a header one character short of its minimum length in characters
 * outside the Basic Multilingual Plane (D45: counted in characters), and a date-time of the
 * query that names a leap second (D39).
 */
export function parameterVariants(parameter: ContractParameter, profile: Profile, current: unknown): ParameterVariant[] {
  if (parameter.in !== "query" && parameter.in !== "header") return [];
  const schema = profileSchema(parameter.schema, profile);
  // [name, value, keyword broken]
  const values: Array<[string, unknown, string]> = [];
  const type = typeOf(schema);
  if (type === "integer" || type === "number") values.push(["wrong-type", "not-a-number", "type"]);
  if (type === "integer") values.push(["fraction", 1.5, "type"]);
  const allowed = keywordOf(schema, "enum");
  if (Array.isArray(allowed) && allowed.every((v) => typeof v === "string")) values.push(["outside-enum", "not-a-documented-value", "enum"]);
  const maxLength = keywordOf(schema, "maxLength");
  if (typeof maxLength === "number") values.push(["over-maxLength", "x".repeat(maxLength + 1), "maxLength"]);
  for (const breaker of breakersOf(schema, parameter.schema, current)) values.push([breaker.keyword, breaker.value, breaker.breaks]);
  // An integer in a query is written in decimal digits, optionally signed (D28): the same
  // number in any other notation is no integer of the query.
  if (profile === "full" && parameter.in === "query" && type === "integer") {
    const digits = /^\d+$/.test(String(current)) ? String(current) : "1";
    for (const [kind, text] of NOT_DECIMAL_DIGITS(digits)) values.push([kind, text, "type"]);
  }
  // A header is text in UTF-8, its length counted in characters (D45): one character short of
  // the minimum, each character outside the Basic Multilingual Plane (two UTF-16 code units,
  // four bytes), is still too short, however many bytes or code units it takes.
  const minLength = keywordOf(schema, "minLength");
  if (profile === "full" && parameter.in === "header" && typeof minLength === "number" && minLength > 1) {
    values.push(["under-minLength-in-characters", utf8AsHeader(astralText(minLength - 1)), "minLength"]);
  }
  // A date-time of the query that names a leap second (RFC 3339 admits `23:59:60`), which no
  // stored time can equal, is refused rather than shifted to a time the client did not send (D39).
  if (profile === "full" && parameter.in === "query" && keywordOf(schema, "format") === "date-time") values.push(["leap-second", LEAP_SECOND, "format"]);
  const decided: Record<string, string> = { "under-minLength-in-characters": "D45", "given-twice": "D32", "leap-second": "D39", ...Object.fromEntries(NOT_DECIMAL_DIGITS("1").map(([kind]) => [kind, "D28"])) };
  // A query parameter is given once (D32): twice, even with the same valid value, is malformed.
  if (profile === "full" && parameter.in === "query" && current !== undefined && current !== null) values.push(["given-twice", current, "given-twice"]);
  return values
    .map(([kind, value, keyword]): ParameterVariant => ({
      name: `${parameter.in}-${parameter.name}-${kind}`,
      parameter,
      value: String(value),
      code: tiedRefusalCode(schema, keyword),
      ...(decided[kind] ? { basis: decided[kind] } : {}),
      ...(kind === "given-twice" ? { twice: true } : {}),
    }))
    .filter((variant) => !(parameter.in === "header" && variant.value === ""));
}

/** A leap second that was inserted (the end of 2016), valid as RFC 3339 writes a date-time. */
export const LEAP_SECOND = "2016-12-31T23:59:60Z";

/** A valid integer of a query written in other notations than decimal digits: each names the same number. */
export const NOT_DECIMAL_DIGITS = (digits: string): Array<[kind: string, text: string]> => [
  ["exponent", `${digits}e0`],
  ["decimal-point", `${digits}.0`],
  ["hexadecimal", `0x${Number(digits).toString(16)}`],
  ["space-before", ` ${digits}`],
];

/**
 * Characters outside the Basic Multilingual Plane, at the edges of the surrogate ranges in
 * turn (U+10000: D800 DC00; U+10FFFF: DBFF DFFF; U+1F600 between them), so that a count that
 * misreads any edge of a pair counts more characters than there are.
 */
const ASTRAL = ["\u{10000}", "\u{10FFFF}", "\u{1F600}"];
export const astralText = (characters: number): string => Array.from({ length: characters }, (_, i) => ASTRAL[i % ASTRAL.length]).join("");
/** A text as an HTTP header value carries it: its UTF-8 bytes, one Latin-1 character each (fetch sends header values as bytes). */
export const utf8AsHeader = (text: string): string => Buffer.from(text, "utf8").toString("latin1");

/** The request with one parameter's value replaced (a query parameter added if absent). */
function withParameter(request: PlannedRequest, variant: ParameterVariant): PlannedRequest {
  if (variant.parameter.in === "header") {
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name.toLowerCase() !== variant.parameter.name.toLowerCase()));
    return { ...request, headers: { ...headers, [variant.parameter.name]: variant.value } };
  }
  const url = new URL(request.url);
  url.searchParams.set(variant.parameter.name, variant.value);
  if (variant.twice) url.searchParams.append(variant.parameter.name, variant.value);
  return { ...request, url: url.toString() };
}

/**
 * A value a parameter must be read as another (under full): an integer of the query written
 * with a sign is that integer (D28, `+1` is 1). `control` is the value it must be read as.
 */
export interface ParameterReading extends ParameterVariant {
  control: string;
  what: string;
}

export function parameterReadings(parameter: ContractParameter, profile: Profile, current: unknown): ParameterReading[] {
  if (profile !== "full" || parameter.in !== "query" || typeOf(profileSchema(parameter.schema, profile)) !== "integer") return [];
  const digits = /^\d+$/.test(String(current)) ? String(current) : "1";
  return [{ name: `query-${parameter.name}-signed`, parameter, value: `+${digits}`, control: digits, what: `with a sign (+${digits})`, basis: "D28" }];
}

/**
 * A parameter's value written another way must be read like the value it names: accepted. One
 * that is not is compared with the same request with that value (sent only then): accepted, the
 * other form was refused; refused too, for another reason, which this check cannot judge.
 */
async function parameterReading(env: DerivedEnv, op: ContractOperation, reading: ParameterReading, params: Record<string, string>): Promise<void> {
  const request = withParameter(plannedRequest(env, op, params), reading);
  const response = await env.send(request, "primary");
  const title = `a ${reading.parameter.in} ${reading.parameter.name} written ${reading.what} is read as ${reading.control} (${reading.basis})`;
  const base = { operationId: op.operationId, variant: reading.name, title, covers: env.covered(op.operationId, response.status), statements: env.statementsOf(op.operationId, String(response.status)), reproduction: env.reproduce(request, "primary") };
  if (is2xx(response)) return env.judge(base, []);
  if (response.status >= 500) return env.judge(base, [`answered ${describe(response)}; ${reading.value} is ${reading.control} (${reading.basis})`]);
  const control = await env.send(withParameter(plannedRequest(env, op, params), { ...reading, value: reading.control }), "primary");
  if (is2xx(control)) return env.judge(base, [`answered ${describe(response)}, while ${reading.control} was accepted (${control.status}): ${reading.value} is ${reading.control} (${reading.basis})`]);
  env.notApplicable(op.operationId, reading.name, title, `the same request with ${reading.control} was refused too (${describe(control)})`);
}

/** A valid value of a parameter in the planned request: the one it sends, else the contract's example. */
function currentValue(request: PlannedRequest, parameter: ContractParameter): unknown {
  if (parameter.in === "header") return Object.entries(request.headers).find(([name]) => name.toLowerCase() === parameter.name.toLowerCase())?.[1] ?? parameter.example;
  return new URL(request.url).searchParams.get(parameter.name) ?? parameter.example;
}

/**
 * Every query and header parameter of the operation (the API key aside: ignored authentication
 * checks it) given one broken value at a time: each request must be refused with a 4xx and
 * create nothing, as a body breaking one constraint must.
 */
async function parameterRefusals(env: DerivedEnv, op: ContractOperation): Promise<void> {
  const keyHeader = env.ctx.contract.apiKeyHeader.toLowerCase();
  const parameters = op.parameters.filter((p) => p.name.toLowerCase() !== keyHeader && env.ctx.asserts({ kind: "parameter", parameter: p, operation: op }));
  const probe = plannedRequest(env, op, Object.fromEntries(pathParameters(op).map((p) => [p, "x"])));
  if (parameters.every((p) => parameterVariants(p, env.ctx.profile, currentValue(probe, p)).length === 0)) return;
  await env.attempt(op.operationId, "parameter-refusals", "requests with a parameter breaking one constraint are refused", async () => {
    const [parameter] = pathParameters(op);
    const id = parameter ? await freshRecord(env, op, parameter) : undefined;
    const params = Object.fromEntries(pathParameters(op).map((p) => [p, id!]));
    const exact = env.ctx.profile === "full";
    for (const contractParameter of parameters) {
      const valid = plannedRequest(env, op, params);
      for (const variant of parameterVariants(contractParameter, env.ctx.profile, currentValue(valid, contractParameter))) {
        const request = withParameter(plannedRequest(env, op, params), variant);
        const response = await env.send(request, "primary");
        const broken = variant.name.slice(variant.parameter.in.length + variant.parameter.name.length + 2).replace(/-/g, " ");
        env.judge(
          {
            operationId: op.operationId,
            variant: variant.name,
            title: `a ${variant.parameter.in} ${variant.parameter.name} ${broken} is refused with ${exact ? `the documented 400 (${variant.basis ?? "D32, D45"})` : "a 4xx"}`,
            covers: env.covered(op.operationId, response.status),
            statements: env.statementsOf(op.operationId, "400"),
            reproduction: env.reproduce(request, "primary"),
          },
          refusalProblems(env, op, { exact, basis: variant.basis ?? "D32, D45", code: variant.code }, response),
        );
      }
    }
    // Last: these are accepted, and may create records.
    for (const contractParameter of parameters) {
      for (const reading of parameterReadings(contractParameter, env.ctx.profile, currentValue(plannedRequest(env, op, params), contractParameter))) await parameterReading(env, op, reading, params);
    }
  });
}

/**
 * Where an operation's refusals run. On the second account (a body's constraints are the same
 * on any account) when the check can make every record the path names and the operation counts
 * against no creation limit; else on the primary: its fixtures provide the records only they
 * have (a REGISTERED boleto to cancel), and the creation limits (30 PIX, 50 transactions a
 * minute) are small, with the second account's taken by the self-contained scenarios.
 */
export function spreadable(env: DerivedEnv, op: ContractOperation): boolean {
  const ownRecords = pathParameters(op).every((parameter) => {
    const resource = resourceOf(op, parameter);
    return resource !== undefined && creationOf(env.ctx.contract, resource) !== undefined;
  });
  return ownRecords && op.rateLimits.every((limit) => limit.bucket === "general" || limit.bucket === "queries");
}

export async function run(env: DerivedEnv): Promise<void> {
  for (const op of env.ctx.contract.operations) {
    if (env.stopped) break;
    const where = spreadable(env, op) ? env.spread() : env;
    if (op.requestBody) await operation(where, op);
    await parameterRefusals(where, op);
  }
}
