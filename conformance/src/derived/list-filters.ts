/**
 * List filters (part of the consistency class): a list read with a filter its operation
 * declares (`x-list-filter` on a query parameter: the item member it looks at and the
 * comparison) keeps exactly the records that satisfy it. For each filter, the check makes
 * records of the list's resource itself, lists with a value that some of them satisfy and some
 * do not (a record's own value as the bound: a period's end is tested at a record's instant),
 * and holds every listed item to the filter and finds in the list every record it made that
 * satisfies it. An `equals` filter is also listed with another value of its enum, which none of
 * the records made may show.
 *
 * Under seed a filter is judged only where the document states all of it: the parameter, what
 * it keeps (`x-list-filter`), the list's body and the item member. `listTransactions`' filters
 * are D15's (the document says "filters by status and period", no names, no members, no ends).
 */
import {
  COMPARISON_WORDS,
  listedItems,
  listItemsOf,
  satisfiesFilter,
  type ContractOperation,
  type ContractParameter,
  type ListFilter,
} from "@payment-collection/contract/model/index.ts";
import { NotApplicable } from "../core/check-context.ts";
import { asserted, decisionBehind, type ContractElement, type Profile } from "../core/profiles/document-word.ts";
import { createdIdOf, creationOf, ID_MEMBERS, lastLiteral, readerOfResource, pathParameters } from "./id-links.ts";
import { describe, is2xx, isObject, jsonOf, recordOf, type DerivedEnv, type Json, type PlannedRequest } from "./shared.ts";
import { plannedRequest, replayOf, successes } from "./traffic.ts";

/** Pages read at most for one filtered list (the records made are the newest; more pages are a long list). */
const MAX_PAGES = 5;
/** Records made at most for one list operation, until some member values differ. */
const MAX_RECORDS = 3;

interface Made {
  id: string;
  record: Json;
}

/** One filtered list and what it must show: the records made that satisfy the bound. */
interface Probe {
  bound: string;
  kept: Made[];
}

const filterOf = (p: ContractParameter): ListFilter | undefined => (p.in === "query" ? p.listFilter : undefined);

/** The query filters an operation declares. */
export function listFilters(op: ContractOperation): ContractParameter[] {
  return op.parameters.filter((p) => filterOf(p) !== undefined);
}

/** The elements a filter's verdict rests on: the parameter, what it keeps, the list's body, the item and its member. */
function elementsOf(op: ContractOperation, parameter: ContractParameter): ContractElement[] {
  const success = op.responses.find((r) => r.status.startsWith("2"));
  const items = listItemsOf(success?.schema)?.items;
  const member = isObject(items?.properties) ? items.properties[filterOf(parameter)!.member] : undefined;
  return [
    { kind: "parameter", parameter, operation: op },
    { kind: "keyword", schema: parameter.raw, keyword: "x-list-filter" },
    ...(success ? [{ kind: "response", response: success, aspect: "body" } as const] : []),
    { kind: "schema", schema: items },
    { kind: "schema", schema: member },
  ];
}

/** The decision behind the first element of a filter the profile does not assert; undefined when the profile holds a server to all of it. */
export function filterDecision(op: ContractOperation, parameter: ContractParameter, profile: Profile): string | undefined {
  const element = elementsOf(op, parameter).find((e) => !asserted(profile, e));
  return element ? decisionBehind(element) : undefined;
}

const valueText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));
const idOf = (item: unknown) => (isObject(item) ? ID_MEMBERS.map((k) => item[k]).find((v) => typeof v === "string" || typeof v === "number") : undefined);

/** Records made for each list operation, once per run (shared by its filters). */
const madeFor = new WeakMap<object, Map<string, Made[]>>();

/** One record of the list's resource made now, through its creation (the run's own request repeated, else the contract's example). */
async function makeRecord(env: DerivedEnv, creation: ContractOperation, member: string): Promise<Made | undefined> {
  const exemplar = successes(env, creation.operationId).pop();
  for (const request of [exemplar ? replayOf(env, exemplar) : undefined, plannedRequest(env, creation, {})]) {
    if (!request) continue;
    const response = await env.send(request, "primary");
    const id = is2xx(response) ? createdIdOf(jsonOf(response.body)) : undefined;
    if (!id) continue;
    let record = recordOf(jsonOf(response.body));
    const reader = readerOfResource(env.ctx.contract, lastLiteral(creation.path) ?? "");
    // The creation's answer may leave the member out; the record's read shows it.
    if ((!isObject(record) || !(member in record)) && reader) {
      const read = await env.send(plannedRequest(env, reader, { [pathParameters(reader)[0]!]: id }), "primary");
      if (is2xx(read)) record = recordOf(jsonOf(read.body));
    }
    return isObject(record) ? { id, record } : undefined;
  }
  return undefined;
}

/**
 * The records made for the list (at least two), made until two show different values of
 * `member` when the filter orders values; NotApplicable when no operation makes them.
 */
async function recordsFor(env: DerivedEnv, op: ContractOperation, filter: ListFilter): Promise<Made[]> {
  const creation = creationOf(env.ctx.contract, lastLiteral(op.path) ?? "");
  if (!creation) throw new NotApplicable(`no operation of the contract makes records of ${op.path} for the check to find`);
  let byOperation = madeFor.get(env.ctx);
  if (!byOperation) madeFor.set(env.ctx, (byOperation = new Map()));
  const made = byOperation.get(op.operationId) ?? [];
  byOperation.set(op.operationId, made);
  const distinct = () => new Set(made.map((m) => valueText(m.record[filter.member]))).size > 1;
  while (made.length < MAX_RECORDS && (made.length < 2 || (filter.comparison !== "equals" && !distinct()))) {
    const record = await makeRecord(env, creation, filter.member);
    if (!record) break;
    made.push(record);
  }
  if (made.length === 0) throw new NotApplicable(`${creation.method} ${creation.path} made no record to list (the run's request and the contract's example both refused)`);
  return made;
}

/** The lists to read for a filter: bounds that some records made satisfy and, where it can be shown, some do not. */
function probesOf(parameter: ContractParameter, filter: ListFilter, made: Made[]): Probe[] {
  const probe = (bound: string): Probe => ({ bound, kept: made.filter((m) => satisfiesFilter(filter.comparison, m.record[filter.member], bound)) });
  const values = [...new Set(made.map((m) => m.record[filter.member]).filter((v) => v !== undefined && v !== null).map(valueText))];
  if (values.length === 0) throw new NotApplicable(`the records made carry no ${filter.member}`);
  if (filter.comparison === "equals") {
    const options = Array.isArray(parameter.schema.enum) ? parameter.schema.enum.map(valueText) : [];
    const other = options.find((v) => !values.includes(v));
    return [probe(values[0]!), ...(other !== undefined ? [probe(other)] : [])];
  }
  // A record's own value as the bound, where the records split on it: the bound's side is then shown.
  const split = values.map(probe).find((p) => p.kept.length > 0 && p.kept.length < made.length);
  if (!split) throw new NotApplicable(`the ${made.length} records made show one ${filter.member} (${values[0]}): no bound splits them`);
  return [split];
}

/** The query of one page of the filtered list: the filter, and the page and the largest page size the profile asserts. */
function pageQuery(env: DerivedEnv, op: ContractOperation, name: string, bound: string, page: number): Record<string, string> {
  const query: Record<string, string> = { [name]: bound };
  const pageParameter = op.parameters.find((p) => p.in === "query" && p.name === "page");
  const limit = op.parameters.find((p) => p.in === "query" && p.name === "limit");
  if (limit && typeof limit.schema.maximum === "number" && asserted(env.ctx.profile, { kind: "keyword", schema: limit.schema, keyword: "maximum" })) query.limit = String(limit.schema.maximum);
  if (pageParameter) query.page = String(page);
  return query;
}

/** Reads the filtered list (page after page while a record it must show is missing) and says what breaks the filter. */
async function readProbe(env: DerivedEnv, op: ContractOperation, parameter: ContractParameter, probe: Probe, path: string[]): Promise<{ problems: string[]; request: PlannedRequest; status: number }> {
  const { member, comparison } = filterOf(parameter)!;
  const where = `${op.operationId} with ${parameter.name}=${probe.bound}`;
  const missing = new Set(probe.kept.map((m) => m.id));
  const problems: string[] = [];
  let first: { request: PlannedRequest; status: number } | undefined;
  for (let page = 1; page <= MAX_PAGES && (page === 1 || missing.size > 0); page += 1) {
    const built = env.ctx.buildRequest(op.operationId, { key: "none", query: pageQuery(env, op, parameter.name, probe.bound, page) });
    const request: PlannedRequest = { operationId: op.operationId, method: built.method, url: built.url, headers: built.headers };
    const response = await env.send(request, "primary");
    first ??= { request, status: response.status };
    if (!is2xx(response)) return { problems: [`${where} answered ${describe(response)}`], ...first };
    const items = listedItems(jsonOf(response.body), path);
    if (!items) return { problems: [`${where}: the body holds no list at ${path.join(".")}`], ...first };
    const wrong = items.filter((item) => !satisfiesFilter(comparison, isObject(item) ? item[member] : undefined, probe.bound));
    for (const item of wrong.slice(0, 3)) problems.push(`${where} listed ${idOf(item) ?? "an item"} whose ${member} is ${valueText(isObject(item) ? item[member] : undefined)}: it must be one whose ${member} ${COMPARISON_WORDS[comparison]} ${probe.bound}`);
    if (wrong.length > 3) problems.push(`${where}: ${wrong.length - 3} more items break the filter`);
    for (const item of items) missing.delete(String(idOf(item)));
    if (items.length === 0 || !pageQuery(env, op, parameter.name, probe.bound, page).page) break;
  }
  for (const made of probe.kept.filter((m) => missing.has(m.id))) {
    problems.push(`${where} does not list ${made.id}, made by this check, whose ${member} ${valueText(made.record[member])} ${COMPARISON_WORDS[comparison]} ${probe.bound}`);
  }
  return { problems, ...first! };
}

/** Every filter of one list operation: a result per filter. */
export async function listFilterChecks(env: DerivedEnv, op: ContractOperation): Promise<void> {
  const success = op.responses.find((r) => r.status.startsWith("2"));
  const path = listItemsOf(success?.schema)?.path;
  const statements = env.catalogue ? env.statementsOf(op.operationId, success?.status ?? "200").filter((id) => env.catalogue!.byId.get(id)?.enforcedBy?.includes(env.derivedClass)) : [];
  for (const parameter of listFilters(op)) {
    if (env.stopped) break;
    const filter = filterOf(parameter)!;
    const variant = `filter-${parameter.name}`;
    const title = `listing with ${parameter.name} keeps exactly the items whose ${filter.member} ${COMPARISON_WORDS[filter.comparison]} it`;
    const decision = filterDecision(op, parameter, env.ctx.profile);
    if (decision) {
      env.notApplicable(op.operationId, variant, title, `what ${parameter.name} keeps is decision ${decision}'s, not the document's (checked under --profile full)`);
      continue;
    }
    await env.attempt(op.operationId, variant, title, async () => {
      if (!path) throw new NotApplicable(`the contract's ${op.operationId} success body holds no list`);
      const probes = probesOf(parameter, filter, await recordsFor(env, op, filter));
      const problems: string[] = [];
      let shown: { request: PlannedRequest; status: number } | undefined;
      for (const probe of probes) {
        const read = await readProbe(env, op, parameter, probe, path);
        problems.push(...read.problems);
        // The reproduction is the first list that breaks the filter, else the first list read.
        if (!shown || (read.problems.length > 0 && problems.length === read.problems.length)) shown = read;
      }
      env.judge({ operationId: op.operationId, variant, title, covers: env.covered(op.operationId, shown!.status), reproduction: env.reproduce(shown!.request, "primary"), statements }, problems);
    });
  }
}
