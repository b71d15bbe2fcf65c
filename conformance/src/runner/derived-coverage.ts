/**
 * Coverage by generic check class (src/derived/): for each class, the operations and the
 * documented responses it exercised, its verdicts, its request count and time. The terminal,
 * JSON, JUnit and Markdown reports all read it from here.
 */
import type { CheckResult, RunReport } from "../core/results.ts";

export interface DerivedClassCoverage {
  derivedClass: string;
  operations: string[];
  /** `family operation status` of every documented response the class exercised. */
  responses: string[];
  pass: number;
  fail: number;
  notApplicable: number;
  requests: number;
  durationMs: number;
}

export function derivedCoverage(report: Pick<RunReport, "results" | "derivedRequests">): DerivedClassCoverage[] {
  const classes = new Map<string, CheckResult[]>();
  for (const r of report.results) if (r.derivedClass) classes.set(r.derivedClass, [...(classes.get(r.derivedClass) ?? []), r]);
  for (const count of report.derivedRequests ?? []) if (!classes.has(count.derivedClass)) classes.set(count.derivedClass, []);
  return [...classes.entries()].map(([derivedClass, results]) => {
    const ran = results.filter((r) => r.verdict !== "not-applicable");
    const counts = (report.derivedRequests ?? []).filter((c) => c.derivedClass === derivedClass);
    return {
      derivedClass,
      operations: [...new Set(ran.map((r) => `${r.family} ${r.id.split("/")[3]}`))].sort(),
      responses: [...new Set(ran.flatMap((r) => r.covers.map((c) => `${r.family} ${c.operationId} ${c.status}`)))].sort(),
      pass: results.filter((r) => r.verdict === "pass").length,
      fail: results.filter((r) => r.verdict === "fail").length,
      notApplicable: results.filter((r) => r.verdict === "not-applicable").length,
      requests: counts.reduce((sum, c) => sum + c.requests, 0),
      durationMs: counts.reduce((sum, c) => sum + c.durationMs, 0),
    };
  });
}

/** Terminal lines: one block per class, then each failure's reproduction. */
export function formatDerivedCoverage(report: RunReport, detailed = false): string {
  const entries = derivedCoverage(report);
  if (entries.length === 0) return "";
  const lines = ["Generic checks by class (requests, time, verdicts, operations and responses exercised):"];
  for (const e of entries) {
    lines.push(`  ${e.derivedClass}: ${e.requests} requests, ${(e.durationMs / 1000).toFixed(1)} s; ${e.pass} pass, ${e.fail} fail, ${e.notApplicable} n/a; ${e.operations.length} operations, ${e.responses.length} responses`);
    if (detailed) lines.push(`      operations: ${e.operations.join(", ")}`, `      responses: ${e.responses.join(", ")}`);
  }
  const failures = report.results.filter((r) => r.derivedClass && r.verdict === "fail");
  for (const f of failures) {
    lines.push(`  FAIL ${f.id} [${f.statements.join(", ")}]`);
    for (const reason of f.reasons) lines.push(`      - ${reason}`);
    if (f.example !== undefined) lines.push(`      shrunk example: ${JSON.stringify(f.example)}`);
    for (const line of (f.reproduction ?? "").split("\n").filter(Boolean)) lines.push(`      $ ${line}`);
  }
  return lines.join("\n");
}

/** Markdown section of the statement report. */
export function derivedCoverageMarkdown(report: RunReport): string[] {
  const entries = derivedCoverage(report);
  if (entries.length === 0) return [];
  const lines = ["", "## Generic checks by class", "", "| Class | Requests | Pass | Fail | n/a | Operations | Responses |", "| --- | --- | --- | --- | --- | --- | --- |"];
  for (const e of entries) lines.push(`| ${e.derivedClass} | ${e.requests} | ${e.pass} | ${e.fail} | ${e.notApplicable} | ${e.operations.join(", ")} | ${e.responses.join(", ")} |`);
  return lines;
}

/** Text of a derived failure for JUnit and Markdown: reproduction and shrunk example. */
export function reproductionText(result: CheckResult): string[] {
  const lines: string[] = [];
  if (result.example !== undefined) lines.push(`shrunk example: ${JSON.stringify(result.example)}`);
  if (result.reproduction) lines.push(...result.reproduction.split("\n").map((l) => `$ ${l}`));
  return lines;
}
