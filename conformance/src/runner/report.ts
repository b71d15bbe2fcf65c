/**
 * The readable summary of a run: per operation and documented response, each check with its
 * verdict (pass, FAIL with the reasons, n/a with why); then totals, the coverage of the
 * documented responses, run times and, on request, the statement mapping.
 */
import type { Catalogue } from "../core/statement-map.ts";
import { formatStatementCoverage, statementCoverage } from "./statement-coverage.ts";
import { familyName, loadFamilyContract } from "@payment-collection/contract/model/index.ts";
import { statementAppliesTo } from "@payment-collection/contract/statements.ts";
import { coverage, stoppedEarlyLine, type CheckResult, type RunReport } from "../core/results.ts";
import { formatDerivedCoverage } from "./derived-coverage.ts";
import { coverageShortfall, formatPercent, responseCoverage } from "./response-coverage.ts";
import { shortened } from "../core/describe-response.ts";

const MARK: Record<CheckResult["verdict"], string> = { pass: "pass", fail: "FAIL", "not-applicable": "n/a " };

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function resultLines(result: CheckResult, indent: string): string[] {
  const lines = [`${indent}${MARK[result.verdict]}  ${result.title}`];
  for (const reason of result.reasons) lines.push(`${indent}        ${result.verdict === "fail" ? "- " : ""}${reason}`);
  if (result.verdict === "fail") {
    for (const e of result.exchanges ?? []) lines.push(`${indent}        > ${e.method} ${e.url} -> ${e.status} ${shortened(e.body, 160)}`);
    for (const line of (result.reproduction ?? "").split("\n").filter(Boolean)) lines.push(`${indent}        $ ${line}`);
  }
  return lines;
}

export function totals(report: Pick<RunReport, "results">): Record<CheckResult["verdict"], number> {
  const count = { pass: 0, fail: 0, "not-applicable": 0 };
  for (const r of report.results) count[r.verdict] += 1;
  return count;
}

/** Per operation and response: every check with its verdict. */
export function formatResults(report: RunReport): string {
  const lines: string[] = [];
  for (const family of report.families) {
    const contract = loadFamilyContract(family);
    lines.push("", contract.title);
    const ofFamily = report.results.filter((r) => r.family === family);
    for (const op of contract.operations) {
      lines.push(`  ${op.operationId}  ${op.method} ${op.path}`);
      for (const response of op.responses) {
        const checks = ofFamily.filter((r) => r.covers.length === 1 && r.covers[0]!.operationId === op.operationId && r.covers[0]!.status === response.status);
        if (checks.length === 0) lines.push(`    ${response.status}  (no check)`);
        for (const result of checks) lines.push(...resultLines({ ...result, title: `${response.status}  ${result.title.replace(/^\S+ \d{3}: /, "")}` }, "    "));
      }
    }
    const others = ofFamily.filter((r) => r.covers.length !== 1);
    if (others.length > 0) {
      lines.push("  scenarios");
      for (const result of others) lines.push(...resultLines(result, "    "));
    }
  }
  return lines.join("\n");
}

/** Coverage of the documented (operation, status) pairs. */
export function formatCoverage(report: RunReport, detailed: boolean): string {
  const entries = coverage(report);
  const figure = responseCoverage(report);
  const targeted = entries.filter((e) => e.exercisedBy.length > 0 || e.notApplicable.length > 0);
  const lines = [
    `Coverage: ${figure.exercised} of ${figure.documented} documented responses (operation x status) exercised in this run (${formatPercent(figure.percent)}); ${targeted.length} of ${entries.length} have a check.`,
  ];
  for (const e of entries) {
    if (!detailed && e.exercisedBy.length > 0) continue;
    const who =
      e.exercisedBy.length > 0
        ? e.exercisedBy.map((r) => `${r.id} ${r.verdict}`).join(", ")
        : e.notApplicable.length > 0
          ? `not exercised: ${e.notApplicable[0]!.reasons[0] ?? "not applicable"}`
          : "NO CHECK";
    lines.push(`  ${e.family} ${e.operationId} ${e.status}: ${who}`);
  }
  return lines.join("\n");
}

/** For each statement of the catalogue that some check names: the checks and their verdicts. */
export function formatStatements(report: RunReport, catalogue: Catalogue): string {
  const byStatement = new Map<string, CheckResult[]>();
  for (const result of report.results) {
    for (const id of result.statements) byStatement.set(id, [...(byStatement.get(id) ?? []), result]);
  }
  const wire = catalogue.statements.filter((s) => s.wire && report.families.some((f) => statementAppliesTo(s, f)));
  const lines = [`Statements: ${[...byStatement.keys()].length} statements named by checks; ${wire.filter((s) => byStatement.has(s.id)).length} of ${wire.length} wire statements of the families run.`];
  const ids = [...new Set([...catalogue.statements.map((s) => s.id), ...byStatement.keys()])];
  for (const id of ids) {
    const results = byStatement.get(id);
    if (!results) continue;
    const verdicts = totals({ results });
    const known = catalogue.byId.has(id) ? "" : " (not in the catalogue)";
    lines.push(`  ${id}${known}: ${verdicts.pass} pass, ${verdicts.fail} fail, ${verdicts["not-applicable"]} n/a`);
    for (const r of results) lines.push(`      ${MARK[r.verdict]} ${r.id}`);
  }
  const unnamed = wire.filter((s) => !byStatement.has(s.id)).map((s) => s.id);
  if (unnamed.length > 0) lines.push(`  wire statements no check names yet: ${unnamed.join(", ")}`);
  return lines.join("\n");
}

export function formatTimings(report: RunReport): string {
  const lines = ["Run time:"];
  for (const t of report.timings) {
    const wait = t.pacingWaitMs > 0 ? `, ${seconds(t.pacingWaitMs)} waiting for rate-limit windows` : "";
    lines.push(`  ${t.family ?? "-"} ${t.suite}: ${seconds(t.durationMs)} (${t.requests} requests${wait})`);
  }
  lines.push(`  total: ${seconds(report.durationMs)}`);
  if (report.pacing && report.pacing.usage.length > 0) lines.push(`  pacing: ${pacingSummary(report.pacing)}`);
  return lines.join("\n");
}

/**
 * The requests a run's pacing fitted in the windows, the time it waited, and the floor its
 * requests allow (pacing-floor.ts): computed for windows that start with an account's first
 * request, so a server whose windows align to the clock may allow a run up to a window shorter.
 */
export function pacingSummary(pacing: NonNullable<RunReport["pacing"]>): string {
  const admitted = pacing.usage.reduce((sum, u) => sum + u.requests, 0);
  const { floor } = pacing;
  const why =
    floor.seconds > 0
      ? ` (${floor.bucket}: ${floor.requests} requests against a limit of ${floor.limit} per ${pacing.windowSeconds} s; up to a window less where windows align to the clock)`
      : "";
  return `${admitted} requests admitted on ${pacing.usage.length} accounts, ${seconds(pacing.waitedMs)} waiting; the limits need at least ${seconds(floor.seconds * 1000)} for them${why}`;
}

export interface SummaryOptions {
  statements?: boolean;
  coverage?: boolean;
  catalogue?: Catalogue;
  /** `--min-coverage`: the percentage of documented responses the run must exercise. */
  minCoverage?: number;
}

/** The whole terminal report. */
export function formatReport(report: RunReport, options: SummaryOptions = {}): string {
  const count = totals(report);
  const parts = [
    `Conformance of ${report.target} · profile ${report.profile} · ${report.families.map(familyName).join(", ")}${report.seed !== undefined ? ` · --seed ${report.seed}` : ""}`,
    ...report.warnings.map((w) => `warning: ${w}`),
    formatResults(report),
    "",
    `Checks: ${report.results.length}: ${count.pass} pass, ${count.fail} fail, ${count["not-applicable"]} not applicable`,
    ...(report.stoppedEarly ? [`The run ${stoppedEarlyLine(report)}: this report is not complete.`] : []),
    formatCoverage(report, options.coverage ?? false),
  ];
  const derived = formatDerivedCoverage(report, options.coverage ?? false);
  if (derived) parts.push(derived);
  if (options.statements && options.catalogue) parts.push(formatStatements(report, options.catalogue), formatStatementCoverage(statementCoverage(report, options.catalogue)));
  else if (options.catalogue) parts.push(formatStatementCoverage(statementCoverage(report, options.catalogue)).split("\n")[0]!);
  parts.push(formatTimings(report));
  const figure = responseCoverage(report, options.minCoverage);
  if (figure.minimum !== undefined) parts.push(figure.met ? `Minimum coverage ${figure.minimum}%: met (${formatPercent(figure.percent)})` : `Minimum coverage: ${coverageShortfall(figure)}`);
  const why = [...(count.fail > 0 ? [`${count.fail} failing checks`] : []), ...(figure.met ? [] : [`coverage below ${figure.minimum}%`])];
  const early = report.stoppedEarly ? ` (run ${stoppedEarlyLine(report)})` : "";
  parts.push(`${why.length > 0 ? `RESULT: FAIL (${why.join(", ")})` : "RESULT: PASS"}${early}`);
  return parts.join("\n");
}
