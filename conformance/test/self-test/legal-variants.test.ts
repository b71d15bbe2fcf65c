/**
 * The suites against faithful servers that decided differently, one per kind of decision
 * marking (legal-variants.ts): each must pass `seed` with no failure and fail `full` where its
 * choice differs. A kind of marking the contract has and no generator covers fails the
 * catalogue test. A table of the outcomes is printed at the end.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { failed, type CheckResult, type RunReport } from "../../src/core/results.ts";
import { formatReport } from "../../src/runner/report.ts";
import { failures, runAgainstSandbox, SMALL_PLAN } from "../sandbox-run.ts";
import { ALL_MARKINGS, GENERATORS, kindsWithoutGenerator, legalVariants, startLegalVariant, type LegalVariant } from "./legal-variants.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const VARIANTS = legalVariants();

interface Row {
  kinds: string;
  decisions: string;
  variant: string;
  seed: string;
  full: string;
}
const rows: Row[] = [];

afterAll(() => {
  if (rows.length === 0) return;
  const columns: Array<keyof Row> = ["kinds", "decisions", "variant", "seed", "full"];
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ");
  console.log(["legal variants (marking kind, decisions, variant, seed result, full result):", line(columns), line(widths.map((w) => "-".repeat(w))), ...rows.map((r) => line(columns.map((c) => r[c])))].join("\n"));
});

/** A full failure the variant's choice explains: on an operation it changed, or naming one of its decisions. */
function attributable(v: LegalVariant, report: RunReport): CheckResult[] {
  const operations = new Set(v.markings.map((m) => m.operationId));
  const decisions = new Set(v.markings.map((m) => m.decision));
  return failed(report).filter((r) => [...operations].some((op) => r.id.includes(`/${op}/`)) || r.decisions.some((d) => decisions.has(d)));
}

/** Limits and their headers are seen only with a small plan and the exhaust stage. */
const aboutLimits = (v: LegalVariant) => v.markings.some((m) => m.decision === "D09" || /ratelimit|retry-after/i.test(m.name ?? ""));

describe("faithful servers that decided differently, generated from the decision markings", () => {
  it("every kind of marking in the contract has a variant generator", () => {
    expect(kindsWithoutGenerator(), "kinds of marking without a legal variant").toEqual([]);
    // Each generator's kinds that the contract has give at least one variant.
    const present = new Set(ALL_MARKINGS.map((m) => m.kind));
    for (const generator of GENERATORS) {
      if (generator.kinds.some((k) => present.has(k))) expect(generator.make(ALL_MARKINGS).length, generator.kinds.join(", ")).toBeGreaterThan(0);
    }
  });

  for (const v of VARIANTS) {
    it(`${v.name}: ${v.choice}; passes seed${v.unobservable ? "" : ", fails full"}`, { timeout: 240_000 }, async () => {
      const setup = {
        proxy: (upstream: string, keys: Parameters<typeof startLegalVariant>[2]) => startLegalVariant(upstream, v, keys),
        families: v.families,
        adjustTarget: v.adjustTarget,
        ...(aboutLimits(v) ? { plan: SMALL_PLAN, exhaust: true } : {}),
      };
      const seed = await runAgainstSandbox(setup, cleanups);
      const seedFailures = failures(seed);
      let caught: CheckResult[] = [];
      if (!v.unobservable) {
        const full = await runAgainstSandbox({ ...setup, profile: "full" }, cleanups);
        caught = attributable(v, full);
      }
      rows.push({
        kinds: [...new Set(v.markings.map((m) => m.kind))].join(" "),
        decisions: [...new Set(v.markings.map((m) => m.decision))].sort().join(","),
        variant: v.name.replace(/ \[.*$/, ""),
        seed: seedFailures.length === 0 ? "pass" : `FAIL ${seedFailures.length}: ${failed(seed).map((r) => r.id).join(", ")}`,
        full: v.unobservable ? `not observable: ${v.unobservable}` : caught.length > 0 ? `fail (${caught.length}, e.g. ${caught[0]!.id})` : "PASS (choice not caught)",
      });
      expect(seedFailures, formatReport(seed)).toEqual([]);
      if (!v.unobservable) expect(caught.map((r) => r.id), `full must fail ${v.name}`).not.toEqual([]);
    });
  }
});
