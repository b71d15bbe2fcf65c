/**
 * What a conformance run holds while it runs: the families it checks, the pacer every request
 * goes through, the results as they come (redacted), the suites' timings, and whether a result
 * has stopped it. The suites add to it (family-stage.ts); its report is the run's.
 */
import { documentedPairs, FAMILY_IDS, loadFamilyContract, type FamilyContract, type FamilyId } from "@payment-collection/contract/model/index.ts";
import { FAMILY_CHECKS } from "../checks/index.ts";
import { checkId, type ResponseCheck } from "../checks/response-check.ts";
import { FamilyContext } from "../core/check-context.ts";
import { Pacer } from "../core/pacing.ts";
import { pacingFloor } from "../core/pacing-floor.ts";
import type { Profile } from "../core/profiles/schema-profile.ts";
import { ResultSink, type CheckResult, type ExchangeNote, type RunReport, type StoppedEarly, type SuiteTiming } from "../core/results.ts";
import { drawSeed, RunRandom } from "../core/run-random.ts";
import type { Scenario } from "../core/scenario.ts";
import { loadCatalogue, statementsFor, type Catalogue } from "../core/statement-map.ts";
import { familyTarget, TARGET_KEYS, type DeclaredRateLimitPlan } from "../core/target.ts";
import { PUBLISHED_FIGURES } from "../derived/rate-limit-figures.ts";
import { curlOf } from "../derived/reproduction.ts";
import { SCENARIOS } from "../scenarios/index.ts";
import { progressFromLog, type RunProgress } from "./progress.ts";
import { fingerprintsOf, redactor, redactResult } from "./redaction.ts";
import type { RunOptions } from "./run-options.ts";

/** One family of the run: its contract, its context (none when the target names no server of it) and its checks in order. */
export interface FamilyRun {
  family: FamilyId;
  contract: FamilyContract;
  ctx?: FamilyContext;
  checks: ResponseCheck[];
}

/** A result as a check or scenario gives it; the record adds what names it. */
type CheckOutcome = Pick<CheckResult, "verdict" | "reasons" | "durationMs" | "decisions">;
type ScenarioOutcome = Pick<CheckResult, "verdict" | "reasons" | "durationMs">;

export class RunRecord {
  readonly started = Date.now();
  readonly profile: Profile;
  readonly families: FamilyId[];
  readonly progress: RunProgress;
  readonly catalogue: Catalogue;
  readonly pacer: Pacer;
  readonly seed: number;
  readonly random: RunRandom;
  readonly runs: FamilyRun[];
  readonly timings: SuiteTiming[] = [];
  readonly derivedRequests: NonNullable<RunReport["derivedRequests"]> = [];
  private readonly results = new ResultSink();
  /** No key or secret of the target in any result: the reports show their fingerprints. */
  private readonly redact: ReturnType<typeof redactor>;
  /** The response checks and scenarios that got a result, to count those a stop left out. */
  private readonly ran = new Set<ResponseCheck | Scenario>();
  private readonly warnings: string[];
  private stopAfter: string | undefined;

  constructor(readonly options: RunOptions) {
    this.profile = options.profile ?? "seed";
    this.families = options.families ?? [...FAMILY_IDS];
    this.progress = options.progress ?? progressFromLog(options.log);
    this.catalogue = loadCatalogue();
    this.pacer = new Pacer({ ...options.pacing, onPause: (ms, why) => this.progress.pause(ms, why), onExchange: options.onExchange });
    this.seed = options.seed ?? drawSeed();
    this.random = new RunRandom(this.seed);
    this.redact = redactor(options.target);
    this.warnings = [...options.target.warnings, ...this.catalogue.problems];
    this.runs = this.families.map((family) => this.familyRun(family));
  }

  private familyRun(family: FamilyId): FamilyRun {
    const { options, catalogue, random } = this;
    const contract = loadFamilyContract(family, options.generatedDir);
    const target = familyTarget(options.target, family);
    const checks = [...(options.checks ?? FAMILY_CHECKS)[family]].sort((x, y) => (x.order ?? 0) - (y.order ?? 0));
    const mock = options.target.mock === "prism";
    const ctx = target ? new FamilyContext(family, contract, this.profile, target, this.pacer, mock, random.token(`run-id:${family}`)) : undefined;
    if (ctx) Object.assign(ctx, { catalogue, random });
    return { family, contract, ctx, checks };
  }

  /** True once a result met `stopWhen`: nothing else begins. */
  readonly stopped = (): boolean => this.stopAfter !== undefined;

  /** The family's behaviour scenarios (all stages). */
  scenariosOf(family: FamilyId): Scenario[] {
    return (this.options.scenarios ?? SCENARIOS).filter((s) => s.family === family);
  }

  /** The other family's primary key: for a family, a key of the other one is no key. */
  otherFamilyKey(family: FamilyId): string | undefined {
    const other = FAMILY_IDS.find((f) => f !== family)!;
    return (familyTarget(this.options.target, other)?.keys as { primary?: string } | undefined)?.primary;
  }

  /** Records one result, redacted; the first that meets `stopWhen` stops the run. */
  add(result: CheckResult): void {
    const stored = this.results.add(redactResult(result, this.redact));
    this.options.onResult?.(stored);
    this.progress.checked();
    if (!this.stopped() && this.options.stopWhen?.(stored)) this.stopAfter = stored.id;
  }

  /** Records a response check's result, with the statements and decisions it enforces. */
  addCheck(run: FamilyRun, check: ResponseCheck, source: string, result: CheckOutcome): void {
    this.ran.add(check);
    const id = checkId(check);
    const statements = new Set(
      statementsFor(this.catalogue, run.contract, { family: run.family, operationId: check.operationId, status: check.status, errorCode: check.errorCode }),
    );
    for (const extra of check.statements ?? []) statements.add(extra);
    this.add({
      id,
      source,
      family: run.family,
      title: `${check.operationId} ${check.status}: ${check.title}`,
      profile: check.profile ?? "seed",
      statements: [...statements],
      covers: [{ operationId: check.operationId, status: check.status }],
      ...result,
      decisions: [...new Set([...(result.decisions ?? []), ...(check.decision ? [check.decision] : [])])].sort(),
      exchanges: result.verdict === "fail" && run.ctx ? exchangeNotes(run.ctx, id) : undefined,
    });
  }

  /** Records a behaviour scenario's result. */
  addScenario(run: FamilyRun, scenario: Scenario, result: ScenarioOutcome): void {
    this.ran.add(scenario);
    this.add({
      id: scenario.id,
      source: "scenario",
      family: run.family,
      title: scenario.title,
      profile: scenario.profile,
      statements: scenario.statements,
      decisions: scenario.decision ? [scenario.decision] : [],
      covers: scenario.covers ?? [],
      ...result,
      exchanges: result.verdict === "fail" && run.ctx ? exchangeNotes(run.ctx, scenario.id) : undefined,
    });
  }

  /** Records checks and scenarios that cannot run, with the reason. */
  notApplicable(run: FamilyRun, checks: ResponseCheck[], scenarios: Scenario[], reason: string, source = "dredd"): void {
    for (const check of checks) this.addCheck(run, check, source, { verdict: "not-applicable", reasons: [reason], durationMs: 0, decisions: [] });
    for (const scenario of scenarios) this.addScenario(run, scenario, { verdict: "not-applicable", reasons: [reason], durationMs: 0 });
  }

  /** Why a family's stage cannot run at all, or undefined when it can. */
  exclusion(run: FamilyRun, stage: "main" | "exhaust"): string | undefined {
    if (!run.ctx) return `the target names no ${TARGET_KEYS[run.family]} server`;
    if (stage === "exhaust" && this.options.exhaust === false) return "rate-limit exhaustion excluded (--no-exhaust)";
    return undefined;
  }

  /** The run's report as it stands. */
  report(): RunReport {
    const { options } = this;
    return {
      target: options.target.source,
      profile: this.profile,
      seed: this.seed,
      startedAt: new Date(this.started).toISOString(),
      durationMs: Date.now() - this.started,
      results: [...this.results.results],
      timings: this.timings,
      families: this.families,
      documented: this.runs.flatMap((run) => documentedPairs(run.contract).map((pair) => ({ ...pair, family: run.family }))),
      warnings: this.warnings,
      derivedRequests: this.derivedRequests,
      pacing: this.pacingSummary(),
      keys: fingerprintsOf(options.target),
      ...(this.stopAfter !== undefined ? { stoppedEarly: this.stoppedEarly(this.stopAfter) } : {}),
    };
  }

  /** After which result the run stopped, and how many of its checks and scenarios did not run. */
  private stoppedEarly(after: string): StoppedEarly {
    const planned = [...this.runs.flatMap((run) => run.checks), ...this.runs.flatMap((run) => this.scenariosOf(run.family))];
    return { after, notRun: planned.filter((item) => !this.ran.has(item)).length };
  }

  /** The figures the pacing had to respect: the target's declared plan, else the published ones. */
  private pacingSummary(): RunReport["pacing"] {
    const plan: DeclaredRateLimitPlan | undefined = this.options.target.familyB?.plan;
    const generalLimit = plan?.general ?? PUBLISHED_FIGURES.general;
    const windowSeconds = plan?.windowSeconds ?? 60;
    const usage = this.pacer.usage();
    return { windowSeconds, generalLimit, usage, floor: pacingFloor(usage, generalLimit, windowSeconds), waitedMs: this.pacer.waitedMs };
  }
}

/** The exchanges of a failed check, each with its request as a curl line (the key as `$API_KEY`). */
function exchangeNotes(ctx: FamilyContext, id: string): ExchangeNote[] {
  const keyHeader = ctx.contract.apiKeyHeader.toLowerCase();
  return ctx.exchangesOf(id).map((e) => {
    const key = Object.entries(e.requestHeaders).find(([name]) => name.toLowerCase() === keyHeader);
    const label = key ? (ctx.keyChoiceOf(key[1]) ?? "unnamed") : "";
    return {
      method: e.method,
      url: e.url,
      status: e.status,
      body: e.responseBody.slice(0, 300),
      reproduction: curlOf({ operationId: "", method: e.method, url: e.url, headers: e.requestHeaders, body: e.requestBody }, key?.[0], label),
    };
  });
}
