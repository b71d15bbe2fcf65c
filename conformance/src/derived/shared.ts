/**
 * What every generic check class (src/derived/) shares: the classes, the environment a class
 * runs in (the family's context, the other family's key, the settings, the result sink) and the
 * one way a class sends a request, so that each request is counted for its class and can be
 * shown as a reproduction.
 */
import { contextFor } from "../core/account-plan.ts";
import { inCheck } from "../core/check-scope.ts";
import { NotApplicable, type FamilyContext, type KeyChoice } from "../core/check-context.ts";
import type { Catalogue } from "../core/statement-map.ts";
import { memberStatements, statementsFor } from "../core/statement-map.ts";
import type { ResponsePair, Verdict } from "../core/results.ts";
import { parseJsonBody, type ObservedResponse } from "../core/validate.ts";
import type { OutgoingRequest } from "../core/pacing.ts";
import { responseFor, type FamilyId } from "@payment-collection/contract/model/index.ts";
import { curlOf, type PlannedRequest } from "./reproduction.ts";
import { describeResponse } from "../core/describe-response.ts";

export type { PlannedRequest };

/**
 * The classes, in the order the issue ranks them (and the runner runs them, positive data first
 * for traffic); then `cors`, a decision the contract does not model (D44), last: it sends again
 * the run's requests of every operation.
 */
export const DERIVED_CLASSES = [
  "ignored-authentication",
  "tenant-isolation",
  "negative-data",
  "consistency",
  "idempotency-key-space",
  "rate-limits",
  "positive-data",
  "cors",
] as const;
export type DerivedClass = (typeof DERIVED_CLASSES)[number];

export interface DerivedSettings {
  /** Generated bodies per operation (positive data). */
  positiveSamples: number;
  /** Seed of the generators: a run passes its own (`--seed`), so that the same seed sends the same bodies; fixed here for other callers. */
  seed?: number;
  /** Highest rate limit the rate-limit class may use up. */
  exhaustCap: number;
}

export const DEFAULT_DERIVED_SETTINGS: DerivedSettings = { positiveSamples: 5, seed: 20_261_125, exhaustCap: 1000 };

/** Credentials: a key the target names, none, a made-up one, or a raw value (the other family's key). */
export type Credentials = KeyChoice | { raw: string; label: string };

export interface DerivedOutcome {
  operationId: string;
  /** Short, stable name of the variant, part of the result id. */
  variant: string;
  title: string;
  verdict: Verdict;
  reasons: string[];
  /** Documented responses exercised. */
  covers: ResponsePair[];
  /** Statement ids beyond the class's own. */
  statements?: string[];
  reproduction?: string;
  example?: unknown;
}

/** How the runner follows a class as it runs: each outcome as it is recorded, and whether to stop. */
export interface DerivedFollow {
  /** The operations whose units run (default: all): `attempt` begins nothing on another. */
  operations?: readonly string[];
  recorded?: (outcome: DerivedOutcome) => void;
  /** True once the run is to stop: the class begins nothing more. */
  stopped?: () => boolean;
}

export class DerivedEnv {
  requests = 0;
  readonly outcomes: DerivedOutcome[] = [];

  constructor(
    readonly ctx: FamilyContext,
    readonly derivedClass: DerivedClass,
    readonly settings: DerivedSettings,
    readonly catalogue: Catalogue | undefined,
    /** The other family's primary key, for "a key of the other family is no key here". */
    readonly otherFamilyKey: string | undefined,
    private readonly follow: DerivedFollow = {},
    /** The class's env on the primary account, when this one is its view of another account (`spread`). */
    private readonly owner?: DerivedEnv,
  ) {}

  private spreadEnv?: DerivedEnv;

  /**
   * The class on the account the run spreads work to (core/account-plan.ts), for an operation
   * whose records the check makes itself: its results and requests count as this class's, and
   * the primary account's rate-limit window is spared. This env itself where the target names
   * no such account (or on a mock).
   */
  spread(): DerivedEnv {
    if (this.owner) return this;
    const view = contextFor({ account: "any" }, this.ctx);
    if (view === this.ctx) return this;
    this.spreadEnv ??= new DerivedEnv(view, this.derivedClass, this.settings, this.catalogue, this.otherFamilyKey, this.follow, this);
    return this.spreadEnv;
  }

  /** The run is stopping: the class's loops end, and `attempt` begins nothing. */
  get stopped(): boolean {
    return this.follow.stopped?.() ?? false;
  }

  get family(): FamilyId {
    return this.ctx.family;
  }

  get checkId(): string {
    return `${this.family}/derived/${this.derivedClass}`;
  }

  /** The key value of credentials (undefined: none); NotApplicable when the target lacks it. */
  keyOf(credentials: Credentials): string | undefined {
    if (typeof credentials === "object") return credentials.raw;
    return this.ctx.keyValue(credentials);
  }

  /** A planned request as the pacer sends it with the given credentials. */
  private outgoing(request: PlannedRequest, credentials: Credentials, options: { expect429?: boolean }): OutgoingRequest {
    const key = this.keyOf(credentials);
    const headers = { ...request.headers };
    if (key !== undefined) headers[this.ctx.contract.apiKeyHeader] = key;
    return { method: request.method, url: request.url, headers, body: request.body, bucket: this.ctx.bucketOfKey(key), expectRateLimited: options.expect429, checkId: this.checkId };
  }

  /** Sends a planned request with the given credentials through the run's pacer. */
  async send(request: PlannedRequest, credentials: Credentials, options: { expect429?: boolean } = {}): Promise<ObservedResponse> {
    (this.owner ?? this).requests += 1;
    return this.ctx.pacer.send(this.outgoing(request, credentials, options));
  }

  /** What the run knows of the window of the limit the request counts against on the credentials' account (Pacer.knownWindow). */
  knownWindow(request: PlannedRequest, credentials: Credentials): { remaining: number; resetAt?: number } | undefined {
    return this.ctx.pacer.knownWindow(this.outgoing(request, credentials, {}));
  }

  /** A curl command line for the request, the key redacted as `$API_KEY`. */
  reproduce(request: PlannedRequest, credentials: Credentials): string {
    const label = typeof credentials === "object" ? credentials.label : credentials;
    const key = credentials === "none" ? undefined : this.ctx.contract.apiKeyHeader;
    return curlOf(request, key, label);
  }

  /** The documented response an observed status falls under (for coverage). */
  covered(operationId: string, status: number): ResponsePair[] {
    const response = responseFor(this.ctx.operation(operationId), status);
    return response ? [{ operationId, status: response.status }] : [];
  }

  /** Statements the catalogue encodes in a documented response of the operation. */
  statementsOf(operationId: string, status: string): string[] {
    if (!this.catalogue) return [];
    return statementsFor(this.catalogue, this.ctx.contract, { family: this.family, operationId, status });
  }

  /** Statements the catalogue encodes as the given top-level members of the operation. */
  memberStatementsOf(operationId: string, members: string[]): string[] {
    return this.catalogue ? memberStatements(this.catalogue, this.family, operationId, members) : [];
  }

  record(outcome: DerivedOutcome): void {
    (this.owner ?? this).outcomes.push(outcome);
    this.follow.recorded?.(outcome);
  }

  /** Records a verdict from a list of problems (empty: pass). */
  judge(base: Omit<DerivedOutcome, "verdict" | "reasons">, problems: string[]): void {
    this.record({ ...base, verdict: problems.length === 0 ? "pass" : "fail", reasons: problems });
  }

  notApplicable(operationId: string, variant: string, title: string, reason: string): void {
    this.record({ operationId, variant, title, verdict: "not-applicable", reasons: [reason], covers: [] });
  }

  /**
   * Runs one unit of a class; a NotApplicable thrown inside becomes a not-applicable result,
   * any other error a failure (a check that cannot finish is not a pass).
   */
  async attempt(operationId: string, variant: string, title: string, work: () => Promise<void>): Promise<void> {
    if (this.stopped || (this.follow.operations && !this.follow.operations.includes(operationId))) return;
    try {
      await inCheck(`${this.checkId}/${operationId}/${variant}`, work);
    } catch (error) {
      if (error instanceof NotApplicable) this.notApplicable(operationId, variant, title, error.message);
      else this.record({ operationId, variant, title, verdict: "fail", reasons: [`the check stopped: ${(error as Error).message}`], covers: [] });
    }
  }
}

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export const is2xx = (response: Pick<ObservedResponse, "status">) => response.status >= 200 && response.status < 300;

/** The parsed JSON body, or undefined. */
export function jsonOf(text: string | undefined): unknown {
  if (text === undefined || text === "") return undefined;
  const parsed = parseJsonBody(text);
  return parsed.ok ? parsed.value : undefined;
}

/** A response in a reason: the status and the error's explanation whole (core/describe-response.ts). */
export const describe = describeResponse;

/** The record of an envelope: `data` when the body is `{data: {...}}`, else the body. */
export function recordOf(body: unknown): unknown {
  return isObject(body) && isObject(body.data) ? body.data : body;
}

/** Members that change on every response and say nothing of the record (envelope time, last change). */
export const VOLATILE_MEMBERS = new Set(["timestamp", "updatedAt", "updated_at"]);

/** Deep copy without the volatile members, for "unchanged" comparisons. */
export function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !VOLATILE_MEMBERS.has(k)).map(([k, v]) => [k, stable(v)]));
}

/** Deep equality with numbers compared by value (1.0 and 1 are one number). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return a === b;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => sameValue(a[k], b[k]));
  }
  return a === b;
}

/**
 * Leaf members both values carry at the same path (objects are walked, arrays and scalars are
 * leaves): what "fields that both carry must be equal" compares.
 */
export function sharedLeaves(sent: unknown, received: unknown, path = ""): Array<{ path: string; sent: unknown; received: unknown }> {
  if (!isObject(sent) || !isObject(received)) return path ? [{ path, sent, received }] : [];
  return Object.keys(sent)
    .filter((k) => k in received && !VOLATILE_MEMBERS.has(k))
    .flatMap((k) => sharedLeaves(sent[k], received[k], path ? `${path}.${k}` : k));
}
