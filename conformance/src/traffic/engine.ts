/**
 * The one validation engine of both front ends (the proxy, the HAR check): each exchange is
 * routed to its family and operation, checked on its own (exchange-checks.ts) and with the
 * exchanges before it (cross-exchange.ts); every violation is named by its statement (or, under
 * `full`, its decision), carries expected vs seen and a curl reproduction with the key redacted,
 * and is counted for the reports: per (operation, status) seen, coverage of the documented
 * responses and of the statements exercised.
 */
import { documentedPairs, type FamilyId } from "@payment-collection/contract/model/index.ts";
import { loadCatalogue, statementsFor, type Catalogue } from "../core/statement-map.ts";
import type { Profile } from "../core/profiles/index.ts";
import { asserted } from "../core/profiles/document-word.ts";
import { nameFinding, type Finding, type Naming } from "./attribution.ts";
import { checkRequest, checkResponse } from "./exchange-checks.ts";
import { CrossExchangeRules, type CrossRule } from "./cross-exchange.ts";
import { keyFingerprint, parsedBody, redactKeys, reproductionOf, secretsInUrl, type TrafficExchange } from "./exchange.ts";
import type { FamilyRoute, Routed } from "./routing.ts";
import { statedRefusals } from "./stated-rules.ts";
import { errorCodeOf } from "../core/validate.ts";
import type { OperationMatch } from "@payment-collection/contract/model/index.ts";

/** `server`: what the server answered; `consumer`: what the client sent; `upstream`: the server could not be reached. */
export type Side = "server" | "consumer" | "upstream";

/** The exchange being observed, and its violations so far. */
interface Observation {
  exchange: TrafficExchange;
  routed: Routed;
  /** The API key it carried. */
  key: string | undefined;
  /** The case its violations count under: none until the response's case is known. */
  caseId?: string;
  found: Violation[];
}
type ResponseVerdict = ReturnType<typeof checkResponse>;

/** What the request broke, and the refusals those findings call for from the server. */
interface RequestFindings {
  findings: Finding[];
  refusals: Array<{ naming: Naming; finding: Pick<Finding, "expected" | "seen"> }>;
}

/** The status a request's findings are named under: the operation's success. */
const successStatusOf = (op: OperationMatch | null | undefined) => op?.responses.find((r) => r.status.startsWith("2"))?.status ?? "200";

export interface Violation {
  side: Side;
  exchangeId: number;
  family: FamilyId;
  /** Undefined: the request matched no operation. */
  operationId?: string;
  method: string;
  path: string;
  status: number;
  naming: Naming;
  rule?: CrossRule;
  expected: string;
  seen: string;
  /** `family/operationId/status` of the JUnit case the exchange counts for (status: the documented key). */
  caseId?: string;
  /** The API key's fingerprint (`key#...`), never the key. */
  key?: string;
  reproduction: string;
}

export interface EngineOptions {
  profile: Profile;
  routes: FamilyRoute[];
  catalogue?: Catalogue;
  /** API key -> account, for tenant isolation. */
  accounts?: Map<string, string>;
  /** Called for each violation as it is found (the proxy prints it at once). */
  onViolation?: (violation: Violation) => void;
}

export interface CaseTally {
  family: FamilyId;
  operationId: string;
  /** The documented status key, or the status seen when undocumented. */
  status: string;
  exchanges: number;
  violations: number;
}

export interface TrafficSummary {
  profile: Profile;
  exchanges: number;
  /** Exchanges with hosts of neither family (HAR), counted and skipped. */
  skippedOtherHosts: number;
  notValidated: { tooLarge: number; notRecorded: number; noResponse: number };
  upstreamFaults: number;
  violations: Violation[];
  consumerFindings: Violation[];
  /** Violations and findings found past the first KEPT of their kind: counted, not kept. */
  notKept: number;
  cases: CaseTally[];
  coverage: {
    responses: { seen: number; documented: number; percent: number; missing: string[] };
    statements: { exercised: string[]; wire: number; percent: number };
    rules: CrossRule[];
  };
}

export class TrafficEngine {
  readonly catalogue: Catalogue;
  private readonly rules: CrossExchangeRules;
  private readonly keys = new Set<string>();
  private readonly cases = new Map<string, CaseTally>();
  private readonly statementsExercised = new Set<string>();
  private readonly exercisedResponses = new Set<string>();
  private readonly violations: Violation[] = [];
  private readonly consumerFindings: Violation[] = [];
  private exchanges = 0;
  private skipped = 0;
  private tooLarge = 0;
  private notRecorded = 0;
  private noResponse = 0;
  private upstreamFaults = 0;
  /** Violations kept for the reports: a long run keeps counting but stops storing. */
  static readonly KEPT = 10_000;
  private dropped = 0;

  constructor(readonly options: EngineOptions) {
    this.catalogue = options.catalogue ?? loadCatalogue();
    this.rules = new CrossExchangeRules(this.catalogue, options.profile, options);
  }

  /** An exchange with a host of neither family: counted, not checked. */
  skip(): void {
    this.exchanges += 1;
    this.skipped += 1;
  }

  /** A recorded request that got no answer (HAR status 0): counted, not checked. */
  unanswered(): void {
    this.exchanges += 1;
    this.noResponse += 1;
  }

  /** A key or secret to redact from what the reports show. */
  private rememberSecret(secret: string): void {
    if (this.keys.has(secret)) return;
    // Bounded: a client sending ever new keys must not grow the proxy (a key seen again is added again).
    if (this.keys.size >= 1000) this.keys.delete(this.keys.values().next().value as string);
    this.keys.add(secret);
  }

  /** Checks one exchange; returns the violations and consumer findings it showed. */
  observe(exchange: TrafficExchange, requested: Routed): Violation[] {
    this.exchanges += 1;
    // A 431 refuses the request before any operation is found (D39: its headers were not read),
    // so it is judged as no operation's answer, in the family's error body.
    const routed = exchange.status === 431 ? { ...requested, op: null } : requested;
    const observation: Observation = { exchange, routed, key: this.rememberSecretsOf(exchange, routed.route), found: [] };
    if (exchange.upstreamFault) {
      this.upstreamFaults += 1;
      this.add(observation, "upstream", { id: "upstream", kind: "contract" }, { expected: "an answer from the upstream server", seen: exchange.upstreamFault });
      return this.record(observation.found);
    }
    if (exchange.responseBodyTooLarge || exchange.requestBodyTooLarge) this.tooLarge += 1;
    else if (exchange.responseBodyNotRecorded) this.notRecorded += 1;
    const request = this.requestFindings(observation);
    if (routed.op) this.responseFindings(observation, routed.op, request);
    else this.rules.observeUndocumented(routed.route, exchange);
    return this.record(observation.found);
  }

  /** Records one violation of the exchange being observed, under its case. */
  private add(o: Observation, side: Side, naming: Naming, finding: Pick<Finding, "expected" | "seen">, rule?: CrossRule): void {
    o.found.push(this.violation(o.exchange, o.routed, o.key, o.caseId, side, naming, finding, rule));
  }

  /** The API key and the secrets of the URL, remembered so that no report shows them; returns the key. */
  private rememberSecretsOf(exchange: TrafficExchange, route: FamilyRoute): string | undefined {
    const key = exchange.requestHeaders[route.contract.apiKeyHeader.toLowerCase()];
    if (key !== undefined) this.rememberSecret(key);
    if (exchange.url.includes("?")) for (const secret of secretsInUrl(exchange.url)) this.rememberSecret(secret);
    return key;
  }

  /** The consumer's side: what the request breaks, and the refusals those findings call for from the server. */
  private requestFindings(o: Observation): RequestFindings {
    const { exchange, routed } = o;
    const { route, op, path } = routed;
    const refusals: RequestFindings["refusals"] = [];
    const successStatus = successStatusOf(op);
    const findings = checkRequest(op, exchange, this.options.profile, route, path);
    for (const finding of findings) {
      const naming = op
        ? nameFinding(this.catalogue, { family: route.family, contract: route.contract, op, status: successStatus, profile: this.options.profile, schema: op.requestBody?.schema, decision: op.parameters.find((p) => p.name === finding.path)?.decision }, finding)
        : { id: "contract", kind: "contract" as const };
      this.add(o, "consumer", naming, finding);
      if (op && naming.kind === "statement") refusals.push(...this.refusalFindings(route, op, exchange, finding, naming));
    }
    return { findings, refusals };
  }

  /** The server's side: the response against the contract, the refusals the request called for, and the rules across exchanges. */
  private responseFindings(o: Observation, op: OperationMatch, request: RequestFindings): void {
    const { exchange, routed } = o;
    const { route } = routed;
    const verdict = checkResponse(op, exchange, this.options.profile, this.catalogue, route);
    const status = verdict.documented ?? String(exchange.status);
    const caseKey = `${route.family}/${op.operationId}/${status}`;
    const tally = this.tally(route.family, op.operationId, status, caseKey);
    this.noteExercised(route, op, verdict, caseKey);
    o.caseId = caseKey;
    const before = o.found.length;
    this.contractFindings(o, op, verdict);
    for (const { naming, finding } of request.refusals) this.add(o, "server", naming, finding);
    for (const finding of this.unfoundedRefusals(route, op, exchange, verdict.errorCode, request.findings)) this.add(o, "server", finding.naming, finding);
    for (const finding of this.rules.observe(route, op, exchange)) this.add(o, "server", finding.naming, finding, finding.rule);
    tally.violations += o.found.length - before;
  }

  /** The exchanges and violations of one documented case (operation, status). */
  private tally(family: FamilyId, operationId: string, status: string, caseKey: string): CaseTally {
    const tally = this.cases.get(caseKey) ?? { family, operationId, status, exchanges: 0, violations: 0 };
    tally.exchanges += 1;
    this.cases.set(caseKey, tally);
    return tally;
  }

  /** The statements a response exercises depend on its operation, status and error code only: noted once each. */
  private noteExercised(route: FamilyRoute, op: OperationMatch, verdict: ResponseVerdict, caseKey: string): void {
    const exercisedKey = `${caseKey}/${verdict.errorCode ?? ""}`;
    if (!verdict.documented || this.exercisedResponses.has(exercisedKey)) return;
    this.exercisedResponses.add(exercisedKey);
    for (const id of statementsFor(this.catalogue, route.contract, { family: route.family, operationId: op.operationId, status: verdict.documented, errorCode: verdict.errorCode })) this.statementsExercised.add(id);
  }

  /** What the response breaks of the contract, each named by the statement or decision of its place. */
  private contractFindings(o: Observation, op: OperationMatch, verdict: ResponseVerdict): void {
    if (verdict.findings.length === 0) return;
    const { route } = o.routed;
    const target = {
      family: route.family,
      contract: route.contract,
      op,
      status: verdict.documented ?? successStatusOf(op),
      errorCode: verdict.errorCode,
      schema: verdict.response?.schema,
      profile: this.options.profile,
      decision: verdict.response?.decided?.decision ?? op.markings.decision,
      decidedAspects: verdict.response?.decided?.aspects,
    };
    for (const finding of verdict.findings) {
      const headerDecision = finding.place === "header" ? verdict.response?.headers.find((h) => h.name.toLowerCase() === finding.path?.toLowerCase())?.decision : undefined;
      this.add(o, "server", nameFinding(this.catalogue, { ...target, decision: headerDecision ?? target.decision }, finding), finding);
    }
  }
  private violation(exchange: TrafficExchange, { route, op }: Routed, key: string | undefined, caseId: string | undefined, side: Side, naming: Naming, finding: Pick<Finding, "expected" | "seen">, rule?: CrossRule): Violation {
    return {
      exchangeId: exchange.id,
      family: route.family,
      operationId: op?.operationId,
      method: exchange.method,
      path: new URL(exchange.url).pathname,
      status: exchange.status,
      caseId,
      key: key === undefined ? undefined : keyFingerprint(key),
      side,
      naming,
      rule,
      expected: redactKeys(finding.expected, this.keys),
      seen: redactKeys(finding.seen, this.keys),
      reproduction: redactKeys(reproductionOf(exchange, route.contract.apiKeyHeader), this.keys),
    };
  }

  /**
   * What the server owed a request that broke a statement of the document: a refusal (a
   * success is a violation), and, where the catalogue states the refusal's error code for the
   * parameter broken, that code. Unknown members are not held against a server that ignores them.
   */
  private refusalFindings(route: FamilyRoute, op: OperationMatch, exchange: TrafficExchange, finding: Finding, naming: Naming): Array<{ naming: Naming; finding: Pick<Finding, "expected" | "seen"> }> {
    const header = finding.place === "parameter" ? op.parameters.find((p) => p.in === "header" && p.name === finding.path) : undefined;
    const judged = (header && header.required && !header.decision) || (finding.place === "request-body" && finding.keyword !== "additionalProperties");
    if (!judged) return [];
    if (exchange.status >= 200 && exchange.status < 300) {
      return [{ naming, finding: { expected: `a refusal: the request breaks the contract (${finding.expected})`, seen: `${exchange.status}, accepted` } }];
    }
    if (!header) return [];
    // The code a statement gives is for what the document says of the parameter (missing, under
    // 8 characters): a value that breaks only a decided keyword (D08's 255 characters) gets the
    // decision's answer (VALIDATION_ERROR), which the response's schema judges.
    if (finding.keyword !== undefined && !asserted("seed", { kind: "keyword", schema: header.schema, keyword: finding.keyword })) return [];
    const status = String(exchange.status);
    const body = parsedBody(exchange, "response");
    const code = body?.ok ? errorCodeOf(body.value) : undefined;
    return statedRefusals(this.catalogue, { family: route.family, contract: route.contract, operationId: op.operationId, status }, header.name)
      .filter((stated) => stated.errorCode !== code)
      .map((stated) => ({ naming: { id: stated.statement, kind: "statement" as const }, finding: { expected: `error code ${stated.errorCode} (the request breaks ${header.name}: ${finding.expected})`, seen: code ?? "(no code)" } }));
  }

  /**
   * A refusal with the error code a statement gives for a broken parameter, although the request
   * carried that parameter well formed (an 8-character Idempotency-Key refused as too short).
   */
  private unfoundedRefusals(route: FamilyRoute, op: OperationMatch, exchange: TrafficExchange, errorCode: string | undefined, requestFindings: Finding[]): Array<Pick<Finding, "expected" | "seen"> & { naming: Naming }> {
    if (errorCode === undefined || exchange.status < 400 || exchange.status >= 500) return [];
    const out: Array<Pick<Finding, "expected" | "seen"> & { naming: Naming }> = [];
    for (const parameter of op.parameters.filter((p) => p.in === "header" && !p.decision)) {
      const value = exchange.requestHeaders[parameter.name.toLowerCase()];
      if (value === undefined || requestFindings.some((f) => f.place === "parameter" && f.path === parameter.name)) continue;
      for (const stated of statedRefusals(this.catalogue, { family: route.family, contract: route.contract, operationId: op.operationId, status: String(exchange.status) }, parameter.name)) {
        if (stated.errorCode !== errorCode) continue;
        out.push({ naming: { id: stated.statement, kind: "statement" }, expected: `no ${errorCode}: the request carries ${parameter.name} as the contract defines it`, seen: `${exchange.status} ${errorCode}` });
      }
    }
    return out;
  }

  private record(found: Violation[]): Violation[] {
    for (const violation of found) {
      const list = violation.side === "consumer" ? this.consumerFindings : this.violations;
      if (list.length < TrafficEngine.KEPT) list.push(violation);
      else this.dropped += 1;
      this.options.onViolation?.(violation);
    }
    return found;
  }

  summary(): TrafficSummary {
    const documented = this.options.routes.flatMap((route) => documentedPairs(route.contract).map((p) => `${route.family}/${p.operationId}/${p.status}`));
    const seen = new Set([...this.cases.keys()]);
    const missing = documented.filter((pair) => !seen.has(pair));
    const families = new Set(this.options.routes.map((r) => r.family));
    const wire = this.catalogue.statements.filter((s) => s.wire && (s.family === "both" || families.has(s.family === "A" ? "family-a" : "family-b")));
    for (const rule of this.rules.exercised) for (const family of families) for (const id of this.rules.statementsOf(rule, family)) this.statementsExercised.add(id);
    const exercised = wire.map((s) => s.id).filter((id) => this.statementsExercised.has(id));
    const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);
    return {
      profile: this.options.profile,
      exchanges: this.exchanges,
      skippedOtherHosts: this.skipped,
      notValidated: { tooLarge: this.tooLarge, notRecorded: this.notRecorded, noResponse: this.noResponse },
      upstreamFaults: this.upstreamFaults,
      violations: this.violations.filter((v) => v.side !== "consumer"),
      consumerFindings: this.consumerFindings,
      notKept: this.dropped,
      cases: [...this.cases.values()],
      coverage: {
        responses: { seen: documented.length - missing.length, documented: documented.length, percent: percent(documented.length - missing.length, documented.length), missing },
        statements: { exercised, wire: wire.length, percent: percent(exercised.length, wire.length) },
        rules: [...this.rules.exercised],
      },
    };
  }
}

/** One line for a violation, as the proxy prints it on stderr. */
export function violationLine(v: Violation): string {
  const what = v.operationId ? `${v.operationId} ${v.status}` : `${v.method} ${v.path} ${v.status}`;
  const name = v.naming.kind === "contract" ? v.naming.id : `${v.naming.kind} ${v.naming.id}`;
  const side = v.side === "server" ? "violation" : v.side === "consumer" ? "consumer" : "upstream fault";
  return `${side} #${v.exchangeId} ${v.family} ${what} [${name}]${v.rule ? ` (${v.rule})` : ""}: expected ${v.expected}; seen ${v.seen} | ${v.reproduction}`;
}
