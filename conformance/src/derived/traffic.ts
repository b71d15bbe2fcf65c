/**
 * The run's own traffic as the generic checks read it: every exchange the pacer logged for the
 * family's server, matched to the contract's operation, with the key it carried; the requests
 * that succeeded are the exemplars the classes vary. When the run has no successful request of
 * an operation yet, one is built from the contract (its example body, ids of records the run
 * made) and sent, so that every operation has an exemplar ("priming").
 */
import { exampleBody } from "../checks/provisioning.ts";
import { NotApplicable, type KeyName } from "../core/check-context.ts";
import type { Exchange } from "../core/pacing.ts";
import { OperationIndex, type ContractOperation, type OperationMatch } from "@payment-collection/contract/model/index.ts";
import { createdIdOf, creationOf, FIXTURE_RECORDS, idempotencyHeaders, isLinkedMember, lastValueOf, pathParameters, readOf, resourceOf } from "./id-links.ts";

export { idempotencyHeaders };
import { is2xx, isObject, jsonOf, type DerivedEnv, type Json, type PlannedRequest } from "./shared.ts";

export interface Seen {
  exchange: Exchange;
  op: OperationMatch;
  /** The target's key the request carried (undefined: none, or one the target does not name). */
  key?: KeyName;
  request: unknown;
  response: unknown;
}

const KEY_NAMES: KeyName[] = ["primary", "secondAccount", "noMerchantRead", "testKey", "rateLimits", "primarySecondKey"];
const indexes = new WeakMap<object, OperationIndex>();
/**
 * Each exchange as a family's context read it (null: not one of its operations), read once:
 * the classes read the run's traffic again for every operation, and the pacer keeps up to
 * 2,000 exchanges, whose bodies were parsed again each time. The readings are shared, so
 * nothing may change them (the classes copy a body before varying it).
 */
const readings = new WeakMap<object, WeakMap<Exchange, Seen | null>>();

function headerOf(headers: Record<string, string>, name: string): string | undefined {
  const found = Object.entries(headers).find(([n]) => n.toLowerCase() === name.toLowerCase());
  return found?.[1];
}

/** Every exchange of the run with the family's server, matched to an operation. */
export function traffic(env: DerivedEnv): Seen[] {
  const { ctx } = env;
  let read = readings.get(ctx);
  if (!read) {
    read = new WeakMap();
    readings.set(ctx, read);
  }
  const seen: Seen[] = [];
  for (const exchange of ctx.pacer.exchanges) {
    let reading = read.get(exchange);
    if (reading === undefined) {
      reading = readExchange(ctx, exchange);
      read.set(exchange, reading);
    }
    if (reading) seen.push(reading);
  }
  return seen;
}

/** One exchange matched to an operation of the family, with the key it carried and its parsed bodies; null when it is not the family's. */
function readExchange(ctx: DerivedEnv["ctx"], exchange: Exchange): Seen | null {
  let index = indexes.get(ctx.contract);
  if (!index) {
    index = new OperationIndex(ctx.contract.operations);
    indexes.set(ctx.contract, index);
  }
  const base = ctx.target.baseUrl;
  if (!exchange.url.startsWith(base)) return null;
  const prefixes = ctx.familyB ? [ctx.familyB.pathPrefix.pix, ctx.familyB.pathPrefix.transactions].filter(Boolean) : [];
  const keys = ctx.target.keys as Partial<Record<KeyName, string>>;
  const path = new URL(exchange.url).pathname.slice(new URL(base).pathname.replace(/\/$/, "").length);
  const candidates = [path, ...prefixes.filter((p) => path.startsWith(`${p}/`)).map((p) => path.slice(p.length))];
  const op = candidates.map((p) => index.match(exchange.method, p)).find((m) => m !== null);
  if (!op) return null;
  const value = headerOf(exchange.requestHeaders, ctx.contract.apiKeyHeader);
  const key = value === undefined ? undefined : KEY_NAMES.find((k) => keys[k] === value);
  return { exchange, op, key, request: jsonOf(exchange.requestBody), response: jsonOf(exchange.responseBody) };
}

/**
 * Request bodies of the run no class takes as an exemplar, though accepted: the bodies at D39's
 * bounds (a megabyte of padding, 10,000 values), which every later class would send again, and
 * the bundle record again (89 MB for a full run, against 3 MB).
 */
const notExemplars = new WeakMap<object, Set<string>>();

/** Marks a request body as no exemplar of its operation (see `notExemplars`). */
export function notAnExemplar(env: DerivedEnv, body: string | undefined): void {
  if (body === undefined) return;
  if (!notExemplars.has(env.ctx)) notExemplars.set(env.ctx, new Set());
  notExemplars.get(env.ctx)!.add(body);
}

/** Successful exchanges by the primary key (optionally of one operation), oldest first. */
export function successes(env: DerivedEnv, operationId?: string): Seen[] {
  const excluded = notExemplars.get(env.ctx);
  return traffic(env).filter(
    (s) =>
      s.key === "primary" &&
      s.exchange.status >= 200 &&
      s.exchange.status < 300 &&
      (!operationId || s.op.operationId === operationId) &&
      !(s.exchange.requestBody !== undefined && excluded?.has(s.exchange.requestBody)),
  );
}

/** A seen exchange as a request to send again: same URL and body, no key, fresh idempotency keys. */
export function replayOf(env: DerivedEnv, seen: Seen): PlannedRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(seen.exchange.requestHeaders)) {
    if (name.toLowerCase() === env.ctx.contract.apiKeyHeader.toLowerCase() || name.toLowerCase().startsWith("x-conformance")) continue;
    headers[name] = value;
  }
  for (const name of idempotencyHeaders(seen.op)) {
    for (const existing of Object.keys(headers)) if (existing.toLowerCase() === name.toLowerCase()) headers[existing] = env.ctx.idempotencyKey();
  }
  return { operationId: seen.op.operationId, method: seen.exchange.method, url: seen.exchange.url, headers, body: seen.exchange.requestBody };
}


/**
 * The contract's example body of an operation, made usable on a live server: members that
 * link to an earlier response get that response's value (or are dropped when optional and
 * unknown), e-mail members get a fresh address (servers may refuse duplicates).
 */
export function exampleRequestBody(env: DerivedEnv, op: ContractOperation): Json | undefined {
  if (!op.requestBody) return undefined;
  const body = exampleBody(env.ctx, op.operationId);
  const schema = op.requestBody.schema;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const name of Object.keys(body)) {
    if (isLinkedMember(name)) {
      const value = linkedValue(env, name);
      if (value !== undefined) body[name] = value;
      else if (!required.has(name)) delete body[name];
    }
    const property = properties[name];
    if (isObject(property) && property.format === "email" && typeof body[name] === "string") {
      // Drawn from the run's seed, not counted per process: two runs with one seed make the same.
      body[name] = `derived+${env.ctx.runId}-${env.ctx.uuid().slice(0, 8)}@example.com`;
    }
  }
  return body;
}

/** The value of a linked member (`customerId`) the run's latest success gave, or undefined. */
export function linkedValue(env: DerivedEnv, name: string): unknown {
  return lastValueOf(traffic(env).filter((s) => s.key === "primary" && is2xx(s.exchange)).map((s) => s.response), name);
}

/** Required linked members of the contract's example body that no response of the run gives a value for. */
export function unresolvedLinks(env: DerivedEnv, op: ContractOperation): string[] {
  const required = isObject(op.requestBody?.schema) && Array.isArray(op.requestBody.schema.required) ? op.requestBody.schema.required.map(String) : [];
  return Object.keys(exampleBody(env.ctx, op.operationId)).filter((name) => isLinkedMember(name) && required.includes(name) && linkedValue(env, name) === undefined);
}

/** A request of an operation built from the contract, for the given path parameters. */
export function plannedRequest(env: DerivedEnv, op: ContractOperation, params: Record<string, string>, body?: unknown): PlannedRequest {
  const headers: Record<string, string> = {};
  for (const name of idempotencyHeaders(op)) headers[name] = env.ctx.idempotencyKey();
  const built = env.ctx.buildRequest(op.operationId, { params, key: "none", body: body ?? exampleRequestBody(env, op), headers });
  return { operationId: op.operationId, method: built.method, url: built.url, headers: built.headers, body: built.body };
}

/** Ids of records of the parameter's resource the run saw (path parameters of successful requests, creations). */
export function knownIds(env: DerivedEnv, op: ContractOperation, parameter: string): string[] {
  const resource = resourceOf(op, parameter);
  const ids: string[] = [];
  for (const seen of successes(env)) {
    for (const p of pathParameters(seen.op)) if (resourceOf(seen.op, p) === resource) ids.push(seen.op.pathParams[p]!);
    const creation = resource ? creationOf(env.ctx.contract, resource) : undefined;
    if (creation && seen.op.operationId === creation.operationId) {
      const id = createdIdOf(seen.response, parameter);
      if (id) ids.push(id);
    }
  }
  if (ids.length === 0 && resource && FIXTURE_RECORDS[resource]) ids.push(...FIXTURE_RECORDS[resource].readable(env.ctx));
  return [...new Set(ids)].reverse();
}

/**
 * A record of the parameter's resource that nothing has changed yet: created now through the
 * resource's creation operation, or (no creation operation) a fixture of the target.
 */
export async function freshRecord(env: DerivedEnv, op: ContractOperation, parameter: string, use: "consume" | "expect-refusal" = "expect-refusal"): Promise<string> {
  const resource = resourceOf(op, parameter);
  const creation = resource ? creationOf(env.ctx.contract, resource) : undefined;
  if (!creation) {
    const fixture = resource ? FIXTURE_RECORDS[resource] : undefined;
    if (!fixture) throw new NotApplicable(`no operation creates a record for {${parameter}} and the target names none`);
    return use === "consume" ? fixture.take(env.ctx) : fixture.peek(env.ctx);
  }
  const exemplar = successes(env, creation.operationId).pop();
  const request = exemplar ? replayOf(env, exemplar) : plannedRequest(env, creation, {});
  const response = await env.send(request, "primary");
  const id = is2xx(response) ? createdIdOf(jsonOf(response.body), parameter) : undefined;
  if (!id) throw new NotApplicable(`could not create a record to work with: ${creation.method} ${creation.path} answered ${response.status}`);
  return id;
}

/** The operation that reads records of the parameter's resource. */
export function readerOf(env: DerivedEnv, op: ContractOperation, parameter: string): ContractOperation | undefined {
  const resource = resourceOf(op, parameter);
  return resource ? readOf(env.ctx.contract, resource, parameter) ?? env.ctx.contract.operations.find((o) => o.method === "GET" && resourceOf(o, parameter) === resource) : undefined;
}

/** Sends an exemplar of every operation the run has no success of yet (see the module comment). */
export async function prime(env: DerivedEnv): Promise<void> {
  const ops = env.ctx.contract.operations;
  const order = (op: ContractOperation) =>
    (pathParameters(op).length > 0 ? 2 : 0) + (op.requestBody && Object.keys(isObject(op.requestBody.example) ? op.requestBody.example : {}).some(isLinkedMember) ? 1 : 0);
  for (const op of [...ops].sort((a, b) => order(a) - order(b))) {
    if (successes(env, op.operationId).length > 0) continue;
    await env.attempt(op.operationId, "prime", "an exemplar request of the operation", async () => {
      const params: Record<string, string> = {};
      for (const parameter of pathParameters(op)) {
        // A change takes a record of its own; a read, any record the run knows.
        params[parameter] = op.method === "GET" ? knownIds(env, op, parameter)[0] ?? (await freshRecord(env, op, parameter)) : await freshRecord(env, op, parameter, "consume");
      }
      await env.send(plannedRequest(env, op, params), "primary");
    });
  }
  // Priming leaves no result of its own: only the classes' verdicts count.
  env.outcomes.length = 0;
}
