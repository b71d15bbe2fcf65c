/**
 * The generic checks derived from the contract and the run's own traffic, one module per class
 * (shared.ts names them). The runner calls `runDerived` for each family after the response
 * checks and scenarios (stage main), and again in the exhaust stage for the rate-limit class.
 */
import type { FamilyContext } from "../core/check-context.ts";
import { inCheck } from "../core/check-scope.ts";
import type { CheckResult } from "../core/results.ts";
import { loadCatalogue, type Catalogue } from "../core/statement-map.ts";
import * as consistency from "./consistency.ts";
import * as cors from "./cors.ts";
import * as idempotencyKeySpace from "./idempotency-key-space.ts";
import * as ignoredAuthentication from "./ignored-authentication.ts";
import * as negativeData from "./negative-data.ts";
import * as positiveData from "./positive-data.ts";
import * as rateLimits from "./rate-limits.ts";
import * as tenantIsolation from "./tenant-isolation.ts";
import { DEFAULT_DERIVED_SETTINGS, DERIVED_CLASSES, DerivedEnv, type DerivedClass, type DerivedOutcome, type DerivedSettings } from "./shared.ts";
import { prime } from "./traffic.ts";

export { DERIVED_CLASSES, DEFAULT_DERIVED_SETTINGS, type DerivedClass, type DerivedSettings };

interface ClassModule {
  run(env: DerivedEnv): Promise<void>;
  /** Statements the class names for some of its results only (e.g. a bucket's limit). */
  VARIANT_STATEMENTS?: readonly string[];
  /**
   * The decision a class holds a server to where the contract does not model it, so that no
   * statement of the catalogue names the class (D44, cross-origin access): its results name
   * the decision and belong to `full`.
   */
  DECISION?: string;
}

export const CLASS_MODULES: Record<DerivedClass, ClassModule> = {
  "ignored-authentication": ignoredAuthentication,
  "tenant-isolation": tenantIsolation,
  "negative-data": negativeData,
  consistency,
  "idempotency-key-space": idempotencyKeySpace,
  "rate-limits": rateLimits,
  "positive-data": positiveData,
  cors,
};

const STATEMENT_FAMILY: Record<string, string[]> = { A: ["family-a"], B: ["family-b"], both: ["family-a", "family-b"] };

/**
 * The class's statements for a family, as the statement catalogue names them (`enforcedBy`):
 * the catalogue is the one place that links a statement to the classes enforcing it.
 */
export function classStatements(derivedClass: DerivedClass, family: string, catalogue: Catalogue = loadCatalogue()): string[] {
  return catalogue.statements.filter((s) => s.enforcedBy?.includes(derivedClass) && STATEMENT_FAMILY[s.family]?.includes(family)).map((s) => s.id);
}

/** The statements every result of the class carries: its statements but those of single variants. */
function generalStatements(derivedClass: DerivedClass, family: string, catalogue: Catalogue | undefined): string[] {
  const variants = CLASS_MODULES[derivedClass].VARIANT_STATEMENTS ?? [];
  return classStatements(derivedClass, family, catalogue).filter((id) => !variants.includes(id));
}

/** The decisions every result of the class names: the one it holds a server to, when the contract does not model it. */
export function classDecisions(derivedClass: DerivedClass): string[] {
  const decision = CLASS_MODULES[derivedClass].DECISION;
  return decision ? [decision] : [];
}

/** Classes that use up rate limits: they run in the exhaust stage. */
export const EXHAUST_CLASSES: readonly DerivedClass[] = ["rate-limits"];

export interface DerivedOptions extends Partial<DerivedSettings> {
  /** Classes to run (default: all). */
  classes?: DerivedClass[];
  /**
   * The operations whose checks the classes run (default: every operation). The priming still
   * sends an exemplar of every operation, so that the checks of these find the records and the
   * traffic they would find in a whole run; a class's units on other operations are left out.
   */
  operations?: readonly string[];
}

export interface DerivedRun {
  results: CheckResult[];
  /** Per class; `priming` is the exemplars sent for operations the run had no success of. */
  requests: Array<{ derivedClass: DerivedClass | "priming"; requests: number; durationMs: number }>;
}

/** How the runner follows a derived stage: each result as it is made, and whether to stop. */
export interface DerivedHooks {
  /** Called with each result as soon as its class records it. */
  result?: (result: CheckResult) => void;
  /** True once the run is to stop: the classes (and their operations) not begun yet are left out. */
  stopped?: () => boolean;
}

export async function runDerived(
  ctx: FamilyContext,
  stage: "main" | "exhaust",
  options: DerivedOptions,
  catalogue: Catalogue | undefined,
  otherFamilyKey: string | undefined,
  hooks: DerivedHooks = {},
): Promise<DerivedRun> {
  const settings: DerivedSettings = { ...DEFAULT_DERIVED_SETTINGS, ...options };
  const classes = (options.classes ?? [...DERIVED_CLASSES]).filter((c) => EXHAUST_CLASSES.includes(c) === (stage === "exhaust"));
  const run: DerivedRun = { results: [], requests: [] };
  if (classes.length === 0) return run;
  const toResult = (derivedClass: DerivedClass, o: DerivedOutcome, durationMs: number): CheckResult => ({
        id: `${ctx.family}/derived/${derivedClass}/${o.operationId}/${o.variant}`,
        source: "derived",
        family: ctx.family,
        title: `[${derivedClass}] ${o.operationId}: ${o.title}`,
        profile: CLASS_MODULES[derivedClass].DECISION ? "full" : "seed",
        statements: [...new Set([...generalStatements(derivedClass, ctx.family, catalogue), ...(o.statements ?? [])])],
        decisions: classDecisions(derivedClass),
        covers: o.covers,
        verdict: o.verdict,
        reasons: o.reasons,
        durationMs,
        derivedClass,
        reproduction: o.reproduction,
        example: o.example,
      });
  if (ctx.mock) {
    for (const derivedClass of classes) {
      run.results.push({
        id: `${ctx.family}/derived/${derivedClass}`, source: "derived", family: ctx.family, title: `[${derivedClass}] every operation`, profile: "seed",
        statements: classStatements(derivedClass, ctx.family, catalogue), decisions: classDecisions(derivedClass), covers: [], verdict: "not-applicable",
        reasons: ["a stateless mock keeps no records: the generic checks need a server that does"], durationMs: 0, derivedClass,
      });
    }
    for (const result of run.results) hooks.result?.(result);
    return run;
  }
  // Every stage that runs a class primes: the exhaust stage too, when no main-stage class ran
  // (the rate limits repeat a request of every operation); after a main stage it sends nothing.
  {
    const priming = new DerivedEnv(ctx, "positive-data", settings, catalogue, otherFamilyKey);
    const at = Date.now();
    await inCheck(`${ctx.family}/derived/priming`, () => prime(priming));
    run.requests.push({ derivedClass: "priming", requests: priming.requests, durationMs: Date.now() - at });
  }
  for (const derivedClass of classes) {
    if (hooks.stopped?.()) break;
    const at = Date.now();
    // Each result is passed on as it is recorded (a stop may follow it), timed from the one before.
    let previous = at;
    const env = new DerivedEnv(ctx, derivedClass, settings, catalogue, otherFamilyKey, {
      operations: options.operations,
      recorded: (outcome) => {
        const result = toResult(derivedClass, outcome, Date.now() - previous);
        previous = Date.now();
        run.results.push(result);
        hooks.result?.(result);
      },
      stopped: hooks.stopped,
    });
    await CLASS_MODULES[derivedClass].run(env);
    const durationMs = Date.now() - at;
    const known = run.requests.find((r) => r.derivedClass === derivedClass);
    if (known) {
      known.requests += env.requests;
      known.durationMs += durationMs;
    } else run.requests.push({ derivedClass, requests: env.requests, durationMs });
  }
  return run;
}
