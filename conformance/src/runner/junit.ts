/**
 * JUnit XML of a run: one test suite per family and source (dredd, probe, scenario), one test
 * case per check; failures carry the reasons, not-applicable checks are skipped with theirs,
 * and each case lists the statements it enforces as a property. With the catalogue, one more
 * suite has a case per statement: failed when a check of it failed, skipped when not checkable.
 */
import { stoppedEarlyLine, type CheckResult, type RunReport } from "../core/results.ts";
import { statementCoverage, statementJunitSuite } from "./statement-coverage.ts";
import type { Catalogue } from "../core/statement-map.ts";
import { derivedCoverage, reproductionText } from "./derived-coverage.ts";
import { coverageShortfall, type ResponseCoverage } from "./response-coverage.ts";

/** Text as XML character data or an attribute value. */
export function xml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    // Characters XML 1.0 cannot carry at all.
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "?");
}

function testCase(result: CheckResult): string {
  const [operation] = result.covers;
  const classname = `${result.family}.${operation ? operation.operationId : result.source}`;
  const attributes = `classname="${xml(classname)}" name="${xml(`${result.id}: ${result.title}`)}" time="${(result.durationMs / 1000).toFixed(3)}"`;
  const inner: string[] = [];
  const properties = [
    ["statements", result.statements.join(" ")],
    ["decisions", result.decisions.join(" ")],
    ["profile", result.profile],
    ["class", result.derivedClass ?? ""],
    ["reproduction", result.reproduction ?? ""],
  ].filter(([, value]) => value);
  inner.push(`      <properties>${properties.map(([n, v]) => `<property name="${n}" value="${xml(v!)}"/>`).join("")}</properties>`);
  if (result.verdict === "fail") {
    const detail = [...result.reasons, ...(result.exchanges ?? []).map((e) => `> ${e.method} ${e.url} -> ${e.status} ${e.body}`), ...reproductionText(result)].join("\n");
    inner.push(`      <failure message="${xml(result.reasons[0] ?? "failed")}">${xml(detail)}</failure>`);
  } else if (result.verdict === "not-applicable") {
    inner.push(`      <skipped message="${xml(`not applicable: ${result.reasons.join("; ")}`)}"/>`);
  }
  return `    <testcase ${attributes}>\n${inner.join("\n")}\n    </testcase>`;
}

export interface JunitExtras {
  /** Why the run stopped before its end (target, preflight, a server gone): an error case. */
  stopped?: string;
  /** The coverage figure: a failed case when it is below `--min-coverage`. */
  coverage?: ResponseCoverage;
}

/**
 * A suite of one case: the run's own outcome (stopped, coverage below the minimum, or stopped
 * early on request: a skipped case, so that no tool takes the results for the whole run).
 */
function runSuite(name: string, kind: "error" | "failure" | "skipped", message: string): string {
  const counts = kind === "error" ? 'failures="0" errors="1" skipped="0"' : kind === "failure" ? 'failures="1" errors="0" skipped="0"' : 'failures="0" errors="0" skipped="1"';
  const outcome = kind === "skipped" ? `      <skipped message="${xml(message)}"/>` : `      <${kind} message="${xml(message)}">${xml(message)}</${kind}>`;
  return [
    `  <testsuite name="conformance run" tests="1" ${counts} time="0">`,
    `    <testcase classname="conformance.run" name="${xml(name)}" time="0">`,
    outcome,
    "    </testcase>",
    "  </testsuite>",
  ].join("\n");
}

export function toJunitXml(report: RunReport, catalogue?: Catalogue, extras: JunitExtras = {}): string {
  const groups = new Map<string, CheckResult[]>();
  for (const result of report.results) {
    const key = `${result.family} · ${result.source}`;
    groups.set(key, [...(groups.get(key) ?? []), result]);
  }
  const count = (list: CheckResult[], verdict: CheckResult["verdict"]) => list.filter((r) => r.verdict === verdict).length;
  const suites = [...groups.entries()].map(([name, list]) => {
    const time = list.reduce((sum, r) => sum + r.durationMs, 0) / 1000;
    return [
      `  <testsuite name="${xml(name)}" tests="${list.length}" failures="${count(list, "fail")}" errors="0" skipped="${count(list, "not-applicable")}" time="${time.toFixed(3)}">`,
      ...list.map(testCase),
      "  </testsuite>",
    ].join("\n");
  });
  const all = report.results;
  // Coverage by generic check class, as the properties of one suite.
  const byClass = derivedCoverage(report);
  if (byClass.length > 0) {
    const properties = byClass.flatMap((e) => [
      `<property name="${xml(`${e.derivedClass}.requests`)}" value="${e.requests}"/>`,
      `<property name="${xml(`${e.derivedClass}.operations`)}" value="${xml(e.operations.join(", "))}"/>`,
      `<property name="${xml(`${e.derivedClass}.responses`)}" value="${xml(e.responses.join(", "))}"/>`,
    ]);
    suites.push(`  <testsuite name="generic checks by class" tests="0" failures="0" errors="0" skipped="0" time="0">\n    <properties>${properties.join("")}</properties>\n  </testsuite>`);
  }
  const belowMinimum = extras.coverage && !extras.coverage.met;
  if (extras.stopped) suites.unshift(runSuite("the run stopped before its end", "error", extras.stopped));
  if (belowMinimum) suites.unshift(runSuite("coverage of the documented responses", "failure", coverageShortfall(extras.coverage!)));
  const early = stoppedEarlyLine(report);
  if (early) suites.unshift(runSuite("the run stopped early: the checks not run are absent", "skipped", `the run ${early}`));
  const failures = count(all, "fail") + (belowMinimum ? 1 : 0);
  const tests = all.length + (extras.stopped ? 1 : 0) + (belowMinimum ? 1 : 0) + (early ? 1 : 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(`conformance ${report.profile} ${report.target}`)}" tests="${tests}" failures="${failures}" errors="${extras.stopped ? 1 : 0}" skipped="${count(all, "not-applicable") + (early ? 1 : 0)}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    ...suites,
    ...(catalogue ? [statementJunitSuite(statementCoverage(report, catalogue), xml)] : []),
    "</testsuites>",
    "",
  ].join("\n");
}
