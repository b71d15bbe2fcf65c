/**
 * Rules that span exchanges, as far as traffic can show them:
 * - idempotency: a replay with the same key (per API key) and the same payload returns the
 *   same record; a key never seen returns a new one (keys are scoped per API key);
 * - tenant isolation: a record created with one account's key is never returned to another
 *   account's key (only when the accounts are known: keys alone do not say which account they
 *   belong to);
 * - rate-limit headers within one window (rate-limit-window.ts);
 * - consistency: a creation's or an update's answer and a later read carry the values sent; a
 *   refused change leaves the record as last read, a change that succeeded shows;
 * - authentication: an operation behind the key never answers a request without one with a success.
 * Each rule names the statements the catalogue links to the generic check class that enforces
 * the same rule on a live run (`enforcedBy`), or the decision that marks the element.
 */
import { hash } from "node:crypto";
import { isObject, type FamilyId, type OperationMatch } from "@payment-collection/contract/model/index.ts";
import { statementsFor, type Catalogue } from "../core/statement-map.ts";
import { errorCodeOf } from "../core/validate.ts";
import type { Profile } from "../core/profiles/index.ts";
import { classStatements } from "../derived/index.ts";
import { createdIdOf, createsRecord, idempotencyHeaders, pathParameters, resourceOf } from "../derived/id-links.ts";
import { is2xx, recordOf, sameValue, sharedLeaves, stable, type DerivedClass } from "../derived/shared.ts";
import type { CrossFinding, CrossRule, Naming } from "./attribution.ts";

export type { CrossFinding, CrossRule };
import { jsonBody, type TrafficExchange } from "./exchange.ts";
import type { FamilyRoute } from "./routing.ts";
import { Memory } from "./memory.ts";
import { RateLimitWindows } from "./rate-limit-window.ts";

const RULE_CLASS: Record<CrossRule, DerivedClass> = {
  idempotency: "idempotency-key-space",
  "tenant-isolation": "tenant-isolation",
  "rate-limit-window": "rate-limits",
  "created-then-read": "consistency",
  authentication: "ignored-authentication",
};

interface RecordState {
  account?: string;
  /** The values a read must show: what the creation (then each update) sent, as JSON text (smaller than the parsed value). */
  expected: string | undefined;
  /** A change whose effect on a read the rule does not predict (delete, cancel). */
  changed: boolean;
}

/** Decision D08: an Idempotency-Key is kept 24 hours from its first use, then treated as never seen. */
const KEY_RETENTION_SECONDS = 24 * 60 * 60;
/**
 * The sandbox's clock control (`POST /_sandbox/clock/advance` with `{"seconds": N}`) moves the
 * clock of the calling API key's account: a replay after it may be past D08's retention, and then
 * a new record is the right answer. Seen through a proxy, in a HAR or in a bundle alike.
 */
const CLOCK_CONTROL = /\/_sandbox\/clock\/advance$/;

const lastLiteral = (path: string) => path.split("/").filter((s) => s && !s.startsWith("{")).pop() ?? "";
const parse = (text: string | undefined): unknown => {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Deep merge of an update into the values expected of a record. */
function merged(base: unknown, update: unknown): unknown {
  if (!isObject(base) || !isObject(update)) return update;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(update)) out[k] = merged(base[k], v);
  return out;
}

/** What the rules read of an operation: the same for every exchange of it, so read once. */
interface OperationFacts {
  /** Its path parameters, each with the resource it names and whether the path ends with it (a read of that record). */
  parameters: Array<{ name: string; resource: string | undefined; last: boolean }>;
  /** It makes a record and names none in its path (a creation). */
  creation: boolean;
  idempotencyHeaders: string[];
  secured: boolean;
}

/** One exchange as the rules read it: its operation, what they know of it, and the API key it carried. */
interface Seen {
  route: FamilyRoute;
  op: OperationMatch;
  exchange: TrafficExchange;
  family: FamilyId;
  facts: OperationFacts;
  key: string | undefined;
}

/** A record as a read shows it, for "unchanged" comparisons: its members without the volatile ones. */
const snapshot = (text: string | undefined) => JSON.stringify(stable(recordOf(parse(text))));

export class CrossExchangeRules {
  private readonly facts = new Map<string, OperationFacts>();

  private factsOf(family: FamilyId, contract: FamilyRoute["contract"], op: OperationMatch): OperationFacts {
    const key = `${family}/${op.operationId}`;
    let found = this.facts.get(key);
    if (!found) {
      const parameters = pathParameters(op);
      found = {
        parameters: parameters.map((name) => ({ name, resource: resourceOf(op, name), last: op.path.endsWith(`/{${name}}`) })),
        creation: createsRecord(contract, op) && parameters.length === 0,
        idempotencyHeaders: idempotencyHeaders(op),
        secured: op.security.length > 0 && !op.security.some((requirement) => Object.keys(requirement).length === 0),
      };
      this.facts.set(key, found);
    }
    return found;
  }

  /** The first use of each idempotency key: its payload, the record, when (on the account's clock, in seconds). */
  private readonly replays = new Memory<string, { payload: string; id?: string; exchangeId: number; at: number }>();
  /** How far each API key's account clock was moved by the sandbox's clock control, in seconds. */
  private readonly clockOffsets = new Memory<string, number>();
  /** The last read of each record (its body as it came), and a change whose effect the next read must show. */
  private readonly reads = new Memory<string, { last?: string; pending?: { refused: boolean; endedAt: number; exchangeId: number; operationId: string; status: number; naming: Naming } }>();
  /** Records created under an idempotency key: which API key and idempotency key made them. */
  private readonly createdUnder = new Memory<string, { apiKey: string; idempotencyKey: string; exchangeId: number }>();
  private readonly records = new Memory<string, RecordState>();
  private readonly windows = new RateLimitWindows();
  /** Rules that had something to judge, for coverage. */
  readonly exercised = new Set<CrossRule>();

  constructor(
    private readonly catalogue: Catalogue,
    private readonly profile: Profile,
    /** `accounts`: API key -> account name; undefined: accounts unknown (tenant isolation not judged). */
    private readonly source: { accounts?: Map<string, string> },
  ) {}

  private readonly namings = new Map<string, Naming>();

  /** The statement a rule names for a family (the first of its class's, or the preferred one); read once. */
  private naming(rule: CrossRule, family: FamilyId, prefer?: (id: string) => boolean): Naming {
    const key = `${rule}/${family}`;
    let found = this.namings.get(key);
    if (!found) this.namings.set(key, (found = this.readNaming(rule, family, prefer)));
    return found;
  }

  /**
   * A statement of the rule's area (the id prefix its class's statements share, `A-IDEM-`)
   * matching `pattern`, else the rule's own naming.
   */
  private areaNaming(rule: CrossRule, family: FamilyId, pattern: RegExp): Naming {
    const key = `${rule}/${family}/${pattern.source}`;
    let found = this.namings.get(key);
    if (!found) {
      const areas = new Set(classStatements(RULE_CLASS[rule], family, this.catalogue).map((id) => id.split("-").slice(0, 2).join("-")));
      const id = this.catalogue.statements.find((s) => areas.has(s.id.split("-").slice(0, 2).join("-")) && pattern.test(s.id))?.id;
      found = id ? { id, kind: "statement" } : this.naming(rule, family);
      this.namings.set(key, found);
    }
    return found;
  }

  private readNaming(rule: CrossRule, family: FamilyId, prefer?: (id: string) => boolean): Naming {
    const ids = classStatements(RULE_CLASS[rule], family, this.catalogue);
    const id = (prefer ? ids.find(prefer) : undefined) ?? ids[0];
    return id ? { id, kind: "statement" } : { id: "contract", kind: "contract" };
  }

  /** Statements the rules name for a family (for statement coverage). */
  statementsOf(rule: CrossRule, family: FamilyId): string[] {
    return classStatements(RULE_CLASS[rule], family, this.catalogue);
  }

  /** An exchange with no operation of the contract: the sandbox's clock control moves an account's clock. */
  observeUndocumented(route: FamilyRoute, exchange: TrafficExchange): void {
    if (exchange.method !== "POST" || !is2xx(exchange) || !CLOCK_CONTROL.test(new URL(exchange.url).pathname)) return;
    const key = exchange.requestHeaders[route.contract.apiKeyHeader.toLowerCase()];
    const seconds = (parse(exchange.requestBody) as { seconds?: unknown } | undefined)?.seconds;
    if (key === undefined || typeof seconds !== "number" || !(seconds > 0)) return;
    this.clockOffsets.remember(key, (this.clockOffsets.get(key) ?? 0) + seconds);
  }

  /** Now on the clock of the API key's account, in seconds. */
  private accountSeconds(key: string | undefined, exchange: TrafficExchange): number {
    return exchange.startedAt / 1000 + (key === undefined ? 0 : (this.clockOffsets.get(key) ?? 0));
  }

  observe(route: FamilyRoute, op: OperationMatch, exchange: TrafficExchange): CrossFinding[] {
    const seen: Seen = {
      route,
      op,
      exchange,
      family: route.family,
      facts: this.factsOf(route.family, route.contract, op),
      key: exchange.requestHeaders[route.contract.apiKeyHeader.toLowerCase()],
    };
    const findings = [...this.windowFindings(seen), ...this.authentication(seen), ...this.changesShown(route, op, seen.facts, exchange)];
    if (!is2xx(exchange) || exchange.responseBodyTooLarge || exchange.requestBodyTooLarge) return findings;
    const body = jsonBody(exchange, "response");
    for (const header of seen.facts.idempotencyHeaders) findings.push(...this.idempotency(seen, header, body));
    findings.push(...this.recordRules(seen, body));
    return findings;
  }

  /** Rate-limit headers within one window (rate-limit-window.ts). */
  private windowFindings({ route, op, exchange, key }: Seen): CrossFinding[] {
    const findings = this.windows.observe(route.family, op, exchange, key, this.profile, () => ({
      headers: this.naming("rate-limit-window", route.family, (s) => /HEADER/.test(s)),
      retryAfter: this.areaNaming("rate-limit-window", route.family, /retry-after/i),
    }));
    if (!findings) return [];
    this.exercised.add("rate-limit-window");
    return findings;
  }

  /** An operation behind the API key never answers a request without one with a success. */
  private authentication({ route, family, facts, exchange, key }: Seen): CrossFinding[] {
    if (!facts.secured || key !== undefined) return [];
    this.exercised.add("authentication");
    if (!is2xx(exchange)) return [];
    return [{
      rule: "authentication",
      naming: this.naming("authentication", family, (s) => /UNAUTHORIZED|unauthorized|AUTH-header/.test(s)),
      place: "status",
      expected: `a refusal: the request carries no ${route.contract.apiKeyHeader}`,
      seen: String(exchange.status),
    }];
  }

  /** Idempotency: same API key, same idempotency key, same payload -> the same record. */
  private idempotency(seen: Seen, header: string, body: unknown): CrossFinding[] {
    const { family, op, exchange, key } = seen;
    const idempotencyKey = exchange.requestHeaders[header.toLowerCase()];
    if (!idempotencyKey) return [];
    const scope = `${family}\u0000${op.operationId}\u0000${key ?? ""}\u0000${idempotencyKey}`;
    const payload = hash("sha256", JSON.stringify(stable(jsonBody(exchange, "request")) ?? exchange.requestBody ?? ""), "base64");
    const id = createdIdOf(body);
    const at = this.accountSeconds(key, exchange);
    const kept = this.replays.get(scope);
    const first = kept && at - kept.at < KEY_RETENTION_SECONDS ? kept : undefined;
    // A key never seen creates a record: it never returns one another key (or another API key's same key) made.
    const earlier = id === undefined || first ? undefined : this.createdUnder.get(`${family}/${op.operationId}/${id}`);
    const findings = earlier ? [this.recordOfAnotherKey(seen, header, idempotencyKey, id!, earlier)] : [];
    if (id !== undefined && !earlier && !first) this.createdUnder.remember(`${family}/${op.operationId}/${id}`, { apiKey: key ?? "", idempotencyKey, exchangeId: exchange.id });
    if (!first) this.replays.remember(scope, { payload, id, exchangeId: exchange.id, at });
    else if (first.payload === payload) {
      this.exercised.add("idempotency");
      if (first.id !== undefined && id !== undefined && first.id !== id) {
        findings.push({
          rule: "idempotency",
          naming: this.naming("idempotency", family, (s) => /replay|idempotency-key/.test(s)),
          place: "body",
          expected: `the record of the first request with ${header} ${JSON.stringify(idempotencyKey)} (exchange ${first.exchangeId}): ${first.id}`,
          seen: `a new record ${id}`,
        });
      }
    }
    return findings;
  }

  /** A key never seen answered with a record another key (or another API key's same key) made. */
  private recordOfAnotherKey({ family, key }: Seen, header: string, idempotencyKey: string, id: string, earlier: { apiKey: string; idempotencyKey: string; exchangeId: number }): CrossFinding {
    this.exercised.add("idempotency");
    const sameKeyOtherApiKey = earlier.apiKey !== (key ?? "") && earlier.idempotencyKey === idempotencyKey;
    return {
      rule: "idempotency",
      naming: sameKeyOtherApiKey ? this.naming("idempotency", family, (s) => /scoped/.test(s)) : this.areaNaming("idempotency", family, /new-key/),
      place: "body",
      expected: sameKeyOtherApiKey ? `a new record: ${header} ${JSON.stringify(idempotencyKey)} was used by another API key, and keys are scoped per API key` : `a new record for the ${header} never seen before`,
      seen: `the record ${id} of exchange ${earlier.exchangeId}`,
    };
  }

  /** Records: creation, updates, reads. A creation's or an update's answer shows the values sent. */
  private recordRules(seen: Seen, body: unknown): CrossFinding[] {
    const { family, op, facts, exchange, key } = seen;
    const account = key === undefined ? undefined : this.source.accounts?.get(key);
    const findings: CrossFinding[] = [];
    if (facts.creation || op.method === "PUT" || op.method === "PATCH") {
      findings.push(...this.differences(family, jsonBody(exchange, "request"), recordOf(body), `${op.operationId}'s answer`));
    }
    if (facts.creation) {
      const id = createdIdOf(body);
      if (id) this.records.remember(`${family}/${lastLiteral(op.path)}/${id}`, { account, expected: exchange.requestBody, changed: false });
      return findings;
    }
    for (const parameter of facts.parameters) findings.push(...this.recordNamed(seen, parameter, account, body));
    return findings;
  }

  /** A request naming a known record: whose it is, what an update sets, and what a read must show. */
  private recordNamed(seen: Seen, parameter: OperationFacts["parameters"][number], account: string | undefined, body: unknown): CrossFinding[] {
    const { family, op, exchange } = seen;
    const recordKey = `${family}/${parameter.resource}/${op.pathParams[parameter.name]}`;
    const record = this.records.get(recordKey);
    if (!record) return [];
    const findings = this.tenantIsolation(seen, parameter.name, record, account);
    if (op.method === "PUT" || op.method === "PATCH") {
      record.expected = JSON.stringify(merged(parse(record.expected), jsonBody(exchange, "request")));
      this.records.remember(recordKey, record);
    } else if (op.method !== "GET") record.changed = true;
    else if (!record.changed && parameter.last) {
      this.exercised.add("created-then-read");
      findings.push(...this.differences(family, parse(record.expected), recordOf(body), "as created or last updated"));
    }
    return findings;
  }

  /** A record created with one account's key is never returned to another account's key (when the accounts are known). */
  private tenantIsolation({ family, op, exchange, key }: Seen, parameter: string, record: RecordState, account: string | undefined): CrossFinding[] {
    if (!this.source.accounts || key === undefined) return [];
    this.exercised.add("tenant-isolation");
    if (record.account === undefined || account === record.account) return [];
    return [{
      rule: "tenant-isolation",
      naming: this.naming("tenant-isolation", family),
      place: "status",
      expected: `a refusal: the record ${op.pathParams[parameter]} belongs to another account`,
      seen: `${exchange.status}, the record returned to ${account === undefined ? "a key of no known account" : `account ${account}`}`,
    }];
  }

  /**
   * What a change leaves for the next read of the record (the reader: GET .../{id}): a refused
   * change leaves the record as the last read showed it; under full, a change that succeeded
   * (other than an update, which created-then-read judges) shows in the next read. Only reads
   * that started after the change ended are judged.
   */
  private changesShown(route: FamilyRoute, op: OperationMatch, facts: OperationFacts, exchange: TrafficExchange): CrossFinding[] {
    const findings: CrossFinding[] = [];
    for (const { name: parameter, resource, last } of facts.parameters) {
      const recordKey = `${route.family}/${resource}/${op.pathParams[parameter]}`;
      const state = this.reads.get(recordKey);
      if (op.method !== "GET") {
        if (!state) continue;
        const refused = exchange.status >= 400 && exchange.status < 500;
        const status = op.responses.find((r) => r.status === String(exchange.status))?.status;
        // The transition of the catalogue the answer shows (a cancel: REGISTERED -> CANCELED; refused: unchanged).
        const transition = status ? statementsFor(this.catalogue, route.contract, { family: route.family, operationId: op.operationId, status, errorCode: errorCodeOf(jsonBody(exchange, "response")) }).find((id) => this.catalogue.byId.get(id)?.kind === "transition") : undefined;
        // A change whose effect this rule does not predict: the next read is the new reference.
        // Under seed a success must show only where the document states the transition.
        if (!refused && (exchange.status >= 500 || op.method === "PUT" || op.method === "PATCH" || (this.profile !== "full" && !transition))) {
          state.last = undefined;
          state.pending = undefined;
          continue;
        }
        if (!state.last) continue;
        state.pending = { refused, endedAt: exchange.endedAt, exchangeId: exchange.id, operationId: op.operationId, status: exchange.status, naming: transition ? { id: transition, kind: "statement" } : this.naming("created-then-read", route.family) };
        continue;
      }
      if (!is2xx(exchange) || !last) continue;
      const pending = state?.pending;
      if (pending && exchange.startedAt < pending.endedAt) continue;
      if (pending) {
        this.exercised.add("created-then-read");
        // The reads are compared only now: most reads follow no change.
        const same = snapshot(exchange.responseBody) === snapshot(state!.last);
        if (pending.refused && !same) findings.push({ rule: "created-then-read", naming: pending.naming, place: "body", expected: `the record as before ${pending.operationId} was refused (${pending.status}, exchange ${pending.exchangeId}): a refused change changes nothing`, seen: "the record changed" });
        if (!pending.refused && same) findings.push({ rule: "created-then-read", naming: pending.naming, place: "body", expected: `the record changed by ${pending.operationId} (${pending.status}, exchange ${pending.exchangeId})`, seen: "the record as before" });
      }
      // A body that is not JSON shows no record: as before, nothing to compare with.
      this.reads.remember(recordKey, { last: jsonBody(exchange, "response") === undefined ? undefined : exchange.responseBody });
    }
    return findings;
  }

  /** Members both the values sent and a record carry, that differ (a status may move on its own). */
  private differences(family: FamilyId, sent: unknown, record: unknown, label: string): CrossFinding[] {
    this.exercised.add("created-then-read");
    return sharedLeaves(sent, record)
      .filter((leaf) => !/(^|\.)status$/.test(leaf.path) && !sameValue(leaf.sent, leaf.received))
      .map((leaf) => ({
        rule: "created-then-read" as const,
        naming: this.naming("created-then-read", family),
        place: "body" as const,
        path: leaf.path,
        expected: `${leaf.path} ${label}: ${JSON.stringify(leaf.sent)}`,
        seen: JSON.stringify(leaf.received),
      }));
  }
}
