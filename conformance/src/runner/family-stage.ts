/**
 * One stage of one family ("main", then "exhaust": the checks that use up rate limits): the
 * Dredd suite, the probes, the behaviour scenarios and the generic checks, each a suite that is
 * timed and after which the server must still answer. Results go to the run's record.
 */
import { familyName } from "@payment-collection/contract/model/index.ts";
import { runProbe, type ResponseCheck } from "../checks/response-check.ts";
import { NotApplicable, type FamilyContext } from "../core/check-context.ts";
import { contextFor } from "../core/account-plan.ts";
import { exhaustLimit } from "../core/exhaust.ts";
import { runScenario, type Scenario } from "../core/scenario.ts";
import { runDerived } from "../derived/index.ts";
import { boundChecks, runDreddSuite } from "../dredd/run-dredd.ts";
import { tcpProblem } from "./reachability.ts";
import type { FamilyRun, RunRecord } from "./run-record.ts";
import { RunStopped } from "./run-stopped.ts";

type Stage = "main" | "exhaust";

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

/** Runs one stage of a family: every suite of it, or not-applicable results when it cannot run. */
export async function runStage(record: RunRecord, run: FamilyRun, stage: Stage): Promise<void> {
  if (record.stopped()) return;
  const checks = run.checks.filter((c) => (c.stage ?? "main") === stage);
  const scenarios = record.scenariosOf(run.family).filter((s) => (s.stage ?? "main") === stage);
  const excluded = record.exclusion(run, stage);
  if (excluded) return record.notApplicable(run, checks, scenarios, excluded);
  await new FamilyStage(record, run, run.ctx!, stage).run(checks, scenarios);
}

class FamilyStage {
  /** What a suite recorded, so that a suite that stops early leaves the rest not applicable. */
  private readonly recorded = new Set<unknown>();
  private readonly label: string;
  private readonly suffix: string;

  constructor(
    private readonly record: RunRecord,
    private readonly family: FamilyRun,
    private readonly ctx: FamilyContext,
    private readonly stage: Stage,
  ) {
    this.label = stage === "main" ? "" : " (rate limits)";
    this.suffix = stage === "exhaust" ? "-429" : "";
  }

  async run(checks: ResponseCheck[], scenarios: Scenario[]): Promise<void> {
    // Generic checks: after the main stage's checks and scenarios, before the exhaust stage's.
    if (this.stage === "exhaust") await this.derived();
    const bound = new Set(boundChecks(checks).values());
    if (checks.length > 0) await this.dreddSuite(checks, checks.filter((c) => bound.has(c)));
    const probes = checks.filter((c) => !bound.has(c));
    if (probes.length > 0 && !this.record.stopped()) await this.probes(probes);
    if (scenarios.length > 0 && !this.record.stopped()) await this.scenarios(scenarios);
    if (this.stage === "main") await this.derived();
  }

  /** The Dredd suite: it takes the stage's checks and runs the one bound to each documented response. */
  private async dreddSuite(checks: ResponseCheck[], bound: ResponseCheck[]): Promise<void> {
    const { record, family, ctx, stage } = this;
    if (record.options.dredd === false) return record.notApplicable(family, bound, [], "the Dredd suite did not run (--no-dredd)");
    record.progress.suite(family.family, `Dredd suite${this.label}`, bound.length);
    await this.timed(`dredd${this.suffix}`, () =>
      runDreddSuite({
        ctx,
        checks,
        stage,
        exhaust: (c) => exhaustLimit(c, { cap: record.options.exhaustCap ?? 1000 }),
        stopped: record.stopped,
        record: (check, result) => {
          this.recorded.add(check);
          record.addCheck(family, check, "dredd", result);
        },
      }),
      this.leftOver(bound, this.notApplicableCheck("dredd")),
    );
  }

  /** The checks Dredd does not run, as the runner's own requests. */
  private async probes(probes: ResponseCheck[]): Promise<void> {
    this.record.progress.suite(this.family.family, `probes${this.label}`, probes.length);
    await this.timed(`probes${this.suffix}`, async () => {
      for (const check of probes) {
        if (this.record.stopped()) break;
        await this.probe(check);
      }
    }, this.leftOver(probes, this.notApplicableCheck("probe")));
  }

  private async probe(check: ResponseCheck): Promise<void> {
    const { ctx } = this;
    const at = Date.now();
    // A request the target cannot make (no primary key of the family...) is not applicable.
    const outcome = await runProbe(check, ctx).catch((error: unknown) => {
      if (error instanceof NotApplicable) return { verdict: "not-applicable" as const, reasons: [error.message] };
      throw error;
    });
    this.recorded.add(check);
    this.record.addCheck(this.family, check, "probe", { ...outcome, durationMs: Date.now() - at, decisions: ctx.expectation(check.operationId, check.status).decisions });
  }

  private async scenarios(scenarios: Scenario[]): Promise<void> {
    const { record, family } = this;
    record.progress.suite(family.family, `scenarios${this.label}`, scenarios.length);
    const notApplicable = (scenario: Scenario, reason: string) =>
      record.addScenario(family, scenario, { verdict: "not-applicable", reasons: [reason], durationMs: 0 });
    await this.timed(`scenarios${this.suffix}`, async () => {
      for (const scenario of scenarios) {
        if (record.stopped()) break;
        await this.scenario(scenario);
      }
    }, this.leftOver(scenarios, notApplicable));
  }

  private async scenario(scenario: Scenario): Promise<void> {
    const on = contextFor(scenario, this.ctx);
    const result = await runScenario(scenario, on);
    this.recorded.add(scenario);
    // Where it ran, for reproducing a failure on the same account.
    if (on.account && result.verdict === "fail") result.reasons.push(`ran with the target's ${on.account} key (core/account-plan.ts)`);
    this.record.addScenario(this.family, scenario, result);
  }

  /** The generic checks derived from the contract (src/derived/), unless the run leaves them out. */
  private async derived(): Promise<void> {
    const { record, family, ctx, stage } = this;
    const { options } = record;
    if (options.derived === false || record.stopped()) return;
    if (stage === "exhaust" && options.exhaust === false) return;
    record.progress.suite(family.family, `generic checks${this.label}`);
    const suite = `derived${this.suffix}`;
    const leftOver = (reason: string) =>
      record.add({
        id: `${family.family}/${suite}`, source: "derived", family: family.family, title: "[generic checks] every operation", profile: "seed",
        statements: [], decisions: [], covers: [], verdict: "not-applicable", reasons: [reason], durationMs: 0,
      });
    await this.timed(suite, async () => {
      const derivedOptions = { exhaustCap: options.exhaustCap ?? 1000, seed: record.seed, ...(options.derived || {}) };
      const outcome = await runDerived(ctx, stage, derivedOptions, record.catalogue, record.otherFamilyKey(family.family), {
        result: (result) => record.add(result),
        stopped: record.stopped,
      });
      for (const count of outcome.requests) record.derivedRequests.push({ family: family.family, ...count });
    }, leftOver);
  }

  /**
   * Runs one suite and times it. A NotApplicable that escapes a suite makes what it had not run
   * yet not applicable (`leftOver`); after it, the server must still answer, or the run stops
   * with the reason.
   */
  private async timed(suite: string, work: () => Promise<void>, leftOver: (reason: string) => void): Promise<void> {
    const { pacer } = this.record;
    const before = { at: Date.now(), requests: pacer.requests, waited: pacer.waitedMs };
    try {
      await work();
    } catch (error) {
      if (!(error instanceof NotApplicable)) {
        await this.stopIfGone(suite, error);
        throw new RunStopped(`${familyName(this.family.family)}: the ${labelOf(suite)} stopped: ${(error as Error).message?.split("\n")[0] ?? String(error)}`, undefined, { cause: error });
      }
      leftOver(error.message);
    }
    await this.stopIfGone(suite);
    this.record.timings.push({
      suite,
      family: this.family.family,
      durationMs: Date.now() - before.at,
      requests: pacer.requests - before.requests,
      pacingWaitMs: pacer.waitedMs - before.waited,
    });
  }

  /** Stops the run when the server no longer accepts connections. */
  private async stopIfGone(suite: string, cause?: unknown): Promise<void> {
    const baseUrl = this.ctx.target.baseUrl;
    const down = await tcpProblem(baseUrl);
    if (down) throw new RunStopped(`${familyName(this.family.family)}: ${baseUrl} stopped answering during the ${labelOf(suite)} (${down})`, undefined, { cause });
  }

  /** What a suite that stopped early leaves: each item it had not recorded, with the reason. */
  private leftOver<T>(list: T[], add: (item: T, reason: string) => void): (reason: string) => void {
    return (reason) => {
      for (const item of list) if (!this.recorded.has(item)) add(item, reason);
    };
  }

  private notApplicableCheck(source: string): (check: ResponseCheck, reason: string) => void {
    return (check, reason) => this.record.addCheck(this.family, check, source, { verdict: "not-applicable", reasons: [reason], durationMs: 0, decisions: [] });
  }
}

function labelOf(suite: string): string {
  return SUITE_LABELS[suite] ?? suite;
}
