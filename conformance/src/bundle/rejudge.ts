/**
 * The verdicts of a bundle, judged again from its exchanges alone: every recorded exchange goes
 * through the traffic engine (src/traffic/) under the bundle's profile and contract, and the
 * findings are held against report.json:
 *
 * - every violation the engine finds must be a failed check's: one the exchange belongs to, or
 *   one that names the statement (or decision) the violation names;
 * - every failed check must be backed by its exchanges: those report.json shows for it are in
 *   the HAR as its own (method, URL, status, the start of the body), and so are the requests of
 *   its reproduction; a failure the engine sees again is confirmed;
 * - a failure the engine cannot see needs more than the traffic shows (a webhook's arrival, a
 *   rate-limit window's timing, a rule across requests the engine does not hold): it is counted
 *   apart, with the reason;
 * - every check an exchange says it belongs to has a result in report.json.
 *
 * A run that stopped early (`--fail-fast`) may show violations no check was left to judge:
 * they are counted apart.
 */
import { join } from "node:path";
import { loadFamilyContract } from "@payment-collection/contract/model/index.ts";
import type { Profile } from "../core/profiles/index.ts";
import type { CheckResult } from "../core/results.ts";
import { loadCatalogue, type Catalogue } from "../core/statement-map.ts";
import { accountOfKey } from "../traffic/accounts.ts";
import { TrafficEngine, type Violation } from "../traffic/engine.ts";
import { indexOf, routeByBaseUrl, type FamilyRoute } from "../traffic/routing.ts";
import type { BundleEntry } from "./har.ts";
import type { FamilyFingerprint } from "./target-fingerprint.ts";

export interface RejudgeInput {
  entries: BundleEntry[];
  results: CheckResult[];
  /** Why the run ended before its checks were all run (`--fail-fast`, a server that stopped answering). */
  stoppedEarly?: string;
  profile: Profile;
  target: FamilyFingerprint[];
  /** The folder of the contract to judge with (contract-digest.ts). */
  contractRoot: string;
}

export interface Rejudgement {
  /** Exchanges judged (sent by the run), webhook deliveries received (not judged by the engine). */
  exchanges: number;
  deliveries: number;
  /** Violations the engine found in them. */
  violations: number;
  /** Checks with recorded exchanges: judged again. */
  rejudged: number;
  passed: number;
  /** Failed checks the traffic shows failing. */
  confirmed: number;
  /** Failed checks whose failure needs more than the traffic shows, with the reason. */
  apart: Array<{ id: string; reason: string }>;
  /** Violations no check judged because the run stopped early. */
  unjudged: number;
  /** One line each, naming the check or the entry. */
  disagreements: string[];
}

/** `family-x/derived/<class>/<operation>/`: the unit of a generic check's result. */
function derivedUnit(id: string): string | undefined {
  const parts = id.split("/");
  return parts[1] === "derived" && parts.length >= 5 ? `${parts.slice(0, 4).join("/")}/` : undefined;
}

/** A result id without the `#2` a second result of the same check gets (its exchanges carry the check's id). */
const checkOf = (id: string) => id.replace(/#\d+$/, "");

/** The requests of a reproduction: `curl -i -X METHOD 'URL'` lines. */
function reproducedRequests(reproduction: string | undefined): Array<{ method: string; url: string }> {
  if (!reproduction) return [];
  return [...reproduction.matchAll(/curl -i -X (\S+) '((?:[^']|'\\'')*)'/g)].map((m) => ({ method: m[1]!, url: m[2]!.replace(/'\\''/g, "'") }));
}

/** Why a failure the engine cannot see needs more than the traffic shows. */
function beyondTraffic(result: CheckResult, catalogue: Catalogue): string {
  if (result.id.includes("/events/") || result.statements.some((id) => catalogue.byId.get(id)?.kind === "event")) return "a webhook's arrival";
  if (/\/429\/|rate-limit/.test(result.id) || result.derivedClass === "rate-limits") return "a rate-limit window's timing";
  if (result.derivedClass === "cors") return "the cross-origin policy the target declares (D44), which the contract, and so the traffic engine, does not hold";
  return "what the target tells the check (its fixtures, keys and scopes) or a rule across requests the traffic engine does not hold";
}

function describeViolation(v: Violation): string {
  const name = v.naming.kind === "contract" ? v.naming.id : `${v.naming.kind} ${v.naming.id}`;
  return `${v.operationId ?? `${v.method} ${v.path}`} ${v.status} [${name}]: expected ${v.expected}; seen ${v.seen}`;
}

export function rejudge(input: RejudgeInput): Rejudgement {
  const catalogue = loadCatalogue(join(input.contractRoot, "spec", "statements.yaml"));
  const out: Rejudgement = { exchanges: 0, deliveries: 0, violations: 0, rejudged: 0, passed: 0, confirmed: 0, apart: [], unjudged: 0, disagreements: [] };
  const found = replayed(input, catalogue, out);
  out.violations = found.length;
  const index = new EntryIndex(input.entries);
  const failed = input.results.filter((r) => r.verdict === "fail");
  everyCheckHasResult(input, index, out);
  const confirmed = violationsOwned(input, failed, found, out);
  for (const result of failed) judgeFailure(input, index, result, confirmed.has(result.id), catalogue, out);
  for (const result of input.results) {
    if (result.verdict === "pass" && index.entriesOf(result).length > 0) {
      out.rejudged += 1;
      out.passed += 1;
    }
  }
  return out;
}

type Found = Array<{ entry: number; violation: Violation }>;

/** The exchanges through the traffic engine, as the bundle's contract and target say: the server's violations, by entry. */
function replayed(input: RejudgeInput, catalogue: Catalogue, out: Rejudgement): Found {
  const routes: FamilyRoute[] = input.target.map((family) => {
    const contract = loadFamilyContract(family.family, join(input.contractRoot, "generated"));
    return { family: family.family, contract, index: indexOf(contract), baseUrls: [family.baseUrl] };
  });
  const accounts = new Map(input.target.flatMap((family) => family.keys.map((key) => [key.fingerprint, accountOfKey(family.family, key.name)] as [string, string])));
  const engine = new TrafficEngine({ profile: input.profile, routes, catalogue, accounts });
  const found: Found = [];
  input.entries.forEach((entry, i) => {
    if (entry.received) return void (out.deliveries += 1);
    out.exchanges += 1;
    if (entry.exchange.noResponse) return engine.unanswered();
    const routed = routeByBaseUrl(routes, entry.exchange.method, entry.exchange.url);
    if (!routed) return engine.skip();
    for (const violation of engine.observe(entry.exchange, routed)) if (violation.side === "server") found.push({ entry: i, violation });
  });
  return found;
}

/** The entries of each check (by the id they carry), and of each generic check's unit. */
class EntryIndex {
  readonly byCheck = new Map<string, number[]>();
  private readonly byUnit = new Map<string, number[]>();

  constructor(entries: BundleEntry[]) {
    const add = (map: Map<string, number[]>, key: string, i: number) => map.set(key, [...(map.get(key) ?? []), i]);
    entries.forEach((entry, i) => {
      for (const id of entry.checks) add(this.byCheck, id, i);
      for (const unit of new Set(entry.tags.map(derivedUnit).filter((u): u is string => !!u))) add(this.byUnit, unit, i);
    });
  }

  entriesOf(result: CheckResult): number[] {
    const unit = derivedUnit(result.id);
    return [...new Set([...(this.byCheck.get(result.id) ?? []), ...(this.byCheck.get(checkOf(result.id)) ?? []), ...(unit ? (this.byUnit.get(unit) ?? []) : [])])];
  }
}

/** Every check an exchange belongs to has a result. */
function everyCheckHasResult(input: RejudgeInput, index: EntryIndex, out: Rejudgement): void {
  const results = new Set(input.results.map((r) => r.id));
  for (const [id, list] of index.byCheck) {
    if (!results.has(id)) out.disagreements.push(`check ${id}: exchanges.har holds ${list.length} exchange(s) of it (entries #${list.slice(0, 5).map((i) => i + 1).join(", #")}), report.json has no result for it`);
  }
}

/** Every violation is a failed check's; returns the failed checks a violation confirms. */
function violationsOwned(input: RejudgeInput, failed: CheckResult[], found: Found, out: Rejudgement): Set<string> {
  const results = new Map(input.results.map((r) => [r.id, r]));
  const confirmed = new Set<string>();
  const failedNaming = new Map<string, string[]>();
  for (const result of failed) for (const id of [...result.statements, ...result.decisions]) failedNaming.set(id, [...(failedNaming.get(id) ?? []), result.id]);
  for (const { entry, violation } of found) {
    const tags = new Set([...input.entries[entry]!.checks, ...input.entries[entry]!.tags]);
    const owners = failed.filter((r) => tags.has(checkOf(r.id)) || [...tags].some((t) => derivedUnit(r.id) !== undefined && t.startsWith(derivedUnit(r.id)!)));
    const named = failedNaming.get(violation.naming.id) ?? [];
    for (const id of [...owners.map((r) => r.id), ...named]) confirmed.add(id);
    if (owners.length > 0 || named.length > 0) continue;
    if (input.stoppedEarly) {
      out.unjudged += 1;
      continue;
    }
    const sentBy = input.entries[entry]!.checks.map((id) => `check ${id} (${results.get(id)?.verdict ?? "no result"})`).join(", ") || `${[...tags].join(", ") || "no check"}`;
    out.disagreements.push(`exchanges.har entry #${entry + 1}, sent by ${sentBy}: the traffic shows ${describeViolation(violation)}; report.json has no failed check for it`);
  }
  return confirmed;
}

/** A failed check is backed by its exchanges: confirmed by a violation, or counted apart with why. */
function judgeFailure(input: RejudgeInput, index: EntryIndex, result: CheckResult, confirmed: boolean, catalogue: Catalogue, out: Rejudgement): void {
  const own = index.entriesOf(result).map((i) => input.entries[i]!);
  const missing = missingExchanges(result, own);
  if (missing.length > 0) {
    out.disagreements.push(`check ${result.id} failed, but exchanges.har does not hold ${missing.length === 1 ? "an exchange" : `${missing.length} exchanges`} report.json shows for it: ${missing.slice(0, 3).join("; ")}`);
    return;
  }
  if (own.length === 0) {
    out.apart.push({ id: result.id, reason: `failed before sending a request of its own (${result.reasons[0]?.slice(0, 120) ?? "no reason given"})` });
    return;
  }
  out.rejudged += 1;
  if (confirmed) out.confirmed += 1;
  else out.apart.push({ id: result.id, reason: beyondTraffic(result, catalogue) });
}

/** The exchanges and reproduced requests the report shows for a failed check that its entries do not hold. */
function missingExchanges(result: CheckResult, own: BundleEntry[]): string[] {
  const notes = result.exchanges ?? [];
  return [
    ...notes
      .filter((note) => !own.some((e) => e.exchange.method === note.method && e.exchange.url === note.url && e.exchange.status === note.status && (e.binary || (e.exchange.responseBody ?? "").startsWith(note.body))))
      .map((note) => `${note.method} ${note.url} answered ${note.status}`),
    ...reproducedRequests(result.reproduction)
      .filter((request) => !own.some((e) => e.exchange.method === request.method && e.exchange.url === request.url))
      .map((request) => `its reproduction's ${request.method} ${request.url}`),
  ];
}
