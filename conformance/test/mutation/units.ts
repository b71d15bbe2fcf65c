/**
 * The conformance suites cut into units that need nothing from one another, for mutation
 * testing of the sandbox (`npm run mutation`): each unit runs on a sandbox of its own, so that
 * Stryker's per-test coverage runs, for a mutant, only the units whose requests reach it.
 *
 * The units are read from the suites themselves (the response checks, the scenarios, the
 * generic check classes, by family and stage), never listed by hand: a new check or scenario
 * is in the mutation run as soon as it is in the suites.
 */
import type { FamilyId } from "@payment-collection/contract/model/layout.ts";
import { FAMILY_CHECKS } from "../../src/checks/index.ts";
import type { ResponseCheck } from "../../src/checks/response-check.ts";
import type { Scenario } from "../../src/core/scenario.ts";
import { DERIVED_CLASSES, EXHAUST_CLASSES, type DerivedClass } from "../../src/derived/index.ts";
import type { RunOptions } from "../../src/runner/run.ts";
import { SCENARIOS } from "../../src/scenarios/index.ts";

export type Stage = "main" | "exhaust";

export interface SuiteUnit {
  /** The vitest test name: Stryker's test id, so it must stay stable. */
  name: string;
  family: FamilyId;
  stage: Stage;
  /** The unit judges rate limits: the sandbox runs a plan with limits it can use up. */
  limits: boolean;
  /**
   * The unit judges cross-origin access (D44): its sandbox grants browsers of the temporary
   * sandbox's origins and its target declares them. The others' sandboxes grant none, so that
   * only these units reach the sandbox's CORS code, and Stryker runs only them for its mutants.
   */
  crossOrigin: boolean;
  /**
   * The unit judges the refusal of private webhook targets (D48): its sandbox refuses them, as a
   * production server does, instead of calling the suites' receivers on 127.0.0.1.
   */
  refusesPrivateWebhookTargets: boolean;
  /** The unit waits for a rate-limit window to renew: its sandbox's windows last a second. */
  secondWindows: boolean;
  /** What the unit runs, as the runner's options. */
  options: Pick<RunOptions, "checks" | "scenarios" | "derived" | "exhaust">;
}

const FAMILIES: FamilyId[] = ["family-a", "family-b"];

function only(family: FamilyId, checks: ResponseCheck[]): Record<FamilyId, ResponseCheck[]> {
  return { "family-a": [], "family-b": [], [family]: checks };
}

const stageOf = (item: { stage?: Stage }): Stage => item.stage ?? "main";

/** One unit per family and stage for the response checks, per scenario, per generic check class. */
export function suiteUnits(): SuiteUnit[] {
  const units: SuiteUnit[] = [];
  for (const family of FAMILIES) {
    for (const stage of ["main", "exhaust"] as const) {
      const checks = FAMILY_CHECKS[family].filter((check) => stageOf(check) === stage);
      if (checks.length > 0) {
        units.push({ name: `${family} response checks (${stage})`, family, stage, limits: stage === "exhaust", crossOrigin: false, refusesPrivateWebhookTargets: false, secondWindows: false, options: { checks: only(family, checks), scenarios: [], derived: false, exhaust: stage === "exhaust" } });
      }
    }
    for (const scenario of SCENARIOS.filter((s: Scenario) => s.family === family)) {
      const stage = stageOf(scenario);
      // Scenario ids are `<family>/<area>/<rule>` (core/scenario.ts).
      const area = scenario.id.split("/")[1];
      const limits = stage === "exhaust" || area === "rate-limits";
      units.push({ name: `${scenario.id} (${stage})`, family, stage, limits, crossOrigin: false, refusesPrivateWebhookTargets: area === "webhook-targets", secondWindows: scenario.waitsForWindow === true, options: { checks: only(family, []), scenarios: [scenario], derived: false, exhaust: stage === "exhaust" } });
    }
    for (const derivedClass of DERIVED_CLASSES) {
      const stage: Stage = (EXHAUST_CLASSES as readonly DerivedClass[]).includes(derivedClass) ? "exhaust" : "main";
      units.push({
        name: `${family} generic checks ${derivedClass} (${stage})`,
        family,
        stage,
        limits: stage === "exhaust",
        crossOrigin: derivedClass === "cors",
        refusesPrivateWebhookTargets: false,
        secondWindows: false,
        options: { checks: only(family, []), scenarios: [], derived: { classes: [derivedClass] }, exhaust: stage === "exhaust" },
      });
    }
  }
  return units;
}
