/**
 * The generic checks derived from the contract and the run's own traffic, one module per class
 * (shared.ts names them). The runner calls `runDerived` for each family after the response
 * checks and scenarios (stage main), and again in the exhaust stage for the rate-limit class.
 */
import type { FamilyContext } from "../core/check-context.ts";
import type { CheckResult } from "../core/results.ts";
import type { Catalogue } from "../core/statement-map.ts";
import * as consistency from "./consistency.ts";
import * as idempotencyKeySpace from "./idempotency-key-space.ts";
import * as ignoredAuthentication from "./ignored-authentication.ts";
import * as negativeData from "./negative-data.ts";
import * as positiveData from "./positive-data.ts";
import * as rateLimits from "./rate-limits.ts";
import * as tenantIsolation from "./tenant-isolation.ts";
import { DEFAULT_DERIVED_SETTINGS, DERIVED_CLASSES, DerivedEnv, type DerivedClass, type DerivedSettings } from "./shared.ts";
import { prime } from "./traffic.ts";

export { DERIVED_CLASSES, DEFAULT_DERIVED_SETTINGS, type DerivedClass, type DerivedSettings };

interface ClassModule {
  run(env: DerivedEnv): Promise<void>;
  /** The class's own statements, by family (or for every family). */
  STATEMENTS: Record<string, string[]> | string[];
}

export const CLASS_MODULES: Record<DerivedClass, ClassModule> = {
  "ignored-authentication": ignoredAuthentication,
  "tenant-isolation": tenantIsolation,
  "negative-data": negativeData,
  consistency,
  "idempotency-key-space": idempotencyKeySpace,
  "rate-limits": rateLimits,
  "positive-data": positiveData,
};

/** The class's statements for a family, known without a run (static coverage). */
export function classStatements(derivedClass: DerivedClass, family: string): string[] {
  const statements = CLASS_MODULES[derivedClass].STATEMENTS;
  return Array.isArray(statements) ? (family === "family-b" ? statements : []) : (statements[family] ?? []);
}

/** Classes that use up rate limits: they run in the exhaust stage. */
export const EXHAUST_CLASSES: readonly DerivedClass[] = ["rate-limits"];

export interface DerivedOptions extends Partial<DerivedSettings> {
  /** Classes to run (default: all). */
  classes?: DerivedClass[];
}

export interface DerivedRun {
  results: CheckResult[];
  /** Per class; `priming` is the exemplars sent for operations the run had no success of. */
  requests: Array<{ derivedClass: DerivedClass | "priming"; requests: number; durationMs: number }>;
}

export async function runDerived(
  ctx: FamilyContext,
  stage: "main" | "exhaust",
  options: DerivedOptions,
  catalogue: Catalogue | undefined,
  otherFamilyKey: string | undefined,
): Promise<DerivedRun> {
  const settings: DerivedSettings = { ...DEFAULT_DERIVED_SETTINGS, ...options };
  const classes = (options.classes ?? [...DERIVED_CLASSES]).filter((c) => EXHAUST_CLASSES.includes(c) === (stage === "exhaust"));
  const run: DerivedRun = { results: [], requests: [] };
  if (classes.length === 0) return run;
  const toResult = (derivedClass: DerivedClass, env: DerivedEnv, durationMs: number) =>
    env.outcomes.map(
      (o): CheckResult => ({
        id: `${ctx.family}/derived/${derivedClass}/${o.operationId}/${o.variant}`,
        source: "derived",
        family: ctx.family,
        title: `[${derivedClass}] ${o.operationId}: ${o.title}`,
        profile: "seed",
        statements: [...new Set([...classStatements(derivedClass, ctx.family), ...(o.statements ?? [])])],
        decisions: [],
        covers: o.covers,
        verdict: o.verdict,
        reasons: o.reasons,
        durationMs: Math.round(durationMs / Math.max(env.outcomes.length, 1)),
        derivedClass,
        reproduction: o.reproduction,
        example: o.example,
      }),
    );
  if (ctx.mock) {
    for (const derivedClass of classes) {
      run.results.push({
        id: `${ctx.family}/derived/${derivedClass}`, source: "derived", family: ctx.family, title: `[${derivedClass}] every operation`, profile: "seed",
        statements: classStatements(derivedClass, ctx.family), decisions: [], covers: [], verdict: "not-applicable",
        reasons: ["a stateless mock keeps no records: the generic checks need a server that does"], durationMs: 0, derivedClass,
      });
    }
    return run;
  }
  if (stage === "main") {
    const priming = new DerivedEnv(ctx, "positive-data", settings, catalogue, otherFamilyKey);
    const at = Date.now();
    await prime(priming);
    run.requests.push({ derivedClass: "priming", requests: priming.requests, durationMs: Date.now() - at });
  }
  for (const derivedClass of classes) {
    const env = new DerivedEnv(ctx, derivedClass, settings, catalogue, otherFamilyKey);
    const at = Date.now();
    await CLASS_MODULES[derivedClass].run(env);
    const durationMs = Date.now() - at;
    run.results.push(...toResult(derivedClass, env, durationMs));
    const known = run.requests.find((r) => r.derivedClass === derivedClass);
    if (known) {
      known.requests += env.requests;
      known.durationMs += durationMs;
    } else run.requests.push({ derivedClass, requests: env.requests, durationMs });
  }
  return run;
}
