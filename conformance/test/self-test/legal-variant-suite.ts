/**
 * The suites against faithful servers that decided differently, one per kind of decision
 * marking (legal-variants.ts): each must pass `seed` with no failure and fail `full` where its
 * choice differs. A kind of marking the contract has and no generator covers fails the
 * catalogue test. A table of the outcomes is printed at the end, a row per variant.
 *
 * Seed runs one composed server per group of variants that act on no common element
 * (legal-variant-groups.ts): passing it shows each member passing; when it fails, each member
 * runs alone. Full runs each variant alone and stops at the first failure its choice explains.
 * The groups are split over test files (legal-variants-N.test.ts), which vitest runs side by side.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { failed, type CheckResult } from "../../src/core/results.ts";
import { formatReport } from "../../src/runner/report.ts";
import { failures, runAgainstSandbox, type RunSetup } from "../sandbox-run.ts";
import { FAMILY_IDS, loadFamilyContract, type FamilyId } from "@payment-collection/contract/model/index.ts";
import { FAMILY_CHECKS } from "../../src/checks/index.ts";
import type { ResponseCheck } from "../../src/checks/response-check.ts";
import { SCENARIOS } from "../../src/scenarios/index.ts";
import type { Scenario } from "../../src/core/scenario.ts";
import { ALL_MARKINGS, GENERATORS, kindsWithoutGenerator, legalVariants, startLegalVariant, type LegalVariant } from "./legal-variants.ts";
import { composeGroups, familiesOfGroup, startComposedVariants, variantSites, type ComposedServer } from "./legal-variant-groups.ts";

const cleanups: Array<() => Promise<void>> = [];

const VARIANTS = legalVariants();

interface Row {
  kinds: string;
  decisions: string;
  variant: string;
  seed: string;
  full: string;
}
const rows: Row[] = [];

function printRows(): void {
  if (rows.length === 0) return;
  const columns: Array<keyof Row> = ["kinds", "decisions", "variant", "seed", "full"];
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ");
  console.log(["legal variants (marking kind, decisions, variant, seed result, full result):", line(columns), line(widths.map((w) => "-".repeat(w))), ...rows.map((r) => line(columns.map((c) => r[c])))].join("\n"));
}

/** Whether a result is a full failure the variant's choice explains: on an operation it changed, or naming one of its decisions. */
function attributableTo(v: LegalVariant): (r: CheckResult) => boolean {
  const operations = new Set(v.markings.map((m) => m.operationId));
  const decisions = [...new Set(v.markings.map((m) => m.decision))];
  return (r) =>
    r.verdict === "fail" &&
    ([...operations].some((op) => r.id.includes(`/${op}/`)) ||
      r.covers.some((c) => operations.has(c.operationId)) ||
      r.decisions.some((d) => decisions.includes(d)) ||
      r.reasons.some((reason) => decisions.some((d) => new RegExp(`\\b${d}\\b`).test(reason))));
}

/**
 * The full failures the variant's choice explains. One is proof enough, so each run stops at
 * the first (stopWhen), and the selection (fullSelection) runs in parts, each only when the
 * ones before caught nothing:
 * - its response and generic checks, without scenarios;
 * - its scenarios alone: the document's (seed) ones first, then those of the variant's
 *   decisions, then the others (a webhook retry waits seconds). This part goes first when a
 *   scenario is one of the variant's decisions and the variant leaves the requests as they
 *   are: a changed answer or behaviour is most likely seen there (what a server accepts, by
 *   the generic checks' data);
 * - the whole selection as one run, as before (with the generic checks made from the
 *   scenarios' traffic).
 * A choice full cannot see yet (a gap) gets only the whole run, to its end, as before.
 */
async function caughtByFull(v: LegalVariant, setup: RunSetup, gap: boolean): Promise<CheckResult[]> {
  const explains = attributableTo(v);
  const run = async (selection: Pick<RunSetup, "checks" | "scenarios" | "derived">) =>
    failed(await runAgainstSandbox({ ...setup, ...selection, profile: "full", stopWhen: explains }, cleanups)).filter(explains);
  const selection = fullSelection(v);
  if (gap) return run(selection);
  const decisions = new Set(v.markings.map((m) => m.decision));
  const rank = (s: Scenario) => (s.profile === "seed" ? 0 : decisions.has(s.decision ?? "") ? 1 : 2);
  const scenarios = [...(selection.scenarios ?? SCENARIOS)].sort((x, y) => rank(x) - rank(y));
  const parts = [() => run({ ...selection, scenarios: [] }), () => run({ checks: Object.fromEntries(FAMILY_IDS.map((f) => [f, [] as ResponseCheck[]])) as RunSetup["checks"], scenarios, derived: false })];
  if (scenarios.some((s) => rank(s) === 1) && !variantSites(v).some((site) => site.side === "request")) parts.reverse();
  for (const part of parts) {
    const caught = await part();
    if (caught.length > 0) return caught;
  }
  return run(selection);
}

/**
 * The checks a full run needs to see a variant: those of the operations it changed or of its
 * decisions (all of them when a marking is the document's or a webhook's, not one operation's).
 */
function fullSelection(v: LegalVariant): Pick<RunSetup, "checks" | "scenarios"> {
  const operations = new Set(v.markings.map((m) => m.operationId));
  const known = (family: FamilyId) => new Set(loadFamilyContract(family).operations.map((o) => o.operationId));
  if (v.families.some((f) => v.markings.some((m) => m.family === f && !known(f).has(m.operationId)))) return {};
  const decisions = new Set(v.markings.map((m) => m.decision));
  return {
    checks: Object.fromEntries(FAMILY_IDS.map((f) => [f, FAMILY_CHECKS[f].filter((c) => operations.has(c.operationId) || decisions.has(c.decision ?? ""))])) as RunSetup["checks"],
    scenarios: SCENARIOS.filter((s) => (s.covers ?? []).some((c) => operations.has(c.operationId)) || decisions.has(s.decision ?? "")),
  };
}

/**
 * Choices the full profile cannot see today, each with why: the test fails when full starts
 * catching one (the entry is then stale and goes).
 */
const FULL_GAPS: Record<string, string> = {};

/** Limits are seen only in the exhaust stage (the slowest runs: only where a variant changes the limits). */
const aboutLimits = (v: LegalVariant) => v.kinds.includes("behaviour:D09");

/** A server without limits: the exhaust stage finds none (under a generous plan the sandbox never answers 429). */
const runNeeds = (v: LegalVariant): Pick<RunSetup, "plan" | "exhaust"> => (aboutLimits(v) ? { plan: "generous", exhaust: true } : {});

/** The variants that share a composed server for their seed run (legal-variant-groups.ts). */
export const LEGAL_VARIANT_GROUPS = composeGroups(VARIANTS, (v) => JSON.stringify(runNeeds(v)));

/** One variant's own run: its proxy in front of a fresh sandbox. */
function setupOf(v: LegalVariant): RunSetup {
  return { proxy: (upstream, keys) => startLegalVariant(upstream, v, keys), families: v.families, adjustTarget: v.adjustTarget, ...runNeeds(v) };
}

interface ComposedSeed {
  /** Seed passed the composed server, with no overlapping change: it shows each member passing. */
  passed: boolean;
  /** Seed failed it with no overlapping change: if every member then passes alone, the combination is at fault. */
  failedSeed: boolean;
  /** Why it does not count: failures, the run's stop, overlapping changes. */
  why: string[];
  /** Members that passed seed alone since. */
  passedAlone: Set<LegalVariant>;
}

const composedSeeds = new Map<LegalVariant[], Promise<ComposedSeed>>();

/** The seed run of a group's composed server, once for all its members. */
function composedSeed(group: LegalVariant[]): Promise<ComposedSeed> {
  let outcome = composedSeeds.get(group);
  if (!outcome) {
    outcome = (async () => {
      let server: ComposedServer | undefined;
      const setup: RunSetup = {
        proxy: async (upstream, keys) => (server = await startComposedVariants(upstream, group, keys)),
        families: familiesOfGroup(group),
        adjustTarget: (target) => group.forEach((v) => v.adjustTarget?.(target)),
        ...runNeeds(group[0]!),
      };
      let why: string[];
      try {
        why = failures(await runAgainstSandbox(setup, cleanups)).map((f) => `composed seed run: ${f}`);
      } catch (error) {
        why = [`the composed seed run stopped: ${(error as Error).message.split("\n")[0]}`];
      }
      const overlaps = server?.overlaps ?? [];
      return { passed: why.length === 0 && overlaps.length === 0, failedSeed: why.length > 0 && overlaps.length === 0, why: [...why, ...overlaps.slice(0, 3)], passedAlone: new Set<LegalVariant>() };
    })();
    composedSeeds.set(group, outcome);
  }
  return outcome;
}

/** The catalogue test (with part 1) and one part of the variants (`part` of `parts`, by position). */
export function legalVariantSuite(part = 1, parts = 1): void {
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });
  afterAll(printRows);
  describe(`faithful servers that decided differently, generated from the decision markings${parts > 1 ? ` (part ${part} of ${parts})` : ""}`, () => {
    if (part === 1) it("every kind of marking in the contract has a variant generator", () => {
      expect(kindsWithoutGenerator(), "kinds of marking without a legal variant").toEqual([]);
      // A kind the generators do not know is reported (what a new kind of marking would be).
      const unknown = { ...ALL_MARKINGS[0]!, kind: "minItems@request" };
      expect(kindsWithoutGenerator([...ALL_MARKINGS, unknown])).toEqual(["minItems@request"]);
      // Each generator's kinds that the contract has give at least one variant.
      const present = new Set(ALL_MARKINGS.map((m) => m.kind));
      for (const generator of GENERATORS) {
        if (generator.kinds.some((k) => present.has(k))) expect(generator.make(ALL_MARKINGS).length, generator.kinds.join(", ")).toBeGreaterThan(0);
      }
    });

    for (const group of LEGAL_VARIANT_GROUPS.filter((_, i) => i % parts === part - 1)) {
      for (const v of group) {
        const base = v.name.replace(/ \[.*$/, "");
        const gap = FULL_GAPS[base];
        it(`${v.name}: ${v.choice}; passes seed${v.unobservable ? "" : gap ? " (full cannot see it yet)" : ", fails full"}`, { timeout: 240_000 }, async () => {
          const setup = setupOf(v);
          // The group's composed server passing seed shows every member passing it; only when it
          // does not (or cannot count) does each member run alone, naming the one that fails.
          const composed = group.length > 1 ? await composedSeed(group) : undefined;
          let seedCell = composed?.passed ? `pass (composed with ${group.length - 1} others: group ${LEGAL_VARIANT_GROUPS.indexOf(group) + 1})` : "pass";
          let seedFailures: string[] = [];
          let seedReport = "";
          if (!composed?.passed) {
            const seed = await runAgainstSandbox(setup, cleanups);
            const seedFailed = failed(seed).map((r) => r.id);
            seedFailures = failures(seed);
            seedReport = formatReport(seed);
            seedCell = seedFailed.length === 0 ? "pass" : `FAIL ${seedFailed.length}: ${seedFailed.slice(0, 3).join(", ")}${seedFailed.length > 3 ? ", ..." : ""}`;
            if (composed) seedCell += ` (alone: ${composed.why[0]!.slice(0, 120)})`;
          }
          let caught: CheckResult[] = [];
          if (!v.unobservable) caught = await caughtByFull(v, setup, gap !== undefined);
          rows.push({
            kinds: [...new Set(v.markings.map((m) => m.kind))].join(" "),
            decisions: [...new Set(v.markings.map((m) => m.decision))].sort().join(","),
            variant: base,
            seed: seedCell,
            full: v.unobservable ? `not observable: ${v.unobservable}` : caught.length > 0 ? `fail (first: ${caught[0]!.id})` : gap ? `gap: ${gap}` : "PASS (choice not caught)",
          });
          expect(seedFailures, seedReport).toEqual([]);
          if (composed && !composed.passed && composed.failedSeed) {
            composed.passedAlone.add(v);
            // The last member: a composed server that seed fails while each member passes alone is
            // a combination of legal choices seed refuses.
            if (composed.passedAlone.size === group.length) expect(composed.why, `seed fails the composed server of ${group.map((m) => m.name).join(", ")}, yet passes each alone`).toEqual([]);
          }
          if (v.unobservable) return;
          if (gap) expect(caught.map((r) => r.id), `full now catches ${base}: remove it from FULL_GAPS`).toEqual([]);
          else expect(caught.map((r) => r.id), `full must fail ${v.name}`).not.toEqual([]);
        });
      }
    }
  });
}
