/**
 * Consistency: what the server returns is what it was sent. For every creation the run made,
 * sent again with every optional member present (positive data's `everyMemberBody`: a member no
 * example carries is sent too), the members both the request and the response carry are equal
 * (deep, numbers by value), a member marked as echoing a request member (`x-echoes`) holds what
 * was sent in it, and a later read by the owner returns the same values, and the same
 * creation sent several times at once gives each record an id of its own; after an update setting every member its
 * schema declares, a read shows the values sent; after a delete or cancel that succeeded, a read shows a change (full profile: under
 * seed the state a soft delete shows is not stated). Every other read of a record (its status,
 * its QR code) agrees with the record's own read on the members both carry.
 */
import { echoesOf, type ContractOperation } from "@payment-collection/contract/model/index.ts";
import { createdIdOf, creationOf, createsRecord, isList, pathParameters, readerOfResource, resourceOf } from "./id-links.ts";
import { listFilterChecks, listFilters } from "./list-filters.ts";
import { exampleRequestBody, freshRecord, knownIds, plannedRequest, readerOf, replayOf, successes } from "./traffic.ts";
import { keywordOf, objectView, requestSchema } from "./request-schema.ts";
import { describe, is2xx, isObject, jsonOf, recordOf, sameValue, sharedLeaves, stable, type DerivedEnv, type Json } from "./shared.ts";
import { freshCpf } from "../checks/provisioning.ts";
import { asserted, type Profile } from "../core/profiles/document-word.ts";
import { everyMemberBody } from "./positive-data.ts";

/**
 * Members whose written form is a decision in the request (`x-decided` pattern, format or
 * domain format: a CPF's digits only, D23): under seed a server may give them back in another
 * notation of the same value (`144.328.333-94` for `14432833394`: separators only, the same characters in the same case).
 */
function decidedForms(op: ContractOperation | undefined, profile: Profile): Set<string> {
  const out = new Set<string>();
  if (!op?.requestBody) return out;
  const visit = (node: unknown, path: string): void => {
    if (!isObject(node)) return;
    if (["pattern", "format", "x-domain-format"].some((keyword) => !asserted(profile, { kind: "keyword", schema: node, keyword }))) out.add(path);
    for (const member of Array.isArray(node.allOf) ? node.allOf : []) visit(member, path);
    for (const [name, sub] of Object.entries(isObject(node.properties) ? node.properties : {})) visit(sub, path ? `${path}.${name}` : name);
  };
  visit(op.requestBody.schema, "");
  return out;
}

const notation = (value: unknown) => (typeof value === "string" ? value.replace(/[^\p{L}\p{N}]/gu, "") : value);

const differences = (sent: unknown, received: unknown, label: string, forms: Set<string> = new Set()) =>
  sharedLeaves(sent, received)
    .filter((leaf) => !sameValue(leaf.sent, leaf.received) && !(forms.has(leaf.path) && notation(leaf.sent) === notation(leaf.received)))
    .map((leaf) => `${label}: ${leaf.path} is ${JSON.stringify(leaf.received)}, sent ${JSON.stringify(leaf.sent)}`);

const at = (value: unknown, path: string): unknown => path.split(".").reduce<unknown>((node, name) => (isObject(node) ? node[name] : undefined), value);

/**
 * A response member that echoes a request member (`x-echoes`: `payer_request` is the `payer`
 * sent, D01) holds the value sent, whatever name it has; members the request did not carry are
 * not compared here. Under seed only echoes the document states (no marking of a decision).
 */
function echoDifferences(env: DerivedEnv, op: ContractOperation, status: number, sent: unknown, body: unknown, label: string): { members: string[]; problems: string[] } {
  const schema = op.responses.find((r) => r.status === String(status))?.schema;
  const echoes = echoesOf(schema).filter((echo) => asserted(env.ctx.profile, { kind: "keyword", schema: echo.schema, keyword: "x-echoes" }) && at(sent, echo.echoes) !== undefined);
  const problems = echoes
    .filter((echo) => !sameValue(at(sent, echo.echoes), at(body, echo.member)))
    .map((echo) => `${label}: ${echo.member} is ${JSON.stringify(at(body, echo.member))}, it echoes ${echo.echoes}, sent ${JSON.stringify(at(sent, echo.echoes))}`);
  return { members: echoes.map((echo) => echo.member), problems };
}

async function creation(env: DerivedEnv, op: ContractOperation): Promise<void> {
  const title = "a creation returns the values sent, and a later read returns them too";
  await env.attempt(op.operationId, "returns-what-was-sent", title, async () => {
    const exemplar = successes(env, op.operationId).pop();
    if (!exemplar) return env.notApplicable(op.operationId, "returns-what-was-sent", title, "the run made no such record");
    const replay = replayOf(env, exemplar);
    const every = isObject(exemplar.request) ? everyMemberBody(env, op, exemplar.request) : undefined;
    const request = every ? { ...replay, body: JSON.stringify(every) } : replay;
    const response = await env.send(request, "primary");
    // A refused body is positive data's failure; here there is nothing to compare.
    if (!is2xx(response)) return env.notApplicable(op.operationId, "returns-what-was-sent", title, `the creation answered ${describe(response)} this time`);
    const sent = jsonOf(request.body);
    const created = recordOf(jsonOf(response.body));
    const forms = decidedForms(op, env.ctx.profile);
    const echoed = echoDifferences(env, op, response.status, sent, jsonOf(response.body), "creation response");
    const problems = [...differences(sent, created, "creation response", forms), ...echoed.problems];
    const reader = readerOfResource(env.ctx.contract, op.path.split("/").pop()!);
    const id = createdIdOf(jsonOf(response.body), reader ? pathParameters(reader)[0] : undefined);
    if (reader && id) {
      const read = await env.send(plannedRequest(env, reader, { [pathParameters(reader)[0]!]: id }), "primary");
      if (!is2xx(read)) problems.push(`the owner's read of the new record ${id} answered ${describe(read)}`);
      else {
        const record = recordOf(jsonOf(read.body));
        problems.push(...differences(sent, record, `read by ${reader.operationId}`, forms));
        problems.push(...echoDifferences(env, reader, read.status, sent, jsonOf(read.body), `read by ${reader.operationId}`).problems);
        // Status may move on its own (a charge gets paid); every other shared member must not.
        problems.push(...differences(stable(created), record, `read by ${reader.operationId} against the creation response`).filter((p) => !/\bstatus\b/.test(p.split(" is ")[0]!)));
      }
    }
    // The result enforces the statements of every member it compares (`reference`: the caller's own).
    const statements = env.memberStatementsOf(op.operationId, [...sharedLeaves(sent, created).map((leaf) => leaf.path), ...echoed.members]);
    env.judge({ operationId: op.operationId, variant: "returns-what-was-sent", title, covers: env.covered(op.operationId, response.status), reproduction: env.reproduce(request, "primary"), statements }, problems);
  });
}

/** Creations sent at once: enough that a fast server makes some of them in the same millisecond. */
const BURST = 8;

/**
 * A record's id names that record alone: the same creation sent several times at once (each
 * with a fresh idempotency key, so each a creation of its own) gives each success an id no
 * other has, however close together the server made them. The requests are valid, so a 5xx
 * among them is a failure; a refusal (a rate limit) leaves the others to compare.
 */
async function distinctIds(env: DerivedEnv, op: ContractOperation): Promise<void> {
  const title = "creations sent at once each get an id of their own";
  await env.attempt(op.operationId, "distinct-ids", title, async () => {
    const exemplar = successes(env, op.operationId).pop();
    if (!exemplar) return env.notApplicable(op.operationId, "distinct-ids", title, "the run made no such record");
    const requests = Array.from({ length: BURST }, () => replayOf(env, exemplar));
    const responses = await Promise.all(requests.map((request) => env.send(request, "primary")));
    const reader = readerOfResource(env.ctx.contract, op.path.split("/").pop()!);
    const problems = responses.filter((r) => r.status >= 500).map((r) => `one of ${BURST} creations sent at once answered ${describe(r)}`);
    // Where a body's shape is decided, a success may hold its id elsewhere than the run looks.
    const succeeded = responses.filter(is2xx);
    const ids = succeeded.map((r) => createdIdOf(jsonOf(r.body), reader ? pathParameters(reader)[0] : undefined)).filter((id): id is string => id !== undefined);
    if (ids.length < 2 && problems.length === 0) return env.notApplicable(op.operationId, "distinct-ids", title, `${succeeded.length} of ${BURST} creations sent at once succeeded, ${ids.length} with an id where the run looks for one: no two ids to compare`);
    const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
    if (repeated.length > 0) problems.push(`${ids.length} creations sent at once got ${new Set(ids).size} distinct ids: ${repeated.map((id) => JSON.stringify(id)).join(", ")} given to more than one`);
    env.judge({ operationId: op.operationId, variant: "distinct-ids", title, covers: env.covered(op.operationId, exemplar.exchange.status), reproduction: env.reproduce(requests[0]!, "primary"), statements: env.memberStatementsOf(op.operationId, ["id"]) }, problems);
  });
}

/**
 * A valid value of a member other than the record's: another enumerated value, a fresh CPF or
 * e-mail, a text with a word added; a value only a pattern describes is the example's as it is.
 */
function otherValue(env: DerivedEnv, sub: Json, example: unknown, current: unknown): unknown {
  const values = keywordOf(sub, "enum");
  if (Array.isArray(values)) return values.find((value) => value !== current) ?? example;
  if (keywordOf(sub, "x-domain-format") === "cpf-cnpj") return freshCpf(env);
  if (keywordOf(sub, "format") === "email") return `updated+${env.ctx.runId}-${env.ctx.uuid().slice(0, 8)}@example.com`;
  if (typeof example !== "string" || example !== current || keywordOf(sub, "pattern") !== undefined) return example;
  const maxLength = keywordOf(sub, "maxLength");
  return `${example} B`.slice(0, typeof maxLength === "number" ? maxLength : undefined);
}

/**
 * An update that sets every member its schema declares (as the profile sees it), each to a value
 * the record does not have: the run's own update, completed from the contract's example of the
 * resource's creation, each value changed where it equals the record's (`otherValue`). So a
 * server that forgets to apply one member of an update shows it in the read that follows.
 */
function everyMemberUpdate(env: DerivedEnv, schema: { profiled: unknown; full: unknown }, exemplar: unknown, example: unknown, current: unknown): unknown {
  const view = objectView(schema.profiled);
  const fullView = objectView(schema.full);
  if (!view || !isObject(exemplar)) return exemplar;
  const record = isObject(current) ? current : {};
  const shown = isObject(example) ? example : {};
  const body: Json = { ...exemplar };
  for (const [name, sub] of Object.entries(view.properties)) {
    // The value's constraints are the contract's (decided ones too): a server keeps to its decisions under any profile.
    const full = fullView?.properties[name] ?? sub;
    const base = exemplar[name] ?? shown[name];
    if (objectView(sub) && isObject(base)) body[name] = everyMemberUpdate(env, { profiled: sub, full }, isObject(exemplar[name]) ? exemplar[name] : {}, shown[name], record[name]);
    else if (base !== undefined || Array.isArray(keywordOf(sub, "enum"))) body[name] = sameValue(base, record[name]) || base === undefined ? otherValue(env, full, base, record[name]) : base;
  }
  return body;
}

async function change(env: DerivedEnv, op: ContractOperation): Promise<void> {
  const [parameter] = pathParameters(op);
  const reader = readerOf(env, op, parameter!);
  const exemplar = successes(env, op.operationId).pop();
  if (!reader || reader.operationId === op.operationId) return;
  const updates = op.method === "PUT" || op.method === "PATCH";
  const title = updates ? "after an update, a read shows the values sent" : "after a delete or cancel, a read shows the change";
  if (!updates && env.ctx.profile === "seed") return env.notApplicable(op.operationId, "read-shows-change", title, "what a read shows after this change is not stated by the document (checked under --profile full)");
  await env.attempt(op.operationId, "read-shows-change", title, async () => {
    // Without a success to repeat (e.g. no primary key) there is nothing to compare: not applicable, not a failure.
    if (!exemplar) return env.notApplicable(op.operationId, "read-shows-change", title, "the run has no successful request of the operation to repeat");
    const id = await freshRecord(env, op, parameter!, "consume");
    const params = { [parameter!]: id };
    const read = () => env.send(plannedRequest(env, reader, { [pathParameters(reader)[0]!]: id }), "primary");
    const before = await read();
    const creation = creationOf(env.ctx.contract, resourceOf(op, parameter!) ?? "");
    const example = creation ? exampleRequestBody(env, creation) : undefined;
    const current = is2xx(before) ? recordOf(jsonOf(before.body)) : undefined;
    const body = updates ? everyMemberUpdate(env, { profiled: requestSchema(op, env.ctx.profile), full: op.requestBody?.schema }, exemplar.request, example, current) : exemplar.request;
    const request = plannedRequest(env, op, params, body);
    const response = await env.send(request, "primary");
    if (!is2xx(response)) return env.notApplicable(op.operationId, "read-shows-change", title, `the change answered ${describe(response)} this time`);
    const after = await read();
    const problems: string[] = [];
    if (updates) problems.push(...(is2xx(after) ? differences(jsonOf(request.body), recordOf(jsonOf(after.body)), `read by ${reader.operationId}`, decidedForms(op, env.ctx.profile)) : [`the read after the update answered ${describe(after)}`]));
    else if (is2xx(after) && sameValue(stable(jsonOf(before.body)), stable(jsonOf(after.body)))) problems.push(`the read after ${op.operationId} shows the record unchanged`);
    env.judge({ operationId: op.operationId, variant: "read-shows-change", title, covers: env.covered(op.operationId, response.status), reproduction: env.reproduce(request, "primary") }, problems);
  });
}

async function otherRead(env: DerivedEnv, op: ContractOperation): Promise<void> {
  const [parameter] = pathParameters(op);
  const reader = readerOf(env, op, parameter!);
  if (!reader || reader.operationId === op.operationId) return;
  const title = `${op.operationId} agrees with ${reader.operationId} on the members both carry`;
  await env.attempt(op.operationId, "reads-agree", title, async () => {
    const id = knownIds(env, op, parameter!)[0] ?? (await freshRecord(env, op, parameter!));
    const request = plannedRequest(env, op, { [parameter!]: id });
    const response = await env.send(request, "primary");
    const record = await env.send(plannedRequest(env, reader, { [pathParameters(reader)[0]!]: id }), "primary");
    if (!is2xx(response) || !is2xx(record)) return env.notApplicable(op.operationId, "reads-agree", title, `the reads of ${id} answered ${response.status} and ${record.status}`);
    const problems = differences(stable(recordOf(jsonOf(record.body))), recordOf(jsonOf(response.body)), `${op.operationId} against ${reader.operationId}`);
    env.judge({ operationId: op.operationId, variant: "reads-agree", title, covers: env.covered(op.operationId, response.status), reproduction: env.reproduce(request, "primary") }, problems);
  });
}

/** The endpoint statement of the transaction list ("filters by status and period"): its filter results name it, no other result of the class. */
export const VARIANT_STATEMENTS = ["B-TX-ENDPOINT-list"];

export async function run(env: DerivedEnv): Promise<void> {
  for (const op of env.ctx.contract.operations) {
    if (env.stopped) break;
    if (createsRecord(env.ctx.contract, op)) {
      await creation(env, op);
      await distinctIds(env, op);
    }
    else if (op.method !== "GET" && pathParameters(op).length > 0) await change(env, op);
    else if (op.method === "GET" && pathParameters(op).length > 0) await otherRead(env, op);
    else if (isList(op) && listFilters(op).length > 0) await listFilterChecks(env, op);
  }
}
