/**
 * The outputs of a traffic check, the same for both front ends: a text summary, JUnit (one test
 * case per operation and documented status seen, its violations as failures), JSON (the
 * summary as it is) and a self-contained HTML report (violations grouped by statement, coverage
 * of operations x documented responses and of the statements exercised).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Catalogue } from "../core/statement-map.ts";
import { escapeHtml } from "../runner/html-report.ts";
import { xml } from "../runner/junit.ts";
import { violationLine, type TrafficSummary, type Violation } from "./engine.ts";

export interface ReportMeta {
  /** What was checked: the HAR file, or the proxy's upstreams. */
  source: string;
  /** `--consumer`: what the client sent is reported (and fails the check). */
  consumer: boolean;
  minCoverage?: number;
  /** Peak resident memory of a HAR read, in bytes. */
  peakRss?: number;
}

/** Whether the check failed: a violation, an upstream fault, (with --consumer) a consumer finding, or coverage below the minimum. */
export function failedReasons(summary: TrafficSummary, meta: ReportMeta): string[] {
  const reasons: string[] = [];
  const server = summary.violations.filter((v) => v.side === "server").length;
  if (server > 0) reasons.push(`${server} violation(s)`);
  if (summary.upstreamFaults > 0) reasons.push(`${summary.upstreamFaults} upstream fault(s)`);
  if (meta.consumer && summary.consumerFindings.length > 0) reasons.push(`${summary.consumerFindings.length} consumer finding(s)`);
  if (meta.minCoverage !== undefined && summary.coverage.responses.percent < meta.minCoverage) {
    reasons.push(`response coverage ${summary.coverage.responses.percent}% below --min-coverage ${meta.minCoverage}%`);
  }
  return reasons;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

export function textSummary(summary: TrafficSummary, meta: ReportMeta): string {
  const { responses, statements } = summary.coverage;
  const lines = [
    `traffic check (${summary.profile}) of ${meta.source}`,
    `  exchanges: ${summary.exchanges} (other hosts skipped: ${summary.skippedOtherHosts}; not validated: ${summary.notValidated.tooLarge} too large, ${summary.notValidated.notRecorded} body not recorded, ${summary.notValidated.noResponse} without response)`,
    `  violations: ${summary.violations.filter((v) => v.side === "server").length}; upstream faults: ${summary.upstreamFaults}; consumer findings: ${summary.consumerFindings.length}${meta.consumer ? "" : " (reported with --consumer)"}${summary.notKept > 0 ? `; ${summary.notKept} more found but not kept in the reports` : ""}`,
    `  coverage: ${responses.seen}/${responses.documented} documented responses seen (${responses.percent}%), ${statements.exercised.length}/${statements.wire} wire statements exercised (${statements.percent}%); rules across exchanges judged: ${summary.coverage.rules.join(", ") || "none"}`,
  ];
  if (meta.peakRss !== undefined) lines.push(`  peak memory (RSS): ${mib(meta.peakRss)}`);
  const byStatement = new Map<string, number>();
  for (const v of summary.violations) byStatement.set(v.naming.id, (byStatement.get(v.naming.id) ?? 0) + 1);
  for (const [id, count] of [...byStatement].sort((a, b) => b[1] - a[1])) lines.push(`    ${id}: ${count}`);
  const reasons = failedReasons(summary, meta);
  lines.push(reasons.length === 0 ? "  result: pass" : `  result: FAIL (${reasons.join("; ")})`);
  return lines.join("\n");
}


const failure = (v: Violation) => `        <failure message="${xml(`${v.naming.id}: expected ${v.expected}; seen ${v.seen}`)}">${xml(violationLine(v))}</failure>`;

export function junitReport(summary: TrafficSummary, meta: ReportMeta): string {
  const suites: string[] = [];
  const families = [...new Set(summary.cases.map((c) => c.family))].sort();
  for (const family of families) {
    const cases = summary.cases.filter((c) => c.family === family).sort((a, b) => `${a.operationId} ${a.status}`.localeCompare(`${b.operationId} ${b.status}`));
    const body = cases.map((c) => {
      const id = `${c.family}/${c.operationId}/${c.status}`;
      const failures = summary.violations.filter((v) => v.caseId === id);
      const inner = [`        <properties><property name="exchanges" value="${c.exchanges}"/></properties>`, ...failures.map(failure)];
      return `      <testcase classname="${xml(`${family}.${c.operationId}`)}" name="${xml(`${c.operationId} ${c.status}`)}">\n${inner.join("\n")}\n      </testcase>`;
    });
    const failed = cases.filter((c) => summary.violations.some((v) => v.caseId === `${c.family}/${c.operationId}/${c.status}`)).length;
    suites.push(`  <testsuite name="traffic ${family}" tests="${cases.length}" failures="${failed}">\n${body.join("\n")}\n  </testsuite>`);
  }
  const loose = summary.violations.filter((v) => !v.caseId);
  if (loose.length > 0) {
    suites.push(`  <testsuite name="traffic upstream" tests="${loose.length}" failures="${loose.length}">\n${loose.map((v) => `      <testcase classname="upstream" name="${xml(`exchange ${v.exchangeId} ${v.method} ${v.path}`)}">\n${failure(v)}\n      </testcase>`).join("\n")}\n  </testsuite>`);
  }
  if (meta.consumer) {
    const findings = summary.consumerFindings;
    suites.push(`  <testsuite name="traffic consumer" tests="${Math.max(findings.length, 1)}" failures="${findings.length}">\n${findings.length === 0 ? `      <testcase classname="consumer" name="requests as the contract defines them"/>` : findings.map((v) => `      <testcase classname="consumer" name="${xml(`exchange ${v.exchangeId} ${v.method} ${v.path}`)}">\n${failure(v)}\n      </testcase>`).join("\n")}\n  </testsuite>`);
  }
  if (meta.minCoverage !== undefined) {
    const { percent } = summary.coverage.responses;
    const below = percent < meta.minCoverage;
    suites.push(`  <testsuite name="traffic coverage" tests="1" failures="${below ? 1 : 0}">\n      <testcase classname="coverage" name="documented responses seen: ${percent}% (minimum ${meta.minCoverage}%)">${below ? `<failure message="${xml(`coverage ${percent}% below ${meta.minCoverage}%`)}"/>` : ""}</testcase>\n  </testsuite>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xml(`traffic check of ${meta.source}`)}">\n${suites.join("\n")}\n</testsuites>\n`;
}

export function jsonReport(summary: TrafficSummary, meta: ReportMeta): string {
  return `${JSON.stringify({ source: meta.source, consumerReported: meta.consumer, minCoverage: meta.minCoverage, peakRss: meta.peakRss, failed: failedReasons(summary, meta), ...summary }, null, 2)}\n`;
}

const h = escapeHtml;

function groupSection(title: string, list: Violation[], catalogue: Catalogue): string {
  if (list.length === 0) return `<h2>${h(title)}</h2><p class="ok">None.</p>`;
  const groups = new Map<string, Violation[]>();
  for (const v of list) groups.set(v.naming.id, [...(groups.get(v.naming.id) ?? []), v]);
  const parts = [...groups].sort((a, b) => b[1].length - a[1].length).map(([id, items]) => {
    const statement = catalogue.byId.get(id);
    const heading = statement ? `${id}: “${statement.quote}”` : items[0]!.naming.kind === "decision" ? `decision ${id} (docs/decisions.md)` : id;
    const rows = items
      .slice(0, 200)
      .map((v) => `<tr><td>#${v.exchangeId}</td><td>${h(v.operationId ?? `${v.method} ${v.path}`)} ${v.status}</td><td>${h(v.expected)}</td><td>${h(v.seen)}</td><td><code>${h(v.reproduction)}</code></td></tr>`)
      .join("");
    const more = items.length > 200 ? `<p>… and ${items.length - 200} more.</p>` : "";
    return `<details open><summary>${h(heading)} <span class="count">${items.length}</span></summary><table class="findings"><colgroup><col class="n"><col class="op"><col class="x"><col class="s"><col></colgroup><tr><th>exchange</th><th>operation</th><th>expected</th><th>seen</th><th>reproduction</th></tr>${rows}</table>${more}</details>`;
  });
  return `<h2>${h(title)}</h2>${parts.join("")}`;
}

export function htmlReport(summary: TrafficSummary, meta: ReportMeta, catalogue: Catalogue): string {
  const reasons = failedReasons(summary, meta);
  const { responses, statements } = summary.coverage;
  const seen = new Set(summary.cases.map((c) => `${c.family}/${c.operationId}/${c.status}`));
  const documented = [...new Set([...seen, ...responses.missing])];
  const byOperation = new Map<string, Array<{ status: string; seen: boolean }>>();
  for (const id of documented.sort()) {
    const [family, operationId, status] = id.split("/");
    const key = `${family} ${operationId}`;
    byOperation.set(key, [...(byOperation.get(key) ?? []), { status: status!, seen: seen.has(id) }]);
  }
  const coverageRows = [...byOperation]
    .map(([op, list]) => `<tr><td>${h(op)}</td><td>${list.map((r) => `<span class="${r.seen ? "seen" : "unseen"}">${h(r.status)}</span>`).join(" ")}</td></tr>`)
    .join("");
  const exercised = new Set(statements.exercised);
  const statementRows = catalogue.statements
    .filter((s) => s.wire)
    .map((s) => `<li class="${exercised.has(s.id) ? "seen" : "unseen"}" title="${h(s.quote)}">${h(s.id)}</li>`)
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Traffic check: ${h(meta.source)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top;text-align:left;overflow-wrap:anywhere}
table.findings{width:100%;table-layout:fixed}table.findings col.n{width:6.5em}table.findings col.op{width:11em}table.findings col.x{width:24%}table.findings col.s{width:24%}
code{font-size:12px;word-break:break-all}.seen{background:#d9f2d9;padding:0 4px}.unseen{background:#f6dcdc;padding:0 4px}.count{background:#444;color:#fff;border-radius:8px;padding:0 6px}
.ok{color:#1a7f1a}.fail{color:#b00}summary{font-weight:600;cursor:pointer;margin-top:.6em}ul.statements{columns:3;font-size:12px}
</style></head><body>
<h1>Traffic check (${h(summary.profile)})</h1>
<p>${h(meta.source)}</p>
<p class="${reasons.length === 0 ? "ok" : "fail"}"><strong>${reasons.length === 0 ? "PASS" : `FAIL: ${h(reasons.join("; "))}`}</strong></p>
<table><tr><th>exchanges</th><td>${summary.exchanges}</td></tr><tr><th>other hosts, skipped</th><td>${summary.skippedOtherHosts}</td></tr>
<tr><th>not validated</th><td>${summary.notValidated.tooLarge} too large, ${summary.notValidated.notRecorded} body not recorded, ${summary.notValidated.noResponse} without response</td></tr>
<tr><th>violations</th><td>${summary.violations.filter((v) => v.side === "server").length}</td></tr><tr><th>upstream faults</th><td>${summary.upstreamFaults}</td></tr>
<tr><th>consumer findings</th><td>${summary.consumerFindings.length}</td></tr>
<tr><th>documented responses seen</th><td>${responses.seen} of ${responses.documented} (${responses.percent}%)${meta.minCoverage !== undefined ? `, minimum ${meta.minCoverage}%` : ""}</td></tr>
<tr><th>wire statements exercised</th><td>${statements.exercised.length} of ${statements.wire} (${statements.percent}%)</td></tr>
<tr><th>rules across exchanges judged</th><td>${h(summary.coverage.rules.join(", ") || "none")}</td></tr>
${meta.peakRss !== undefined ? `<tr><th>peak memory (RSS)</th><td>${mib(meta.peakRss)}</td></tr>` : ""}</table>
${groupSection("Violations, by statement", summary.violations, catalogue)}
${meta.consumer ? groupSection("What the client sent that the contract does not define", summary.consumerFindings, catalogue) : ""}
<h2>Coverage: operations × documented responses</h2><table><tr><th>operation</th><th>documented responses (green: seen)</th></tr>${coverageRows}</table>
<h2>Wire statements (green: exercised)</h2><ul class="statements">${statementRows}</ul>
</body></html>
`;
}

export interface ReportPaths {
  junit?: string;
  json?: string;
  html?: string;
}

export function writeReports(paths: ReportPaths, summary: TrafficSummary, meta: ReportMeta, catalogue: Catalogue): void {
  const write = (path: string | undefined, text: () => string) => {
    if (!path) return;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text());
  };
  write(paths.junit, () => junitReport(summary, meta));
  write(paths.json, () => jsonReport(summary, meta));
  write(paths.html, () => htmlReport(summary, meta, catalogue));
}
