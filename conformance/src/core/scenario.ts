/**
 * Behaviour scenarios: plain TypeScript functions that make HTTP requests through a
 * FamilyContext and judge a rule only a sequence of requests can show (idempotent replay,
 * state transitions, rate-limit windows). They run after the family's Dredd suite and probes,
 * in the same report, with the same result model.
 *
 *   export const replayReturnsOriginal: Scenario = {
 *     id: "family-a/idempotency/replay", family: "family-a", profile: "seed",
 *     title: "a used Idempotency-Key returns the original charge",
 *     statements: ["A-IDEM-RULE-replay"],
 *     covers: [{ operationId: "createCharge", status: "201" }],
 *     async run(ctx, check) {
 *       const first = await ctx.send("createCharge", {...});
 *       check.response("createCharge", "201", first);   // schema-checked like every response
 *       check.that(..., "the replay returned another charge");
 *     },
 *   };
 *
 * A scenario throws NotApplicable (from check-context.ts) when the target lacks what it needs.
 */
import type { Profile } from "./profiles/schema-profile.ts";
import { NotApplicable, type FamilyContext } from "./check-context.ts";
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import type { CheckResult, ResponsePair } from "./results.ts";
import type { ObservedResponse } from "./validate.ts";
import { inCheck } from "./check-scope.ts";

export interface Scenario {
  /** Unique, stable: `<family>/<area>/<rule>`. */
  id: string;
  family: FamilyId;
  title: string;
  /** `seed`: the document states the rule; `full`: a decision of the project (not applicable under seed). */
  profile: Profile;
  /** With profile full: the decision the rule comes from. */
  decision?: string;
  /** Statement ids of spec/statements.yaml the scenario enforces. */
  statements: string[];
  /** Documented responses the scenario exercises (for coverage). */
  covers?: ResponsePair[];
  /** `exhaust`: uses up rate limits, so it runs after every other check. */
  stage?: "main" | "exhaust";
  /**
   * `any`: the scenario makes and reads only its own records (no fixture, no other key of the
   * primary account), so the run may send it on another account of the target to spread the
   * requests over the accounts' rate limits (core/account-plan.ts). Default: the primary account.
   */
  account?: "any";
  /**
   * The scenario waits for a rate-limit window to renew (up to a window's length): a run that
   * must be quick (a mutation unit) gives its target windows of a second.
   */
  waitsForWindow?: true;
  run(ctx: FamilyContext, check: ScenarioAssertions): Promise<void>;
}

/** Collects a scenario's problems instead of stopping at the first. */
export class ScenarioAssertions {
  readonly problems: string[] = [];
  /** What the scenario could not judge on this target, and why (the reasons of a pass). */
  readonly unjudged: string[] = [];

  constructor(private readonly ctx: FamilyContext) {}

  /** Records a problem when `condition` is false. */
  that(condition: boolean, problem: string): void {
    if (!condition) this.problems.push(problem);
  }

  /** Records a part of the rule this target gives no way to judge, while the rest is judged. */
  notJudged(why: string): void {
    this.unjudged.push(why);
  }

  /** Validates a response against a documented response under the run's profile. */
  response(operationId: string, status: string, response: ObservedResponse, label = `${operationId} ${status}`): boolean {
    const problems = this.ctx.problems(operationId, status, response);
    this.problems.push(...problems.map((p) => `${label}: ${p}`));
    return problems.length === 0;
  }
}

/** Runs one scenario; its result is the same shape as every other check's. */
export async function runScenario(
  scenario: Scenario,
  ctx: FamilyContext,
): Promise<Pick<CheckResult, "verdict" | "reasons" | "durationMs">> {
  const started = Date.now();
  if (scenario.profile === "full" && ctx.profile === "seed") {
    return {
      verdict: "not-applicable",
      reasons: [`decision ${scenario.decision ?? "of the project"}: the document does not state this rule (checked under --profile full)`],
      durationMs: 0,
    };
  }
  if (ctx.mock) {
    return { verdict: "not-applicable", reasons: ["a stateless mock cannot show a rule that needs a sequence of requests"], durationMs: 0 };
  }
  const assertions = new ScenarioAssertions(ctx);
  try {
    await inCheck(scenario.id, () => scenario.run(ctx, assertions));
  } catch (error) {
    if (error instanceof NotApplicable) return { verdict: "not-applicable", reasons: [error.message], durationMs: Date.now() - started };
    assertions.problems.push(`the scenario stopped: ${(error as Error).message}`);
  }
  return {
    verdict: assertions.problems.length === 0 ? "pass" : "fail",
    reasons: assertions.problems.length === 0 ? assertions.unjudged : assertions.problems,
    durationMs: Date.now() - started,
  };
}
