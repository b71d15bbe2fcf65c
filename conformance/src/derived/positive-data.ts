/**
 * Positive data: bodies generated (fast-check, with shrinking) from each request schema, within
 * the contract's constraints, must be accepted (2xx) and answered as the operation documents.
 * Under seed only the members the document names are generated (decision elements are left
 * out), and a member whose values a decision bounds (a decided minimum, maximum, length,
 * pattern, enum...) takes only values the document itself shows accepted: the contract's
 * examples of the operation and the run's own accepted bodies, never a draw from the decided
 * bounds or from defaults (a server that chose another minimum amount is faithful). Values a
 * generator cannot make valid by the schema alone (a pattern, a URL, a linked id) keep the run's
 * own accepted value. Every optional member is sent absent (the body of required members only)
 * and present (the body of every member, nested ones too: `everyMemberBody`, which consistency
 * also sends), so that no member the contract allows is left unsent because no example has it.
 * `positiveSamples` bodies per operation (default 5), and the body of every member besides; a
 * failure reports the shrunk body.
 */
import fc from "fast-check";
import type { ContractOperation, FamilyContract } from "@payment-collection/contract/model/index.ts";
import { asserted, type Profile } from "../core/profiles/document-word.ts";
import { creationOf, createsRecord, isLinkedMember, pathParameters, resourceOf } from "./id-links.ts";
import { keywordOf, objectView, typeOf } from "./request-schema.ts";
import { exampleRequestBody, freshRecord, linkedValue, plannedRequest, successes, unresolvedLinks } from "./traffic.ts";
import { describe, is2xx, isObject, type DerivedEnv, type Json } from "./shared.ts";
import { freshCpf } from "../checks/provisioning.ts";

// Both cases in every text: a server that gives a text back in another case (upper-cased, as it
// holds it) then shows it on every draw, not on the eighth of them that were upper case already.
const text = fc.stringMatching(/^[A-Z][a-z](?:[A-Za-z0-9 ]{0,22}[A-Za-z0-9])?$/);

/** Keywords that bound the values of a member (a decided `format: email` does not: every address generated is a plain one). */
const VALUE_KEYWORDS = ["type", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "items", "minItems", "maxItems"];

/** Values of one member the document shows accepted, by the member's path in the body. */
type ShownValues = (path: string[]) => unknown[];

/**
 * What one operation's generation draws on: the profile, the values the document shows, and
 * e-mail addresses unique in the run (servers may refuse a duplicate) and valid CPFs (a
 * document a body did not carry), drawn from its seed.
 */
interface Generation {
  profile: Profile;
  shown: ShownValues;
  email: () => string;
  document: () => string;
  /** The run's value of a linked member (an id a response gave), never an example's. */
  link: (name: string) => unknown;
}

/** Plain words (letters and spaces): the only strings generated freely. */
export function isProse(value: unknown): boolean {
  return typeof value === "string" && /^[\p{L}][\p{L} ]*$/u.test(value);
}

/** Whether the profile leaves a bound of the member's values to the server (a decision sets it). */
export function boundsLeftOpen(schema: Json, profile: Profile): boolean {
  const parts = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf.filter(isObject) : [])];
  return parts.some((part) => VALUE_KEYWORDS.some((keyword) => !asserted(profile, { kind: "keyword", schema: part, keyword })));
}

/** Distinct values (compared as JSON). */
function distinct(values: unknown[]): unknown[] {
  const seen = new Map<string, unknown>();
  for (const value of values) if (value !== undefined && !seen.has(JSON.stringify(value))) seen.set(JSON.stringify(value), value);
  return [...seen.values()];
}

/**
 * An arbitrary for one member: generated within its schema, or the accepted value kept.
 * Undefined when nothing was accepted (a member the body lacks) and the schema alone makes no
 * valid value: the member is left out. `every`: optional members of a nested object present too.
 */
function memberArbitrary(schema: Json, accepted: unknown, path: string[], generation: Generation, every: boolean): fc.Arbitrary<unknown> | undefined {
  const { profile, shown } = generation;
  const keep = accepted === undefined ? undefined : fc.constant(accepted);
  const name = path.at(-1)!;
  if (isLinkedMember(name)) return keep;
  if (objectView(schema) && (isObject(accepted) || accepted === undefined)) return bodyArbitrary(schema, isObject(accepted) ? accepted : {}, generation, path, every);
  if (boundsLeftOpen(schema, profile)) {
    const values = distinct([accepted, ...shown(path)]);
    return values.length > 0 ? fc.constantFrom(...values) : undefined;
  }
  const values = keywordOf(schema, "enum");
  if (Array.isArray(values) && values.length > 0) return fc.constantFrom(...values);
  const type = typeOf(schema);
  // A CPF or CNPJ no body carried: a valid one (the pattern alone admits invalid check digits).
  if (accepted === undefined && keywordOf(schema, "x-domain-format") === "cpf-cnpj") return fc.constant(null).map(() => generation.document());
  if (keywordOf(schema, "pattern") !== undefined || keywordOf(schema, "format") === "uri") return keep;
  if (keywordOf(schema, "format") === "email") return fc.constant(null).map(() => generation.email());
  const min = Number(keywordOf(schema, "minimum") ?? (type === "integer" ? 1 : 0.01));
  const max = Number(keywordOf(schema, "maximum") ?? 1_000_000);
  if (type === "integer") return fc.integer({ min: Math.ceil(min), max: Math.min(Math.floor(max), 1_000_000) });
  // Money: the document's amounts are in reais, with cents.
  if (type === "number") return fc.integer({ min: Math.ceil(min * 100), max: Math.min(Math.floor(max * 100), 100_000_000) }).map((c) => c / 100);
  // Only prose is free: a string the run sent that is not plain words (a key, a code, a document
  // number) may carry a rule the description states and the schema cannot.
  if (type === "string" && accepted !== undefined && !isProse(accepted)) return keep;
  if (type === "string") {
    const maxLength = Number(keywordOf(schema, "maxLength") ?? 25);
    return maxLength >= 2 ? text.map((s) => s.slice(0, maxLength)) : keep;
  }
  return keep;
}

/**
 * A body: required members always, optional ones sometimes, each within its schema. Only
 * members the accepted body carries are generated (the run's own body says which a server
 * takes), but with `every`: then every member the schema declares (and the profile asserts) is
 * present, one the accepted body lacks starting from a value the document shows, or generated
 * from its schema; undefined when a required member cannot be made.
 */
function bodyArbitrary(schema: Json, accepted: Json, generation: Generation, path: string[] = [], every = false): fc.Arbitrary<Json> | undefined {
  const view = objectView(schema)!;
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredKeys: string[] = [];
  const names = every ? [...new Set([...Object.keys(accepted), ...Object.keys(view.properties)])] : Object.keys(accepted);
  for (const name of names) {
    const sub = view.properties[name];
    if (!sub || !asserted(generation.profile, { kind: "schema", schema: sub })) continue;
    const base = name in accepted ? accepted[name] : isLinkedMember(name) ? generation.link(name) : distinct(generation.shown([...path, name]))[0];
    const arbitrary = memberArbitrary(sub, base, [...path, name], generation, every);
    if (!arbitrary && view.required.includes(name)) return undefined;
    if (!arbitrary) continue;
    record[name] = arbitrary;
    if (every || view.required.includes(name) || isLinkedMember(name)) requiredKeys.push(name);
  }
  // A nested object none of whose members the profile lets a body carry is left out, not sent empty.
  if (every && path.length > 0 && Object.keys(record).length === 0) return undefined;
  const minProperties = Number(schema.minProperties ?? 0);
  return (fc.record(record, { requiredKeys }) as fc.Arbitrary<Json>).filter((body) => Object.keys(body).length >= minProperties);
}

/** How an operation's bodies are generated in this run. */
function generationOf(env: DerivedEnv, op: ContractOperation): Generation {
  const email = () => `generated+${env.ctx.runId}-${env.ctx.uuid().slice(0, 8)}@example.com`;
  return { profile: env.ctx.profile, shown: shownValuesOf(env, op), email, document: () => freshCpf(env), link: (name) => linkedValue(env, name) };
}

/**
 * The accepted body with every optional member the profile asserts present, nested ones too,
 * each drawn once from the run's seed (undefined: the schema makes no such body): the request
 * that sends the members no example carries.
 */
export function everyMemberBody(env: DerivedEnv, op: ContractOperation, accepted: Json): Json | undefined {
  if (!op.requestBody) return undefined;
  const arbitrary = bodyArbitrary(op.requestBody.schema, accepted, generationOf(env, op), [], true);
  // Not the seed itself: the property's first draw would repeat these values.
  return arbitrary ? fc.sample(arbitrary, { seed: env.settings.seed === undefined ? undefined : env.settings.seed + 1, numRuns: 1 })[0] : undefined;
}

/** Every request example of an operation: each media type's `example` and each of its named `examples`. */
function requestExamples(op: ContractOperation): unknown[] {
  const content = isObject(op.requestBody?.raw.content) ? op.requestBody!.raw.content : {};
  return Object.values(content).filter(isObject).flatMap((media) => [
    ...("example" in media ? [media.example] : []),
    ...Object.values(isObject(media.examples) ? media.examples : {}).filter(isObject).map((named) => named.value),
  ]);
}

/**
 * The values a member takes in the contract's examples of the operation and in the run's
 * accepted bodies of it; for an update, in the examples of its resource's creation too (the
 * same member of the same record: a name, a phone number an update may set).
 */
function shownValuesOf(env: DerivedEnv, op: ContractOperation): ShownValues {
  const [parameter] = pathParameters(op);
  const creation = parameter && (op.method === "PUT" || op.method === "PATCH") ? creationOf(env.ctx.contract, resourceOf(op, parameter) ?? "") : undefined;
  const bodies = [...requestExamples(op), ...(creation ? requestExamples(creation) : []), ...successes(env, op.operationId).map((s) => s.request)];
  return (path) => bodies.map((body) => path.reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), body));
}

/** The accepted body cut down to its required (and linked) members, when that leaves a valid, different body. */
function minimalBody(schema: Json, accepted: Json, profile: Profile): Json | undefined {
  const view = objectView(schema)!;
  const kept = Object.entries(accepted).filter(([name]) => {
    const sub = view.properties[name];
    return sub && asserted(profile, { kind: "schema", schema: sub }) && (view.required.includes(name) || isLinkedMember(name));
  });
  const enough = kept.length > 0 && kept.length >= Number(schema.minProperties ?? 0);
  return enough && kept.length < Object.keys(accepted).length ? Object.fromEntries(kept) : undefined;
}

async function operation(env: DerivedEnv, op: ContractOperation): Promise<void> {
  // The richest accepted body: generation varies the members it carries.
  const exemplar = successes(env, op.operationId)
    .filter((s) => isObject(s.request))
    .sort((a, b) => Object.keys(a.request as Json).length - Object.keys(b.request as Json).length)
    .pop();
  const accepted = isObject(exemplar?.request) ? (exemplar!.request as Json) : exampleRequestBody(env, op);
  const title = `${env.settings.positiveSamples} bodies generated within the schema, and one of every member, are accepted`;
  if (!op.requestBody || !accepted || !asserted(env.ctx.profile, { kind: "schema", schema: op.requestBody.schema })) return;
  await env.attempt(op.operationId, "generated-bodies", title, async () => {
    // Without an accepted request the contract's own example is the start: a server that
    // refuses it fails here, unless it names a record the run never saw.
    const unknown = exemplar ? [] : unresolvedLinks(env, op);
    if (unknown.length > 0) return env.notApplicable(op.operationId, "generated-bodies", title, `the run has no accepted request of the operation and no value for ${unknown.join(", ")}`);
    // A body with fewer members than the schema's minProperties cannot seed a generator (its filter would never pass).
    if (Object.keys(accepted).length < Number(op.requestBody!.schema.minProperties ?? 0) || Object.keys(accepted).length === 0) {
      return env.notApplicable(op.operationId, "generated-bodies", title, "the run's accepted body has too few members to vary");
    }
    const [parameter] = pathParameters(op);
    const id = parameter ? await freshRecord(env, op, parameter) : undefined;
    const params = Object.fromEntries(pathParameters(op).map((p) => [p, id!]));
    let last: { status?: number; repro?: string; body?: string; problems?: string[] } = {};
    const property = fc.asyncProperty(bodyArbitrary(op.requestBody!.schema, accepted, generationOf(env, op))!, async (body) => {
      const request = plannedRequest(env, op, params, body);
      const response = await env.send(request, "primary");
      // An accepted body is answered as documented: what a member sent makes of the answer (a payer's) fits its schema.
      const documented = is2xx(response) ? env.covered(op.operationId, response.status)[0] : undefined;
      const problems = documented ? env.ctx.problems(op.operationId, documented.status, response) : [];
      last = { status: response.status, repro: env.reproduce(request, "primary"), body: describe(response), problems };
      return is2xx(response) && problems.length === 0;
    });
    // The first bodies tried carry the required members only ("a request with only amount and
    // method is accepted") and every member: generation alone may never leave every optional
    // member out, nor send one the run's accepted body lacks.
    const minimal = minimalBody(op.requestBody!.schema, accepted, env.ctx.profile);
    const every = everyMemberBody(env, op, accepted);
    const examples: Array<[Json]> = [minimal, every].filter((body): body is Json => body !== undefined).map((body) => [body]);
    // The body of every member is one more than the samples (the required-members one is one of them, as ever).
    const result = await fc.check(property, { numRuns: env.settings.positiveSamples + (every ? 1 : 0), seed: env.settings.seed, endOnFailure: false, maxSkipsPerRun: 0, examples });
    const counterexample = result.failed ? result.counterexample?.[0] : undefined;
    // The last request sent may be a shrink attempt that passed: reproduce the shrunk body itself.
    if (counterexample !== undefined) {
      const request = plannedRequest(env, op, params, counterexample);
      last = { ...last, repro: env.reproduce(request, "primary") };
    }
    env.record({
      operationId: op.operationId,
      variant: "generated-bodies",
      title,
      verdict: result.failed ? "fail" : "pass",
      reasons: !result.failed ? [] : last.problems?.length ? [`a body within the schema was answered otherwise than documented (shrunk ${result.numShrinks} times): ${JSON.stringify(counterexample)}; ${last.problems.join("; ")}`] : [`a body within the schema was refused (shrunk ${result.numShrinks} times): ${JSON.stringify(counterexample)}; last answer ${last.body}`],
      covers: last.status ? env.covered(op.operationId, result.failed ? last.status : 201) : [],
      statements: [...env.statementsOf(op.operationId, op.responses.find((r) => r.status.startsWith("2"))?.status ?? "200")],
      reproduction: result.failed ? last.repro : undefined,
      example: counterexample,
    });
  });
}

/** The operations whose generated bodies must be accepted. */
export function isPositiveDataOperation(contract: FamilyContract, op: ContractOperation): boolean {
  return !!op.requestBody && (createsRecord(contract, op) || op.method === "PUT" || op.method === "PATCH");
}

export async function run(env: DerivedEnv): Promise<void> {
  for (const op of env.ctx.contract.operations) {
    if (env.stopped) break;
    // Operations that make a record, and updates. A lookup by body (a PIX key query) may
    // rightly answer a documented 404 for a value that fits the schema but names nothing; a
    // cancel or delete consumes its record and takes no generated data worth the cost.
    if (isPositiveDataOperation(env.ctx.contract, op)) await operation(env, op);
  }
}
