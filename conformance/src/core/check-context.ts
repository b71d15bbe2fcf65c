/**
 * What a check sees of the family it runs against: the contract, the profile, the target's
 * keys and fixtures, and a paced HTTP client that speaks the contract's paths. Dredd hooks,
 * probes and behaviour scenarios all work through one FamilyContext per family and run.
 */
import { randomUUID } from "node:crypto";
import { asserted, type ContractElement, type Profile } from "./profiles/document-word.ts";
import type { DecidedAspect } from "@payment-collection/contract/model/markings.ts";
import { responseExpectation, type ResponseExpectation } from "./profiles/response-expectation.ts";
import { familyName, findOperation, type ContractOperation, type FamilyContract, type FamilyId } from "@payment-collection/contract/model/index.ts";
import type { Exchange, Pacer } from "./pacing.ts";
import { absentMembers, memberNames, namingRules, valuesAt, type Catalogue } from "./statement-map.ts";
import type { FamilyATarget, FamilyBTarget } from "./target.ts";
import { parseJsonBody, responseProblems, type ObservedResponse } from "./validate.ts";
import { drawSeed, RunRandom } from "./run-random.ts";

export type KeyName = "primary" | "secondAccount" | "noMerchantRead" | "testKey" | "rateLimits" | "primarySecondKey";
/** Which credentials a request carries: a named key of the target, a made-up key, or none. */
export type KeyChoice = KeyName | "invalid" | "none";

/** Another account of the target a check may run on (see `FamilyContext.onAccount`). */
export type AccountView = "secondAccount";

export type FixtureName = keyof FamilyBTarget["fixtures"];

/** Thrown by a check (or by provisioning) when it cannot be run here; the reason is reported. */
export class NotApplicable extends Error {}

export interface RequestOptions {
  /** Fills the path template, e.g. `{ id: "42" }`. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  key?: KeyChoice;
  headers?: Record<string, string>;
  /** JSON body (serialised) or a raw string. */
  body?: unknown;
  /** The check wants a 429: do not wait and retry. */
  expect429?: boolean;
  checkId?: string;
}

export interface SentRequest {
  method: string;
  path: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** A key that no server issued, in the family's format, so that only its validity differs. */
function madeUpKey(family: FamilyId, runId: string): string {
  return family === "family-a" ? `sk_live_conformance0invalid0${runId}` : `pk_live_conformance0invalid0${runId}`;
}

export class FamilyContext {
  readonly runId: string;
  /** Idempotency keys made so far: one count per run, shared with the account views. */
  private readonly keyCounter: { value: number };
  /** The target's own keys, whatever account this context speaks as: rate-limit buckets are accounts. */
  private readonly accountKeys: Partial<Record<KeyName, string>>;
  /** The account a view speaks as (`onAccount`), else undefined: the target's primary account. */
  readonly account?: AccountView;
  private readonly expectations = new Map<string, ResponseExpectation>();
  /** Data provisioned once per run and shared by the checks (a charge to read, a customer...). */
  private readonly memo = new Map<string, Promise<unknown>>();
  /** The statement catalogue, when loaded: it adds what the schemas cannot say. */
  catalogue?: Catalogue;
  /** Where the values the run makes up come from (the run's seed); shared with the account views. */
  random: RunRandom;
  /** Values one check leaves for a later one (the boleto a cancel consumed...). */
  readonly notes = new Map<string, string>();
  /** REGISTERED boletos of the target not used yet: each successful cancel consumes one. */
  private readonly unusedBoletos: string[];

  constructor(
    readonly family: FamilyId,
    readonly contract: FamilyContract,
    readonly profile: Profile,
    readonly target: FamilyATarget | FamilyBTarget,
    readonly pacer: Pacer,
    readonly mock: boolean,
    runId?: string,
    view?: { of: FamilyContext; account: AccountView },
  ) {
    this.runId = runId ?? view?.of.runId ?? randomUUID().replace(/-/g, "").slice(0, 12);
    this.keyCounter = view?.of.keyCounter ?? { value: 0 };
    this.accountKeys = view?.of.accountKeys ?? { ...(target.keys as Partial<Record<KeyName, string>>) };
    this.account = view?.account;
    this.catalogue = view?.of.catalogue;
    this.random = view?.of.random ?? new RunRandom(drawSeed());
    this.unusedBoletos = view ? [] : [...((target as FamilyBTarget).fixtures?.registeredBoletoIds ?? [])];
  }

  /**
   * The run as another account of the target sees it, for checks that make and read only their
   * own records (`Scenario.account`): that account's key is its "primary" and the primary's key
   * its "secondAccount", so that a check across accounts still crosses them. It shares the
   * pacer, the run id and the idempotency keys; it has none of the primary account's fixtures,
   * other keys or webhook secret, and asking for one is a mistake in the check, not a verdict.
   */
  onAccount(account: AccountView): FamilyContext {
    const keys = this.target.keys as Partial<Record<KeyName, string>>;
    const own = keys[account];
    if (!own) throw new NotApplicable(`the target names no ${familyName(this.family)} key "${account}"`);
    // Any read of a fixture is the check's mistake (it must run on the primary account).
    const fixtures = new Proxy({}, { get: (_, name) => this.onAccountMistake(account, `fixture ${String(name)}`) });
    const target = { ...this.target, keys: { primary: own, secondAccount: keys.primary }, webhookSecret: undefined, fixtures };
    return new FamilyContext(this.family, this.contract, this.profile, target as FamilyATarget | FamilyBTarget, this.pacer, this.mock, undefined, { of: this, account });
  }

  /** Asking a view for what only the primary account has is a mistake in the check, not a verdict. */
  private primaryAccountOnly(what: string): void {
    if (this.account) this.onAccountMistake(this.account, what);
  }

  private onAccountMistake(account: AccountView, what: string): never {
    throw new Error(`a check run on the target's ${account} asked for the primary account's ${what}: it must run on the primary account`);
  }

  /** Runs `make` once per run under `name`; later calls share its result (or its failure). */
  once<T>(name: string, make: () => Promise<T>): Promise<T> {
    let found = this.memo.get(name) as Promise<T> | undefined;
    if (!found) {
      found = make();
      this.memo.set(name, found);
    }
    return found;
  }

  /** The REGISTERED boleto the next cancel will take, for checks that must leave it unchanged. */
  peekRegisteredBoleto(): string {
    const id = this.takeRegisteredBoleto();
    this.unusedBoletos.unshift(id);
    return id;
  }

  /** Takes one REGISTERED boleto of the target for a check that will change its state. */
  takeRegisteredBoleto(): string {
    this.primaryAccountOnly("REGISTERED boletos");
    if (!this.familyB || this.familyB.fixtures.registeredBoletoIds.length === 0) {
      throw new NotApplicable("the target names no familyB.fixtures.registeredBoletoIds");
    }
    const id = this.unusedBoletos.shift();
    if (!id) throw new NotApplicable(`the ${this.familyB.fixtures.registeredBoletoIds.length} REGISTERED boleto(s) of the target are used up`);
    return id;
  }

  get familyA(): FamilyATarget | undefined {
    return this.family === "family-a" ? (this.target as FamilyATarget) : undefined;
  }

  get familyB(): FamilyBTarget | undefined {
    return this.family === "family-b" ? (this.target as FamilyBTarget) : undefined;
  }

  operation(operationId: string): ContractOperation {
    return findOperation(this.contract, operationId);
  }

  /** Whether this run's profile holds the server to an element of the contract (profiles/document-word.ts). */
  asserts(element: ContractElement): boolean {
    return asserted(this.profile, element);
  }

  /** One aspect of a documented response of an operation, as an element to ask about (`code`: the error code provoked). */
  responseAspect(operationId: string, status: string, aspect: DecidedAspect, code?: string): ContractElement {
    const response = this.operation(operationId).responses.find((r) => r.status === status);
    if (!response) throw new Error(`${operationId}: no documented ${status} response`);
    return { kind: "response", response, aspect, code };
  }

  key(name: KeyName): string | undefined {
    const value = (this.target.keys as Partial<Record<KeyName, string>>)[name];
    if (value === undefined && this.accountKeys[name] !== undefined) this.primaryAccountOnly(`key "${name}"`);
    return value;
  }

  /** The key value for a choice; throws NotApplicable when the target lacks that key. */
  keyValue(choice: KeyChoice): string | undefined {
    if (choice === "none") return undefined;
    if (choice === "invalid") return madeUpKey(this.family, this.runId);
    const value = this.key(choice);
    if (!value) throw new NotApplicable(`the target names no ${familyName(this.family)} key "${choice}"`);
    return value;
  }

  fixture<K extends FixtureName>(name: K): NonNullable<FamilyBTarget["fixtures"][K]> {
    this.primaryAccountOnly(`fixture ${name}`);
    const value = this.familyB?.fixtures[name];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) {
      throw new NotApplicable(`the target names no fixture familyB.fixtures.${name}`);
    }
    return value as NonNullable<FamilyBTarget["fixtures"][K]>;
  }

  /**
   * Which key of the target a request carried, by its name in the target file (`primary`,
   * `secondAccount`...), `invalid` for the run's made-up key, else undefined: the name a
   * reproduction gives the `$API_KEY` it shows.
   */
  keyChoiceOf(value: string): KeyChoice | undefined {
    if (value === madeUpKey(this.family, this.runId)) return "invalid";
    return (Object.entries(this.accountKeys) as Array<[KeyName, string | undefined]>).find(([, key]) => key === value)?.[0];
  }

  /** The key the checks that use up a rate limit send: the dedicated one, else the primary. */
  rateLimitKey(): KeyName {
    return this.key("rateLimits") ? "rateLimits" : "primary";
  }

  /** An id no record has, in the UUID form, drawn from the run's seed. */
  uuid(): string {
    return this.random.uuid();
  }

  /** A fresh idempotency key, unique per run (at least 8 characters). */
  idempotencyKey(): string {
    this.keyCounter.value += 1;
    return `conformance-${this.runId}-${this.keyCounter.value}`;
  }

  /**
   * Rate-limit bucket of a key: keys of one account share the account's limits; requests
   * without a valid key are usually limited per client address, so they share one bucket per
   * server, whichever family they are for.
   */
  bucketOfKey(value: string | undefined): string | undefined {
    if (this.mock) return undefined;
    const keys = this.accountKeys;
    const server = new URL(this.target.baseUrl).origin;
    if (value === keys.secondAccount) return `${this.family}:second-account`;
    if (value === keys.rateLimits) return `${this.family}:rate-limit-account`;
    if (value === keys.primary || value === keys.noMerchantRead || value === keys.primarySecondKey) return `${this.family}:first-account`;
    if (value === keys.testKey) return `${this.family}:test-key`;
    return `${server}:unauthenticated`;
  }

  /** Path prefix a server may put before the PIX and transaction paths (family B only). */
  prefixFor(path: string): string {
    const prefixes = this.familyB?.pathPrefix;
    if (!prefixes) return "";
    if (path.startsWith("/pix")) return prefixes.pix;
    if (path.startsWith("/transactions")) return prefixes.transactions;
    return "";
  }

  /** The concrete path of an operation: template filled, prefix applied, query appended. */
  pathOf(operationId: string, params: Record<string, string> = {}, query?: Record<string, string>): string {
    const op = this.operation(operationId);
    const filled = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = params[name] ?? op.parameters.find((p) => p.name === name && p.in === "path")?.example;
      if (value === undefined) throw new Error(`${operationId}: no value for path parameter ${name}`);
      return encodeURIComponent(String(value));
    });
    const search = query && Object.keys(query).length > 0 ? `?${new URLSearchParams(query).toString()}` : "";
    return `${this.prefixFor(op.path)}${filled}${search}`;
  }

  /** Builds the request of an operation without sending it. */
  buildRequest(operationId: string, options: RequestOptions = {}): SentRequest {
    const op = this.operation(operationId);
    const path = this.pathOf(operationId, options.params, options.query);
    // Accept every media type the operation documents (family A errors are problem+json).
    const accept = [...new Set(op.responses.map((r) => r.mediaType).filter((m): m is string => !!m))].join(", ");
    const headers: Record<string, string> = { accept: accept || "application/json", "user-agent": "payment-collection-conformance" };
    const key = this.keyValue(options.key ?? "primary");
    if (key !== undefined) headers[this.contract.apiKeyHeader] = key;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
      headers["content-type"] = "application/json";
    }
    Object.assign(headers, options.headers ?? {});
    return { method: op.method, path, url: `${this.target.baseUrl}${path}`, headers, body };
  }

  /** Sends an operation's request through the pacer. */
  async send(operationId: string, options: RequestOptions = {}): Promise<ObservedResponse> {
    const request = this.buildRequest(operationId, options);
    return this.sendBuilt(request, options);
  }

  async sendBuilt(request: SentRequest, options: Pick<RequestOptions, "expect429" | "checkId"> = {}): Promise<ObservedResponse> {
    return this.pacer.send({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: request.body,
      bucket: this.bucketOfKey(request.headers[this.contract.apiKeyHeader]),
      expectRateLimited: options.expect429,
      checkId: options.checkId,
    });
  }

  /**
   * The response expectation of a documented response under this run's profile (cached). With
   * `code`, the error code the check provokes: a status decided for some codes only (D18, D45)
   * stays the document's for the others.
   */
  expectation(operationId: string, status: string, code?: string): ResponseExpectation {
    const key = `${operationId} ${status} ${code ?? ""}`;
    let found = this.expectations.get(key);
    if (!found) {
      found = responseExpectation(this.operation(operationId), status, this.profile, { code });
      this.expectations.set(key, found);
    }
    return found;
  }

  /**
   * Problems of a response against a documented response under this run's profile: the
   * expectation, and the members the document says the response does not carry.
   */
  problems(operationId: string, status: string, response: ObservedResponse, code?: string): string[] {
    return [...responseProblems(this.expectation(operationId, status, code), response), ...this.absentProblems(operationId, status, response), ...this.namingProblems(response)];
  }

  /**
   * Member names against the family's naming rule ("all request and response fields are
   * snake_case"): open schemas let an unknown member pass, the rule does not.
   */
  namingProblems(response: ObservedResponse): string[] {
    const rules = this.catalogue ? namingRules(this.catalogue, this.family) : [];
    if (rules.length === 0) return [];
    const parsed = parseJsonBody(response.body);
    if (!parsed.ok) return [];
    const names = memberNames(parsed.value);
    return rules.flatMap((rule) =>
      names.filter((member) => !rule.pattern.test(member.name)).map((member) => `body: member ${member.path} is not named as the document says (${rule.statement}: ${rule.pattern.source})`),
    );
  }

  /** Members present although a statement of the catalogue says the response carries none. */
  absentProblems(operationId: string, status: string, response: ObservedResponse): string[] {
    if (!this.catalogue || response.status < 200 || response.status >= 300) return [];
    const absent = absentMembers(this.catalogue, this.contract, { family: this.family, operationId, status });
    if (absent.length === 0) return [];
    const parsed = parseJsonBody(response.body);
    if (!parsed.ok) return [];
    return absent
      .filter((member) => valuesAt(parsed.value, member.path).length > 0)
      .map((member) => `body: ${member.path} is present; the document says this response does not carry it (${member.statement})`);
  }

  /** The exchanges a check made, from the pacer's log. */
  exchangesOf(checkId: string): Exchange[] {
    return this.pacer.exchanges.filter((e) => e.checkId === checkId);
  }
}
