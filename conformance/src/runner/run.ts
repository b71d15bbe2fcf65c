/**
 * A conformance run: the Dredd suite, the probes and the behaviour scenarios of each family of
 * a target, in two stages (everything else first, then the checks that use up rate limits),
 * collected into one report.
 */
import { FAMILY_CHECKS } from "../checks/index.ts";
import { checkId, runProbe, type ResponseCheck } from "../checks/response-check.ts";
import { boundChecks, runDreddSuite } from "../dredd/run-dredd.ts";
import type { Profile } from "../core/profiles/schema-profile.ts";
import { FamilyContext, NotApplicable } from "../core/check-context.ts";
import { documentedPairs, FAMILY_IDS, familyName, loadFamilyContract, type FamilyContract, type FamilyId } from "@payment-collection/contract/model/index.ts";
import { contextFor } from "../core/account-plan.ts";
import { exhaustLimit } from "../core/exhaust.ts";
import { Pacer, type PacerOptions, type WireExchange } from "../core/pacing.ts";
import { drawSeed, RunRandom } from "../core/run-random.ts";
import { pacingFloor } from "../core/pacing-floor.ts";
import { PUBLISHED_FIGURES } from "../derived/rate-limit-figures.ts";
import { ResultSink, type CheckResult, type ExchangeNote, type RunReport, type StoppedEarly, type SuiteTiming } from "../core/results.ts";
import { SCENARIOS } from "../scenarios/index.ts";
import { runScenario, type Scenario } from "../core/scenario.ts";
import { loadCatalogue, statementsFor, type Catalogue } from "../core/statement-map.ts";
import { familyTarget, TARGET_KEYS, type DeclaredRateLimitPlan, type Target } from "../core/target.ts";
import { runDerived, type DerivedOptions } from "../derived/index.ts";
import { curlOf } from "../derived/reproduction.ts";
import { fingerprintsOf, redactor, redactResult } from "./redaction.ts";
import { progressFromLog, type RunProgress } from "./progress.ts";
import { tcpProblem } from "./reachability.ts";
import { RunStopped } from "./run-stopped.ts";

export interface RunOptions {
  target: Target;
  /** Families to run (default: both). */
  families?: FamilyId[];
  profile?: Profile;
  /** Run the 429 checks, which use up the account's rate limit (default true). */
  exhaust?: boolean;
  /** Highest rate limit the run may use up (requests per window). */
  exhaustCap?: number;
  /** Behaviour scenarios to run with the response checks (default: src/scenarios). */
  scenarios?: Scenario[];
  /** Response checks (default: the suites of src/checks). */
  checks?: Record<FamilyId, ResponseCheck[]>;
  /** Progress lines (suites and pacing waits); `progress` replaces them. */
  log?: (line: string) => void;
  /** Progress: suites, checks done, pacing waits with a countdown (default: the `log` lines). */
  progress?: RunProgress;
  /** Build output to read the contract from (default generated/). */
  generatedDir?: string;
  /** The generic checks derived from the contract and the run's traffic (src/derived/); false: none. */
  derived?: DerivedOptions | false;
  /**
   * Stops the run once a result satisfies it (`--fail-fast`: the first failure): the checks,
   * scenarios and generic check classes not begun yet do not run, the Dredd suite skips its
   * remaining transactions, and the report says that it stopped early (`stoppedEarly`).
   */
  stopWhen?: (result: CheckResult) => boolean;
  /**
   * How long a request may take and how long the run may wait after a 429 (default: 30 s, and
   * windows of up to 2 minutes). A run against a local server that must never be limited (the
   * mutation run) gives a few seconds: a request it does not answer in time is a failure there.
   */
  pacing?: Pick<PacerOptions, "timeoutMs" | "maxWaitSeconds" | "maxRetries">;
  /** Seed of every value the run makes up (ids, keys, generated bodies); default: one drawn for the run, reported. */
  seed?: number;
  /** Every exchange of the run as it ends, and every result as it is recorded (a recording: src/bundle/). */
  onExchange?: (exchange: WireExchange) => void;
  onResult?: (result: CheckResult) => void;
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

interface FamilyRun {
  family: FamilyId;
  contract: FamilyContract;
  ctx?: FamilyContext;
  checks: ResponseCheck[];
}

/**
 * Runs the suites. Throws RunStopped, with the report of what ran, when a server stops
 * answering between suites or a suite throws what it should not. A run ended by `stopWhen`
 * returns its report, marked `stoppedEarly`.
 */
export async function runConformance(options: RunOptions): Promise<RunReport> {
  const started = Date.now();
  const profile = options.profile ?? "seed";
  const families = options.families ?? [...FAMILY_IDS];
  const progress = options.progress ?? progressFromLog(options.log);
  const catalogue: Catalogue = loadCatalogue();
  const pacer = new Pacer({ ...options.pacing, onPause: (ms, why) => progress.pause(ms, why), onExchange: options.onExchange });
  const seed = options.seed ?? drawSeed();
  const random = new RunRandom(seed);
  const results = new ResultSink();
  // No key or secret of the target in any result: the reports show their fingerprints.
  const redact = redactor(options.target);
  let stopAfter: string | undefined;
  /** True once a result met `stopWhen`: nothing else begins. */
  const stopped = () => stopAfter !== undefined;
  const sink = {
    add(result: CheckResult) {
      const stored = results.add(redactResult(result, redact));
      options.onResult?.(stored);
      progress.checked();
      if (!stopped() && options.stopWhen?.(stored)) stopAfter = stored.id;
    },
  };
  // The response checks and scenarios that got a result, to count those a stop left out.
  const ran = new Set<ResponseCheck | Scenario>();
  const timings: SuiteTiming[] = [];
  const warnings = [...options.target.warnings, ...catalogue.problems];
  const mock = options.target.mock === "prism";

  const runs: FamilyRun[] = families.map((family) => {
    const contract = loadFamilyContract(family, options.generatedDir);
    const target = familyTarget(options.target, family);
    const checks = [...(options.checks ?? FAMILY_CHECKS)[family]].sort((x, y) => (x.order ?? 0) - (y.order ?? 0));
    const ctx = target ? new FamilyContext(family, contract, profile, target, pacer, mock, random.token(`run-id:${family}`)) : undefined;
    if (ctx) Object.assign(ctx, { catalogue, random });
    return { family, contract, ctx, checks };
  });

  const addCheckResult = (run: FamilyRun, check: ResponseCheck, source: string, result: Pick<CheckResult, "verdict" | "reasons" | "durationMs" | "decisions">) => {
    ran.add(check);
    const id = checkId(check);
    const statements = new Set(
      statementsFor(catalogue, run.contract, { family: run.family, operationId: check.operationId, status: check.status, errorCode: check.errorCode }),
    );
    for (const extra of check.statements ?? []) statements.add(extra);
    sink.add({
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
  };

  const addScenarioResult = (run: FamilyRun, scenario: Scenario, result: Pick<CheckResult, "verdict" | "reasons" | "durationMs">) => {
    ran.add(scenario);
    sink.add({
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
  };

  /**
   * Runs one suite of a family and times it. A NotApplicable that escapes a suite makes what it
   * had not run yet not applicable (`leftOver`); after it, the server must still answer, or the
   * run stops with the reason.
   */
  const timed = async (suite: string, run: FamilyRun, work: () => Promise<void>, leftOver: (reason: string) => void) => {
    const family = run.family;
    const before = { at: Date.now(), requests: pacer.requests, waited: pacer.waitedMs };
    const label = SUITE_LABELS[suite] ?? suite;
    const baseUrl = run.ctx!.target.baseUrl;
    /** Stops the run when the server no longer accepts connections. */
    const stopIfGone = async (cause?: unknown) => {
      const down = await tcpProblem(baseUrl);
      if (down) throw new RunStopped(`${familyName(family)}: ${baseUrl} stopped answering during the ${label} (${down})`, undefined, { cause });
    };
    try {
      await work();
    } catch (error) {
      if (!(error instanceof NotApplicable)) {
        await stopIfGone(error);
        throw new RunStopped(`${familyName(family)}: the ${label} stopped: ${(error as Error).message?.split("\n")[0] ?? String(error)}`, undefined, { cause: error });
      }
      leftOver(error.message);
    }
    await stopIfGone();
    timings.push({
      suite,
      family,
      durationMs: Date.now() - before.at,
      requests: pacer.requests - before.requests,
      pacingWaitMs: pacer.waitedMs - before.waited,
    });
  };

  const derivedRequests: NonNullable<RunReport["derivedRequests"]> = [];
  /** The other family's primary key: for a family, a key of the other one is no key. */
  const otherFamilyKey = (family: FamilyId) => {
    const other = FAMILY_IDS.find((f) => f !== family)!;
    return (familyTarget(options.target, other)?.keys as { primary?: string } | undefined)?.primary;
  };
  const runDerivedStage = async (run: FamilyRun, stage: "main" | "exhaust") => {
    if (options.derived === false || !run.ctx || stopped()) return;
    if (stage === "exhaust" && options.exhaust === false) return;
    const ctx = run.ctx;
    progress.suite(run.family, `generic checks${stage === "exhaust" ? " (rate limits)" : ""}`);
    const suite = `derived${stage === "exhaust" ? "-429" : ""}`;
    const leftOver = (reason: string) =>
      sink.add({
        id: `${run.family}/${suite}`, source: "derived", family: run.family, title: "[generic checks] every operation", profile: "seed",
        statements: [], decisions: [], covers: [], verdict: "not-applicable", reasons: [reason], durationMs: 0,
      });
    await timed(suite, run, async () => {
      const outcome = await runDerived(ctx, stage, { exhaustCap: options.exhaustCap ?? 1000, seed, ...(options.derived || {}) }, catalogue, otherFamilyKey(run.family), {
        result: (result) => sink.add(result),
        stopped,
      });
      for (const count of outcome.requests) derivedRequests.push({ family: run.family, ...count });
    }, leftOver);
  };

  const runStage = async (run: FamilyRun, stage: "main" | "exhaust") => {
    if (stopped()) return;
    const ctx = run.ctx;
    const inStage = run.checks.filter((c) => (c.stage ?? "main") === stage);
    const scenarios = (options.scenarios ?? SCENARIOS).filter((s) => s.family === run.family && (s.stage ?? "main") === stage);
    if (!ctx) {
      const reason = `the target names no ${TARGET_KEYS[run.family]} server`;
      for (const check of inStage) addCheckResult(run, check, "dredd", { verdict: "not-applicable", reasons: [reason], durationMs: 0, decisions: [] });
      for (const scenario of scenarios) addScenarioResult(run, scenario, { verdict: "not-applicable", reasons: [reason], durationMs: 0 });
      return;
    }
    if (stage === "exhaust" && options.exhaust === false) {
      const reason = "rate-limit exhaustion excluded (--no-exhaust)";
      for (const check of inStage) addCheckResult(run, check, "dredd", { verdict: "not-applicable", reasons: [reason], durationMs: 0, decisions: [] });
      for (const scenario of scenarios) addScenarioResult(run, scenario, { verdict: "not-applicable", reasons: [reason], durationMs: 0 });
      return;
    }
    // Generic checks: after the main stage's checks and scenarios, before the exhaust stage's.
    if (stage === "exhaust") await runDerivedStage(run, stage);
    const bound = new Set(boundChecks(inStage).values());
    const label = stage === "main" ? "" : " (rate limits)";
    const suffix = stage === "exhaust" ? "-429" : "";
    // What a suite recorded, so that a suite that stops early leaves the rest not applicable.
    const recorded = new Set<unknown>();
    const leftOver = <T>(list: T[], add: (item: T, reason: string) => void) => (reason: string) => {
      for (const item of list) if (!recorded.has(item)) add(item, reason);
    };
    const notApplicableCheck = (source: string) => (check: ResponseCheck, reason: string) =>
      addCheckResult(run, check, source, { verdict: "not-applicable", reasons: [reason], durationMs: 0, decisions: [] });
    const dredd = inStage.filter((c) => bound.has(c));
    if (inStage.length > 0) progress.suite(run.family, `Dredd suite${label}`, dredd.length);
    if (inStage.length > 0) await timed(`dredd${suffix}`, run, () =>
      runDreddSuite({
        ctx,
        checks: inStage,
        stage,
        exhaust: (c) => exhaustLimit(c, { cap: options.exhaustCap ?? 1000 }),
        stopped,
        record: (check, result) => {
          recorded.add(check);
          addCheckResult(run, check, "dredd", result);
        },
      }),
      leftOver(dredd, notApplicableCheck("dredd")),
    );
    const probes = inStage.filter((c) => !bound.has(c));
    if (probes.length > 0 && !stopped()) {
      progress.suite(run.family, `probes${label}`, probes.length);
      await timed(`probes${suffix}`, run, async () => {
        for (const check of probes) {
          if (stopped()) break;
          const at = Date.now();
          // A request the target cannot make (no primary key of the family...) is not applicable.
          const outcome = await runProbe(check, ctx).catch((error: unknown) => {
            if (error instanceof NotApplicable) return { verdict: "not-applicable" as const, reasons: [error.message] };
            throw error;
          });
          recorded.add(check);
          addCheckResult(run, check, "probe", { ...outcome, durationMs: Date.now() - at, decisions: ctx.expectation(check.operationId, check.status).decisions });
        }
      }, leftOver(probes, notApplicableCheck("probe")));
    }
    if (scenarios.length > 0 && !stopped()) {
      progress.suite(run.family, `scenarios${label}`, scenarios.length);
      await timed(`scenarios${suffix}`, run, async () => {
        for (const scenario of scenarios) {
          if (stopped()) break;
          const on = contextFor(scenario, ctx);
          const result = await runScenario(scenario, on);
          recorded.add(scenario);
          // Where it ran, for reproducing a failure on the same account.
          if (on.account && result.verdict === "fail") result.reasons.push(`ran with the target's ${on.account} key (core/account-plan.ts)`);
          addScenarioResult(run, scenario, result);
        }
      }, leftOver(scenarios, (scenario, reason) => addScenarioResult(run, scenario, { verdict: "not-applicable", reasons: [reason], durationMs: 0 })));
    }
    if (stage === "main") await runDerivedStage(run, stage);
  };

  const report = (): RunReport => ({
    target: options.target.source,
    profile,
    seed,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    results: [...results.results],
    timings,
    families,
    documented: runs.flatMap((run) => documentedPairs(run.contract).map((pair) => ({ ...pair, family: run.family }))),
    warnings,
    derivedRequests,
    pacing: pacingSummary(),
    keys: fingerprintsOf(options.target),
    ...(stopAfter !== undefined ? { stoppedEarly: stoppedEarly(stopAfter) } : {}),
  });

  /** After which result the run stopped, and how many of its checks and scenarios did not run. */
  const stoppedEarly = (after: string): StoppedEarly => {
    const scenarios = runs.flatMap((run) => (options.scenarios ?? SCENARIOS).filter((s) => s.family === run.family));
    const planned = [...runs.flatMap((run) => run.checks), ...scenarios];
    return { after, notRun: planned.filter((item) => !ran.has(item)).length };
  };

  /** The figures the pacing had to respect: the target's declared plan, else the published ones. */
  const pacingSummary = (): RunReport["pacing"] => {
    const plan: DeclaredRateLimitPlan | undefined = options.target.familyB?.plan;
    const generalLimit = plan?.general ?? PUBLISHED_FIGURES.general;
    const windowSeconds = plan?.windowSeconds ?? 60;
    const usage = pacer.usage();
    return { windowSeconds, generalLimit, usage, floor: pacingFloor(usage, generalLimit, windowSeconds), waitedMs: pacer.waitedMs };
  };

  try {
    // One family after the other: the families' accounts may be one on the server, and checks
    // that read the rate-limit headers must not see the other family's requests.
    for (const run of runs) await runStage(run, "main");
    for (const run of runs) await runStage(run, "exhaust");
  } catch (error) {
    const reason = error instanceof RunStopped ? error.message : `the run stopped: ${(error as Error).message?.split("\n")[0] ?? String(error)}`;
    throw new RunStopped(reason, report(), { cause: error instanceof RunStopped ? (error.cause ?? error) : error });
  }
  return report();
}

/** Suite names as the progress and a stopped run's reason say them. */
const SUITE_LABELS: Record<string, string> = {
  dredd: "Dredd suite",
  "dredd-429": "Dredd suite (rate limits)",
  probes: "probes",
  "probes-429": "probes (rate limits)",
  scenarios: "scenarios",
  "scenarios-429": "scenarios (rate limits)",
  derived: "generic checks",
  "derived-429": "generic checks (rate limits)",
};
