/**
 * The result model shared by every kind of check the runner executes: Dredd transactions, the
 * probes that add request variants Dredd cannot express, and behaviour scenarios. Each check
 * yields one CheckResult; the report, the coverage and the JUnit output read only these.
 */
import type { Profile } from "./profiles/schema-profile.ts";
import type { BucketUsage } from "./pacing.ts";
import type { PacingFloor } from "./pacing-floor.ts";
import type { FamilyId } from "@payment-collection/contract/model/index.ts";

export type Verdict = "pass" | "fail" | "not-applicable";

/** A documented response of the contract: the unit of coverage. */
export interface ResponsePair {
  operationId: string;
  status: string;
}

export interface ExchangeNote {
  method: string;
  url: string;
  status: number;
  /** The first characters of the response body. */
  body: string;
  /** The request as a curl command line, the key shown as `$API_KEY`. */
  reproduction?: string;
}

/** The fingerprint that stands for a secret of the target in every report (`key#1a2b3c4d`). */
export interface KeyFingerprint {
  /** The target file's member: `familyA.keys.primary`, `familyA.webhookSecret`... */
  member: string;
  fingerprint: string;
}

export interface CheckResult {
  /** Unique in a run, stable across runs: `<family>/<operationId>/<status>/<variant>`. */
  id: string;
  /** What produced the result: `dredd`, `probe`, `scenario`, ... */
  source: string;
  family: FamilyId;
  title: string;
  /** The lowest profile the check belongs to: a `seed` check also runs under `full`. */
  profile: Profile;
  /** Ids of the statements of spec/statements.yaml the check enforces. */
  statements: string[];
  /** Decisions whose consequences the check relaxed (seed) or enforced (full). */
  decisions: string[];
  /** Documented responses the check exercised (counted for coverage when it was run). */
  covers: ResponsePair[];
  verdict: Verdict;
  /** Why it failed, or why it was not applicable; for a pass, what of its rule it could not judge on the target. */
  reasons: string[];
  durationMs: number;
  /** Requests and responses of the check, for failures. */
  exchanges?: ExchangeNote[];
  /** The generic check class that produced the result (src/derived/), for derived checks. */
  derivedClass?: string;
  /** A minimal reproduction of a failure: a curl command line, the key shown as `$API_KEY`. */
  reproduction?: string;
  /** For a generated input: the shrunk example that failed. */
  example?: unknown;
}

export interface SuiteTiming {
  suite: string;
  family?: FamilyId;
  durationMs: number;
  requests: number;
  pacingWaitMs: number;
}

export interface RunReport {
  target: string;
  profile: Profile;
  /** The seed of every value the run made up (`--seed N` runs it again). */
  seed?: number;
  startedAt: string;
  durationMs: number;
  results: CheckResult[];
  timings: SuiteTiming[];
  /** Families run in this report. */
  families: FamilyId[];
  /** Every documented (operation, status) pair of the families run. */
  documented: Array<ResponsePair & { family: FamilyId }>;
  warnings: string[];
  /** Requests sent by each generic check class (src/derived/), per family. */
  derivedRequests?: Array<{ family: FamilyId; derivedClass: string; requests: number; durationMs: number }>;
  /** Pacing: requests the server admitted per bucket, the window, and the least time the limits allow for them. */
  pacing?: { windowSeconds: number; generalLimit: number; usage: BucketUsage[]; floor: PacingFloor; waitedMs: number };
  /** Set when the run stopped early on request (`stopWhen`, `--fail-fast`): the report is not complete. */
  stoppedEarly?: StoppedEarly;
  /** The target's keys and secrets by fingerprint: the reports show no secret, only these. */
  keys?: KeyFingerprint[];
}

/**
 * A run stopped on request after one result. What did not run is absent from the results (not
 * "not applicable", not "pass"); `notRun` counts the response checks and scenarios among it
 * (the generic checks are made from the traffic, so how many would have followed is not known).
 */
export interface StoppedEarly {
  /** Id of the result after which the run stopped. */
  after: string;
  /** Response checks and scenarios of the run that have no result. */
  notRun: number;
}

/** One line for the reports: after which result the run stopped, and what it left out. */
export function stoppedEarlyLine(report: Pick<RunReport, "results" | "stoppedEarly">): string | undefined {
  const stop = report.stoppedEarly;
  if (!stop) return undefined;
  const after = report.results.find((r) => r.id === stop.after);
  const what = after?.verdict === "fail" ? `the first failure (${stop.after})` : stop.after;
  return `stopped after ${what}: ${stop.notRun} checks and scenarios not run (generic checks not counted)`;
}

/** Collects results; sources add to it as they run, in any order. */
export class ResultSink {
  private readonly list: CheckResult[] = [];
  private readonly ids = new Set<string>();

  /** Adds the result under an id unique in the run, and returns it as stored. */
  add(result: CheckResult): CheckResult {
    let id = result.id;
    for (let n = 2; this.ids.has(id); n += 1) id = `${result.id}#${n}`;
    this.ids.add(id);
    const stored = { ...result, id };
    this.list.push(stored);
    return stored;
  }

  get results(): readonly CheckResult[] {
    return this.list;
  }
}

export function failed(report: Pick<RunReport, "results">): CheckResult[] {
  return report.results.filter((r) => r.verdict === "fail");
}

export interface CoverageEntry extends ResponsePair {
  family: FamilyId;
  /** Checks that exercised the pair (pass or fail). */
  exercisedBy: CheckResult[];
  /** Checks that target the pair but were not applicable in this run. */
  notApplicable: CheckResult[];
}

/**
 * Coverage of the documented responses: a pair counts as exercised when some check that
 * targets it ran (passed or failed) in this run.
 */
export function coverage(report: Pick<RunReport, "results" | "documented">): CoverageEntry[] {
  return report.documented.map((pair) => {
    const targeting = report.results.filter(
      (r) => r.family === pair.family && r.covers.some((c) => c.operationId === pair.operationId && c.status === pair.status),
    );
    return {
      ...pair,
      exercisedBy: targeting.filter((r) => r.verdict !== "not-applicable"),
      notApplicable: targeting.filter((r) => r.verdict === "not-applicable"),
    };
  });
}
