/**
 * Statement coverage of a run: for every statement of the catalogue (spec/statements.yaml),
 * the checks (Dredd transactions, probes, scenarios) that name it and their verdicts, or why
 * no check on the wire can observe it (the catalogue's note). Rendered for the terminal, as a JUnit test suite (one
 * case per statement) and as a self-contained Markdown page (`--report PATH`).
 */
import { derivedCoverageMarkdown, reproductionText } from "./derived-coverage.ts";
import { familyName } from "@payment-collection/contract/model/index.ts";
import { statementAppliesTo, type Statement } from "@payment-collection/contract/statements.ts";
import type { Catalogue } from "../core/statement-map.ts";
import { stoppedEarlyLine, type CheckResult, type RunReport } from "../core/results.ts";
import { shortened } from "../core/describe-response.ts";

/** Why a statement cannot be observed in HTTP exchanges (undefined for wire statements). */
export function notCheckableReason(statement: Statement): string | undefined {
  if (statement.wire) return undefined;
  // The catalogue requires the note on every statement that is not on the wire.
  return statement.note ?? "the catalogue marks it as not observable on the wire";
}

export type StatementState = "pass" | "fail" | "not-run" | "not-checkable" | "uncovered";

export interface StatementCoverage {
  statement: Statement;
  state: StatementState;
  checks: CheckResult[];
  /** Why the statement is not checkable, or why none of its checks ran. */
  why?: string;
}

/** Statements of the families run, each with its checks and state. */
export function statementCoverage(report: Pick<RunReport, "results" | "families">, catalogue: Catalogue): StatementCoverage[] {
  const byStatement = new Map<string, CheckResult[]>();
  for (const result of report.results) {
    for (const id of result.statements) byStatement.set(id, [...(byStatement.get(id) ?? []), result]);
  }
  const inRun = (s: Statement) => report.families.some((f) => statementAppliesTo(s, f));
  return catalogue.statements.filter(inRun).map((statement) => {
    const checks = byStatement.get(statement.id) ?? [];
    const ran = checks.filter((c) => c.verdict !== "not-applicable");
    if (checks.some((c) => c.verdict === "fail")) return { statement, state: "fail", checks };
    if (ran.length > 0) return { statement, state: "pass", checks };
    if (!statement.wire) {
      return { statement, state: "not-checkable", checks, why: notCheckableReason(statement) };
    }
    if (checks.length > 0) return { statement, state: "not-run", checks, why: checks[0]!.reasons[0] ?? "not applicable" };
    return { statement, state: "uncovered", checks, why: "no check names this statement" };
  });
}

export function coverageCounts(entries: StatementCoverage[]): Record<StatementState, number> {
  const count: Record<StatementState, number> = { pass: 0, fail: 0, "not-run": 0, "not-checkable": 0, uncovered: 0 };
  for (const e of entries) count[e.state] += 1;
  return count;
}

function headline(entries: StatementCoverage[]): string {
  const c = coverageCounts(entries);
  const accounted = entries.length - c.uncovered;
  const percent = entries.length === 0 ? 100 : Math.round((accounted / entries.length) * 100);
  return (
    `Statements of the catalogue: ${entries.length}; covered by checks ${c.pass + c.fail + c["not-run"]} ` +
    `(${c.pass} honoured, ${c.fail} broken, ${c["not-run"]} not run here), not checkable on the wire ${c["not-checkable"]}, ` +
    `uncovered ${c.uncovered}: ${percent}% accounted for`
  );
}

const LABEL: Record<StatementState, string> = { pass: "pass", fail: "FAIL", "not-run": "n/a ", "not-checkable": "----", uncovered: "NONE" };

/** Terminal table: one line per statement, the failing checks under the broken ones. */
export function formatStatementCoverage(entries: StatementCoverage[]): string {
  const lines = [headline(entries)];
  for (const e of entries) {
    const checks = e.checks.map((c) => c.id);
    const detail = e.state === "not-checkable" || e.state === "uncovered" || e.state === "not-run" ? e.why : `${checks.length} check(s)`;
    lines.push(`  ${LABEL[e.state]}  ${e.statement.id}: ${detail}`);
    if (e.state === "fail") for (const c of e.checks.filter((r) => r.verdict === "fail")) lines.push(`          FAIL ${c.id}`);
  }
  return lines.join("\n");
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();
}

const VERDICT_MARK: Record<CheckResult["verdict"], string> = { pass: "pass", fail: "**FAIL**", "not-applicable": "n/a" };

/** The self-contained Markdown page: statements, their checks and verdicts, then the failures. */
export function statementReportMarkdown(report: RunReport, entries: StatementCoverage[]): string {
  const c = coverageCounts(entries);
  const lines = [
    `# Conformance report`,
    "",
    `- Target: ${cell(report.target)}`,
    `- Profile: \`${report.profile}\` · ${report.families.map(familyName).join(", ")} · started ${report.startedAt} · ${(report.durationMs / 1000).toFixed(1)} s`,
    `- Checks: ${report.results.length}: ${report.results.filter((r) => r.verdict === "pass").length} pass, ${report.results.filter((r) => r.verdict === "fail").length} fail, ${report.results.filter((r) => r.verdict === "not-applicable").length} not applicable`,
    ...(report.stoppedEarly ? [`- **The run ${stoppedEarlyLine(report)}**: the figures below are of what ran.`] : []),
    `- ${headline(entries)}`,
    "",
    `| State | Count |`,
    `| --- | --- |`,
    `| honoured (every check that ran passed) | ${c.pass} |`,
    `| broken (a check failed) | ${c.fail} |`,
    `| covered, not run against this target | ${c["not-run"]} |`,
    `| not checkable on the wire | ${c["not-checkable"]} |`,
    `| uncovered | ${c.uncovered} |`,
    "",
    "## Statements",
    "",
    "| Statement | State | Quote | Checks |",
    "| --- | --- | --- | --- |",
  ];
  for (const e of entries) {
    const checks =
      e.checks.length > 0
        ? e.checks.map((r) => `${VERDICT_MARK[r.verdict]} \`${r.id}\``).join("<br>")
        : cell(e.why ?? "");
    const state = e.state === "not-checkable" ? `not checkable: ${cell(e.why ?? "")}` : e.state === "not-run" ? `not run: ${cell(e.why ?? "")}` : LABEL[e.state].trim();
    lines.push(`| \`${e.statement.id}\` | ${state} | ${shortened(cell(e.statement.quote), 160)} | ${e.state === "not-checkable" ? "" : checks} |`);
  }
  lines.push(...derivedCoverageMarkdown(report));
  const failures = report.results.filter((r) => r.verdict === "fail");
  if (failures.length > 0) {
    lines.push("", "## Failures", "");
    for (const f of failures) {
      lines.push(`### \`${f.id}\``, "", `${cell(f.title)} (statements: ${f.statements.join(", ") || "none"})`, "");
      for (const reason of f.reasons) lines.push(`- ${cell(reason)}`);
      for (const e of f.exchanges ?? []) lines.push(`- \`${e.method} ${e.url}\` -> ${e.status}: \`${shortened(cell(e.body), 200)}\``);
      const repro = reproductionText(f);
      if (repro.length > 0) lines.push("", "```sh", ...repro, "```");
      lines.push("");
    }
  }
  return `${lines.join("\n")}\n`;
}

/** One JUnit test suite, one case per statement (failed when a check of it failed). */
export function statementJunitSuite(entries: StatementCoverage[], escape: (text: string) => string): string {
  const c = coverageCounts(entries);
  const cases = entries.map((e) => {
    const name = `${e.statement.id}: ${shortened(e.statement.quote, 120)}`;
    const checks = e.checks.map((r) => `${r.id} ${r.verdict}`).join("\n");
    let inner = "";
    if (e.state === "fail") inner = `<failure message="${escape(`broken: ${e.checks.filter((r) => r.verdict === "fail").map((r) => r.id).join(", ")}`)}">${escape(checks)}</failure>`;
    else if (e.state === "uncovered") inner = `<failure message="no check covers this statement"/>`;
    else if (e.state !== "pass") inner = `<skipped message="${escape(`${e.state}: ${e.why ?? ""}`)}"/>`;
    return `    <testcase classname="statements.${escape(e.statement.family)}" name="${escape(name)}" time="0">${inner}</testcase>`;
  });
  return [
    `  <testsuite name="statements of the catalogue" tests="${entries.length}" failures="${c.fail + c.uncovered}" errors="0" skipped="${c["not-run"] + c["not-checkable"]}" time="0">`,
    ...cases,
    "  </testsuite>",
  ].join("\n");
}
