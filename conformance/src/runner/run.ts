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
import { exhaustLimit } from "../core/exhaust.ts";
import { Pacer } from "../core/pacing.ts";
import { ResultSink, type CheckResult, type ExchangeNote, type RunReport, type SuiteTiming } from "../core/results.ts";
import { SCENARIOS } from "../scenarios/index.ts";
import { runScenario, type Scenario } from "../core/scenario.ts";
import { loadCatalogue, statementsFor, type Catalogue } from "../core/statement-map.ts";
import { familyTarget, TARGET_KEYS, type Target } from "../core/target.ts";
import { runDerived, type DerivedOptions } from "../derived/index.ts";

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
  /** Progress lines. */
  log?: (line: string) => void;
  /** Build output to read the contract from (default generated/). */
  generatedDir?: string;
  /** The generic checks derived from the contract and the run's traffic (src/derived/); false: none. */
  derived?: DerivedOptions | false;
}

function exchangeNotes(ctx: FamilyContext, id: string): ExchangeNote[] {
  return ctx.exchangesOf(id).map((e) => ({
    method: e.method,
    url: e.url,
    status: e.status,
    body: e.responseBody.slice(0, 300),
  }));
}

interface FamilyRun {
  family: FamilyId;
  contract: FamilyContract;
  ctx?: FamilyContext;
  checks: ResponseCheck[];
}

export async function runConformance(options: RunOptions): Promise<RunReport> {
  const started = Date.now();
  const profile = options.profile ?? "seed";
  const families = options.families ?? [...FAMILY_IDS];
  const log = options.log ?? (() => {});
  const catalogue: Catalogue = loadCatalogue();
  const pacer = new Pacer({ onWait: (line) => log(`  pacing: ${line}`) });
  const sink = new ResultSink();
  const timings: SuiteTiming[] = [];
  const warnings = [...options.target.warnings, ...catalogue.problems];
  const mock = options.target.mock === "prism";

  const runs: FamilyRun[] = families.map((family) => {
    const contract = loadFamilyContract(family, options.generatedDir);
    const target = familyTarget(options.target, family);
    const checks = [...(options.checks ?? FAMILY_CHECKS)[family]].sort((x, y) => (x.order ?? 0) - (y.order ?? 0));
    const ctx = target ? new FamilyContext(family, contract, profile, target, pacer, mock) : undefined;
    if (ctx) ctx.catalogue = catalogue;
    return { family, contract, ctx, checks };
  });

  const addCheckResult = (run: FamilyRun, check: ResponseCheck, source: string, result: Pick<CheckResult, "verdict" | "reasons" | "durationMs" | "decisions">) => {
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

  const timed = async (suite: string, family: FamilyId, work: () => Promise<void>) => {
    const before = { at: Date.now(), requests: pacer.requests, waited: pacer.waitedMs };
    await work();
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
    if (options.derived === false || !run.ctx) return;
    if (stage === "exhaust" && options.exhaust === false) return;
    const ctx = run.ctx;
    log(`${familyName(run.family)}: generic checks${stage === "exhaust" ? " (rate limits)" : ""}`);
    await timed(`derived${stage === "exhaust" ? "-429" : ""}`, run.family, async () => {
      const outcome = await runDerived(ctx, stage, { exhaustCap: options.exhaustCap ?? 1000, ...(options.derived || {}) }, catalogue, otherFamilyKey(run.family));
      for (const result of outcome.results) {
        sink.add(result);
      }
      for (const count of outcome.requests) derivedRequests.push({ family: run.family, ...count });
    });
  };

  const runStage = async (run: FamilyRun, stage: "main" | "exhaust") => {
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
    if (inStage.length > 0) log(`${familyName(run.family)}: Dredd suite${label}`);
    if (inStage.length > 0) await timed(`dredd${stage === "exhaust" ? "-429" : ""}`, run.family, () =>
      runDreddSuite({
        ctx,
        checks: inStage,
        stage,
        exhaust: (c) => exhaustLimit(c, { cap: options.exhaustCap ?? 1000 }),
        record: (check, result) => addCheckResult(run, check, "dredd", result),
      }),
    );
    const probes = inStage.filter((c) => !bound.has(c));
    if (probes.length > 0) {
      log(`${familyName(run.family)}: ${probes.length} probes${label}`);
      await timed(`probes${stage === "exhaust" ? "-429" : ""}`, run.family, async () => {
        for (const check of probes) {
          const at = Date.now();
          // A request the target cannot make (no primary key of the family...) is not applicable.
          const outcome = await runProbe(check, ctx).catch((error: unknown) => {
            if (error instanceof NotApplicable) return { verdict: "not-applicable" as const, reasons: [error.message] };
            throw error;
          });
          addCheckResult(run, check, "probe", { ...outcome, durationMs: Date.now() - at, decisions: ctx.expectation(check.operationId, check.status).decisions });
        }
      });
    }
    if (scenarios.length > 0) {
      log(`${familyName(run.family)}: ${scenarios.length} scenarios${label}`);
      await timed(`scenarios${stage === "exhaust" ? "-429" : ""}`, run.family, async () => {
        for (const scenario of scenarios) addScenarioResult(run, scenario, await runScenario(scenario, ctx));
      });
    }
    if (stage === "main") await runDerivedStage(run, stage);
  };

  for (const run of runs) await runStage(run, "main");
  for (const run of runs) await runStage(run, "exhaust");

  return {
    target: options.target.source,
    profile,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    results: [...sink.results],
    timings,
    families,
    documented: runs.flatMap((run) => documentedPairs(run.contract).map((pair) => ({ ...pair, family: run.family }))),
    warnings,
    derivedRequests,
  };
}
