/**
 * The readable report of a run (`--html PATH`): one self-contained HTML page, to open in a
 * browser with no network (its styles and its small script are inline; its content security
 * policy forbids any load). In the order a reader asks:
 *
 * 1. the verdict and its counts (checks, statements, documented responses);
 * 2. the failures, each with its statements quoted, what was expected (the documented response
 *    it exercises), what was seen (the exchanges), the problems and a curl line per request;
 * 3. the checks not applicable, grouped by what would run them (not-applicable.ts);
 * 4. every statement of the catalogue with its checks and state, filtered by state and family
 *    and searched by text;
 * 5. the documented responses no check exercised, the run's times, and which fingerprint stands
 *    for which key (the report carries no key: redaction.ts).
 *
 * Everything is computed from the run report and the statement catalogue by the functions the
 * terminal, JSON and Markdown reports use; `conformanceHtml` is a pure function of them.
 */
import { familyName } from "@payment-collection/contract/model/index.ts";
import type { StatementKind } from "@payment-collection/contract/statements.ts";
import type { Catalogue } from "../core/statement-map.ts";
import { coverage, failed, stoppedEarlyLine, type CheckResult, type ExchangeNote, type RunReport } from "../core/results.ts";
import { notApplicableGroups, type NotApplicableGroup, type RemedyKind } from "./not-applicable.ts";
import { pacingSummary, totals } from "./report.ts";
import { coverageShortfall, formatPercent, responseCoverage } from "./response-coverage.ts";
import { coverageCounts, statementCoverage, type StatementCoverage, type StatementState } from "./statement-coverage.ts";

export interface HtmlReportOptions {
  /** `--min-coverage`: the percentage of documented responses the run had to exercise. */
  minCoverage?: number;
  /** Why the run stopped before its end (exit 2): the page shows what ran. */
  stopped?: string;
}

/** Text as HTML: safe in element content and in double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const h = escapeHtml;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const STATE_LABEL: Record<StatementState, string> = {
  fail: "broken",
  pass: "honoured",
  "not-run": "not run here",
  "not-checkable": "not checkable on the wire",
  uncovered: "uncovered",
};
const STATE_ORDER: StatementState[] = ["fail", "pass", "not-run", "not-checkable", "uncovered"];
const VERDICT_LABEL: Record<CheckResult["verdict"], string> = { pass: "pass", fail: "fail", "not-applicable": "n/a" };
const REMEDY_HEADING: Record<RemedyKind, string> = {
  option: "An option of this command",
  target: "The target file",
  server: "The server",
  answers: "The server's answers",
};

/** Anchors of the failure cards: check ids carry `/` and `#`, so each card gets its position. */
function failureAnchors(failures: CheckResult[]): Map<string, string> {
  return new Map(failures.map((f, i) => [f.id, `failure-${i + 1}`]));
}

function statementLink(id: string, catalogue: Catalogue): string {
  return catalogue.byId.has(id) ? `<a href="#st-${h(id)}"><code>${h(id)}</code></a>` : `<code>${h(id)}</code> (not in the catalogue)`;
}

/** A body excerpt (run.ts keeps the first 300 characters), indented when it is whole JSON. */
function bodyText(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body.length >= 300 ? `${body} …` : body;
  }
}

/** The exchanges a card shows: all of a few, else the first two and the last four. */
function shownExchanges(exchanges: ExchangeNote[]): { shown: ExchangeNote[]; left: number } {
  if (exchanges.length <= 6) return { shown: exchanges, left: 0 };
  return { shown: [...exchanges.slice(0, 2), ...exchanges.slice(-4)], left: exchanges.length - 6 };
}

/** Markdown's `code` in a text of the catalogue or the target schema, the rest escaped. */
function inline(text: string): string {
  return h(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}

function quoted(id: string, catalogue: Catalogue): string {
  const statement = catalogue.byId.get(id);
  return `<li>${statementLink(id, catalogue)}${statement ? ` <q>${inline(statement.quote)}</q>` : ""}</li>`;
}

/** Kinds of statement from the most particular to the most general: the order a failure lists them in. */
const KIND_ORDER: StatementKind[] = ["auth", "status", "error-code", "rule", "transition", "limit", "header", "endpoint", "event", "versioning", "enum", "field", "principle"];

/**
 * The statements of a failed check, those its problems point at first: a statement whose name
 * (the last part of its id: `A-MERCHANT-FIELD-document`) is a word of the problems; else the
 * most particular kinds. A response check names every statement its response encodes, most
 * of them kept: the others are behind a disclosure.
 */
function statementsOfFailure(f: CheckResult, catalogue: Catalogue): string {
  if (f.statements.length === 0) return `<p class="muted">The check names no statement of the catalogue.</p>`;
  const words = new Set(f.reasons.join(" ").toLowerCase().split(/[^a-z0-9_]+/));
  const pointed = f.statements.filter((id) => {
    const name = id.split("-").slice(3).join("-").toLowerCase();
    return name !== "" && name.split("-").every((part) => words.has(part));
  });
  const rank = (id: string) => {
    const kind = catalogue.byId.get(id)?.kind;
    const index = kind ? KIND_ORDER.indexOf(kind) : -1;
    return index < 0 ? KIND_ORDER.length : index;
  };
  const first = pointed.length > 0 ? pointed : [...f.statements].sort((a, b) => rank(a) - rank(b)).slice(0, 3);
  const rest = f.statements.filter((id) => !first.includes(id));
  const more = rest.length === 0 ? "" : `<details><summary>${plural(rest.length, "more statement")} the check names</summary><ul class="quotes">${rest.map((id) => quoted(id, catalogue)).join("")}</ul></details>`;
  return `<ul class="quotes">${first.map((id) => quoted(id, catalogue)).join("")}</ul>${more}`;
}

function failureCard(f: CheckResult, anchor: string, catalogue: Catalogue): string {
  const statements = statementsOfFailure(f, catalogue);
  const expected = f.covers.length > 0
    ? f.covers.map((c) => `<code>${h(c.operationId)}</code> answering its documented <code>${h(c.status)}</code>`).join("; ")
    : "the rule of the statements above";
  const { shown, left } = shownExchanges(f.exchanges ?? []);
  const seen = shown.length === 0
    ? `<p class="muted">No exchange recorded for this check (its requests are counted under its class).</p>`
    : shown.map((e) => `<div class="exchange"><code>${h(e.method)} ${h(e.url)}</code> → <strong>${e.status}</strong>${e.body ? `<pre class="body">${h(bodyText(e.body))}</pre>` : ""}</div>`).join("") +
      (left > 0 ? `<p class="muted">… and ${plural(left, "more exchange")} between these (all in the JSON report).</p>` : "");
  const curl = f.reproduction ? f.reproduction.split("\n").filter(Boolean) : shown.map((e) => e.reproduction).filter((line): line is string => !!line);
  const example = f.example === undefined ? "" : `<dt>Shrunk example</dt><dd><pre class="body">${h(JSON.stringify(f.example, null, 2))}</pre></dd>`;
  const meta = [f.source, `profile ${f.profile}`, ...(f.derivedClass ? [`generic check ${f.derivedClass}`] : []), ...(f.decisions.length > 0 ? [`decisions ${f.decisions.join(", ")}`] : [])];
  return `<article class="failure" id="${anchor}">
<h3><span class="tag fail">fail</span> ${h(f.title)}</h3>
<p class="check-id"><code>${h(f.id)}</code> · ${h(meta.join(" · "))}</p>
${statements}
<dl>
<dt>Expected</dt><dd>${expected}</dd>
<dt>Seen</dt><dd>${seen}</dd>
<dt>Problems</dt><dd><ul class="problems">${f.reasons.map((r) => `<li>${h(r)}</li>`).join("")}</ul></dd>
${example}
<dt>Reproduce</dt><dd>${curl.length > 0 ? `<pre class="curl">${h(curl.join("\n"))}</pre>` : `<p class="muted">No request to repeat.</p>`}</dd>
</dl>
</article>`;
}

function failuresSection(failures: CheckResult[], anchors: Map<string, string>, catalogue: Catalogue): string {
  if (failures.length === 0) return `<section id="failures"><h2>Failures</h2><p class="ok">No check failed.</p></section>`;
  return `<section id="failures"><h2>Failures <span class="count">${failures.length}</span></h2>
<p class="muted">Each request is shown as a curl line; the key is <code>$API_KEY</code> (the comment says which key of the target), never its value.</p>
${failures.map((f) => failureCard(f, anchors.get(f.id)!, catalogue)).join("\n")}</section>`;
}

function checkList(checks: CheckResult[]): string {
  return `<ul class="checks">${checks.map((c) => `<li><code>${h(c.id)}</code> ${h(c.title)}</li>`).join("")}</ul>`;
}

function notApplicableGroup(group: NotApplicableGroup): string {
  const { remedy } = group;
  const change = h(`${remedy.change[0]!.toUpperCase()}${remedy.change.slice(1)}`);
  const heading = remedy.subject ? change.replace(h(remedy.subject), `<code>${h(remedy.subject)}</code>`) : change;
  const reasons = group.reasons
    .map((r) => `<li><details><summary><span class="n">${r.checks.length}</span> ${h(r.reason)}</summary>${checkList(r.checks)}</details></li>`)
    .join("");
  return `<div class="na-group na-${remedy.kind}">
<h3><span class="kind">${REMEDY_HEADING[remedy.kind]}</span>${heading} <span class="count">${group.count}</span></h3>
${remedy.about ? `<p class="about">${inline(remedy.about)}</p>` : ""}
<ul class="reasons">${reasons}</ul>
</div>`;
}

function notApplicableSection(groups: NotApplicableGroup[], count: number): string {
  if (count === 0) return `<section id="not-applicable"><h2>Not applicable</h2><p class="ok">Every check applied to this target.</p></section>`;
  return `<section id="not-applicable"><h2>Not applicable <span class="count">${count}</span></h2>
<p class="muted">Grouped by what would run them: an option of this command, a member of the target file, an option of the server; the rest depend on what the server answered.</p>
${groups.map(notApplicableGroup).join("\n")}</section>`;
}

function statementRow(e: StatementCoverage, anchors: Map<string, string>): string {
  const byVerdict = totals({ results: e.checks });
  const verdicts = (["fail", "pass", "not-applicable"] as const).filter((v) => byVerdict[v] > 0);
  const counts = verdicts.map((v) => `<span class="tag ${v}">${byVerdict[v]} ${VERDICT_LABEL[v]}</span>`).join(" ");
  // The checks by verdict, each id once: a statement such as "all bodies are JSON" has hundreds.
  const lists = verdicts.map((v) => {
    const ids = e.checks.filter((c) => c.verdict === v).map((c) => {
      const anchor = anchors.get(c.id);
      return anchor ? `<a href="#${anchor}"><code>${h(c.id)}</code></a>` : `<code>${h(c.id)}</code>`;
    });
    return `<p class="checks"><span class="tag ${v}">${VERDICT_LABEL[v]}</span> ${ids.join(" ")}</p>`;
  });
  const checks = e.checks.length === 0 ? "" : `<details><summary>${counts}</summary>${lists.join("")}</details>`;
  const why = e.why && e.state !== "pass" && e.state !== "fail" ? `<p class="why">${h(e.why)}</p>` : "";
  return `<tr id="st-${h(e.statement.id)}" data-state="${e.state}" data-family="${h(e.statement.family)}">
<td><code>${h(e.statement.id)}</code><div class="muted">${h(e.statement.kind)} · ${h(e.statement.section)}</div></td>
<td><span class="state ${e.state}">${STATE_LABEL[e.state]}</span></td>
<td><q>${inline(e.statement.quote)}</q>${why}</td>
<td>${checks}</td></tr>`;
}

function statementsSection(entries: StatementCoverage[], anchors: Map<string, string>): string {
  const counts = coverageCounts(entries);
  const filters = STATE_ORDER.map((state) => `<label class="state ${state}"><input type="checkbox" name="state" value="${state}" checked> ${STATE_LABEL[state]} <span class="n">${counts[state]}</span></label>`).join("");
  const families = [...new Set(entries.map((e) => e.statement.family))];
  return `<section id="statements"><h2>Statements <span class="count">${entries.length}</span></h2>
<p class="muted">Every statement of the catalogue (spec/statements.yaml) for the families run, with the checks that name it.</p>
<form class="filters" id="statement-filters" onsubmit="return false">
<input type="search" id="statement-search" placeholder="Search ids, quotes, checks…" aria-label="Search the statements">
<select id="statement-family" aria-label="Family"><option value="">every family</option>${families.map((f) => `<option value="${h(f)}">${f === "both" ? "both families" : `family ${h(f)}`}</option>`).join("")}</select>
${filters}
<span id="statement-shown" class="muted" aria-live="polite">${entries.length} of ${entries.length} shown</span>
</form>
<table class="statements"><thead><tr><th>Statement</th><th>State</th><th>Quote</th><th>Checks</th></tr></thead>
<tbody>${entries.map((e) => statementRow(e, anchors)).join("\n")}</tbody></table></section>`;
}

function responsesSection(report: RunReport): string {
  const missing = coverage(report).filter((e) => e.exercisedBy.length === 0);
  if (missing.length === 0) return `<section id="responses"><h2>Documented responses</h2><p class="ok">Every documented response was exercised.</p></section>`;
  const rows = missing
    .map((e) => `<tr><td>${h(familyName(e.family))}</td><td><code>${h(e.operationId)}</code></td><td>${h(e.status)}</td><td>${h(e.notApplicable[0]?.reasons[0] ?? "no check targets it")}</td></tr>`)
    .join("");
  return `<section id="responses"><h2>Documented responses not exercised <span class="count">${missing.length}</span></h2>
<table><thead><tr><th>Family</th><th>Operation</th><th>Status</th><th>Why</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function runSection(report: RunReport): string {
  const timings = report.timings.map((t) => `<tr><td>${h(t.family ? familyName(t.family) : "-")}</td><td>${h(t.suite)}</td><td>${seconds(t.durationMs)}</td><td>${t.requests}</td><td>${t.pacingWaitMs > 0 ? seconds(t.pacingWaitMs) : ""}</td></tr>`).join("");
  const keys = (report.keys ?? []).map((k) => `<tr><td><code>${h(k.fingerprint)}</code></td><td><code>${h(k.member)}</code></td></tr>`).join("");
  return `<section id="run"><h2>The run</h2>
${report.warnings.length > 0 ? `<ul class="warnings">${report.warnings.map((w) => `<li>${h(w)}</li>`).join("")}</ul>` : ""}
<table><thead><tr><th>Family</th><th>Suite</th><th>Time</th><th>Requests</th><th>Waiting for rate-limit windows</th></tr></thead><tbody>${timings}</tbody></table>
<p>Total ${seconds(report.durationMs)}.${report.pacing && report.pacing.usage.length > 0 ? ` Pacing: ${h(pacingSummary(report.pacing))}.` : ""}</p>
${keys ? `<h3>Keys</h3><p class="muted">No key or secret of the target appears in this page: each is shown by its fingerprint (the first 8 hex digits of its SHA-256).</p><table><thead><tr><th>Fingerprint</th><th>Target file member</th></tr></thead><tbody>${keys}</tbody></table>` : ""}
</section>`;
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2733;background:#fff}
main{max-width:1280px;margin:0 auto;padding:0 24px 60px}code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:12.5px}
header.verdict{padding:18px 24px;color:#fff}header.verdict.pass{background:#1b6e2e}header.verdict.fail{background:#a11d1d}header.verdict.stopped{background:#8a4700}
header .word{font-size:32px;font-weight:700;letter-spacing:.02em;margin-right:14px}header .why{font-size:18px}header p{margin:6px 0 0;opacity:.92;overflow-wrap:anywhere}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:10px;margin:16px 0}.tile{border:1px solid #dde3ea;border-radius:6px;padding:8px 12px;line-height:1.3}
.tile .n{display:block;font-size:24px;font-weight:700}.tile.fail .n{color:#a11d1d}.tile.pass .n{color:#1b6e2e}.tile.na .n{color:#5a6776}
nav.sections{display:flex;gap:18px;flex-wrap:wrap;padding:8px 0;border-bottom:1px solid #dde3ea;position:sticky;top:0;background:#fff;z-index:2}nav.sections a{color:#0b5cad;text-decoration:none}
h2{font-size:21px;margin:28px 0 10px}section,article,tr{scroll-margin-top:48px}#statements tr{scroll-margin-top:100px}h3{font-size:16px;margin:0 0 6px}.count{background:#5a6776;color:#fff;border-radius:9px;padding:0 8px;font-size:13px;vertical-align:middle}
.muted{color:#5a6776}.ok{color:#1b6e2e}.note{background:#fff8e6;border:1px solid #f0b35a;border-radius:4px;padding:6px 10px}
article.failure{border:1px solid #e6b8b8;border-left:5px solid #a11d1d;border-radius:6px;padding:12px 16px;margin:12px 0}
article.failure dl{display:grid;grid-template-columns:7em 1fr;gap:6px 12px;margin:8px 0 0}article.failure dt{color:#5a6776;font-weight:600}article.failure dd{margin:0;min-width:0}
.check-id{margin:0 0 6px;color:#5a6776;overflow-wrap:anywhere}ul.quotes{margin:4px 0;padding-left:18px}q{quotes:"“" "”"}
pre{margin:4px 0;padding:8px 10px;border-radius:4px;white-space:pre-wrap;overflow-wrap:anywhere;max-height:260px;overflow:auto}
pre.body{background:#f5f7fa;border:1px solid #dde3ea}pre.curl{background:#0f1b27;color:#e5edf5;user-select:all}
.exchange{margin:2px 0 8px;overflow-wrap:anywhere}ul.problems{margin:0;padding-left:18px}
.tag{display:inline-block;border-radius:3px;padding:0 6px;font-size:12px;font-weight:600}.tag.fail{background:#fbe3e3;color:#a11d1d}.tag.pass{background:#dcf1e1;color:#1b6e2e}.tag.not-applicable{background:#eceff3;color:#5a6776}
.na-group{border:1px solid #dde3ea;border-radius:6px;padding:10px 16px;margin:10px 0}.na-group .kind{display:block;font-size:12px;text-transform:uppercase;letter-spacing:.05em;color:#5a6776;font-weight:600}
.na-group .about{margin:2px 0 6px;color:#3d4a58}ul.reasons{margin:0;padding-left:0;list-style:none}ul.reasons>li{margin:4px 0}ul.reasons summary{color:inherit}ul.reasons .n,.filters .n{display:inline-block;min-width:2.2em;text-align:right;font-weight:700;margin-right:6px}
details summary{cursor:pointer;color:#0b5cad}ul.checks{margin:4px 0;padding-left:18px;font-size:13px}p.checks{margin:4px 0;font-size:12px;overflow-wrap:anywhere}
.filters{display:flex;flex-wrap:wrap;align-items:center;gap:8px 14px;margin:8px 0 12px;position:sticky;top:36px;background:#fff;padding:6px 0;z-index:1}
.filters input[type=search]{font:inherit;padding:5px 8px;border:1px solid #b9c7d6;border-radius:4px;width:280px}.filters select{font:inherit;padding:4px}
.filters label{cursor:pointer;white-space:nowrap}
table{border-collapse:collapse;width:100%;margin:8px 0}th,td{border:1px solid #dde3ea;padding:5px 8px;text-align:left;vertical-align:top}th{background:#f5f7fa}
table.statements td:first-child{width:22%;overflow-wrap:anywhere}table.statements td:nth-child(2){width:10%}table.statements td:last-child{width:22%}
.state{border-radius:3px;padding:0 6px;font-size:12px;font-weight:600}.state.fail{background:#fbe3e3;color:#a11d1d}.state.pass{background:#dcf1e1;color:#1b6e2e}
.state.not-run{background:#eceff3;color:#3d4a58}.state.not-checkable{background:#e8eef7;color:#3b5571}.state.uncovered{background:#fff3e0;color:#8a4700}
td .why{margin:4px 0 0;color:#5a6776;font-size:13px}tr[hidden]{display:none}
`;

/** Filters and search of the statement table; a link to a hidden statement clears them. */
const SCRIPT = `
(function(){
  var form=document.getElementById("statement-filters");if(!form)return;
  var rows=[].slice.call(document.querySelectorAll("table.statements tbody tr"));
  // What a search reads of a row: its text, the checks behind its disclosure included.
  var texts=rows.map(function(r){return r.textContent.toLowerCase();});
  var search=document.getElementById("statement-search"),family=document.getElementById("statement-family"),shown=document.getElementById("statement-shown");
  function apply(){
    var states={};[].forEach.call(form.querySelectorAll("input[name=state]"),function(b){states[b.value]=b.checked;});
    var terms=search.value.toLowerCase().split(/\\s+/).filter(Boolean),fam=family.value,n=0;
    rows.forEach(function(r,i){
      var text=texts[i];
      var ok=states[r.getAttribute("data-state")]&&(!fam||r.getAttribute("data-family")===fam)&&terms.every(function(t){return text.indexOf(t)>=0;});
      r.hidden=!ok;if(ok)n++;
    });
    shown.textContent=n+" of "+rows.length+" shown";
  }
  form.addEventListener("input",apply);form.addEventListener("change",apply);
  function reveal(){
    var id=decodeURIComponent(location.hash.slice(1));var row=id&&document.getElementById(id);
    if(row&&row.hidden){form.reset();apply();row.scrollIntoView();}
  }
  window.addEventListener("hashchange",reveal);reveal();
})();
`;

/** The page: a pure function of the run report and the catalogue. */
export function conformanceHtml(report: RunReport, catalogue: Catalogue, options: HtmlReportOptions = {}): string {
  const count = totals(report);
  const figure = responseCoverage(report, options.minCoverage);
  const failures = failed(report);
  const why = [...(options.stopped ? [options.stopped] : []), ...(count.fail > 0 ? [plural(count.fail, "failing check")] : []), ...(figure.met ? [] : [coverageShortfall(figure)])];
  const verdict = options.stopped ? "stopped" : why.length > 0 ? "fail" : "pass";
  const word = verdict.toUpperCase();
  const statements = statementCoverage(report, catalogue);
  const states = coverageCounts(statements);
  const anchors = failureAnchors(failures);
  const groups = notApplicableGroups(report);
  const early = stoppedEarlyLine(report);
  const tile = (n: number | string, label: string, kind = "") => `<div class="tile ${kind}"><span class="n">${n}</span>${label}</div>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>Conformance ${word}: ${h(report.target)}</title>
<style>${STYLE}</style></head>
<body>
<header class="verdict ${verdict}"><span class="word">${word}</span><span class="why">${h(why.length > 0 ? why.join(", ") : "every check that applied passed")}</span>
<p>${h(report.target)} · profile <strong>${h(report.profile)}</strong> · ${h(report.families.map(familyName).join(", "))} · started ${h(report.startedAt)} · ${seconds(report.durationMs)}</p></header>
<main>
${early ? `<p class="note">The run ${h(early)}: the figures are of what ran.</p>` : ""}
<div class="tiles">
${tile(report.results.length, "checks")}${tile(count.pass, "pass", "pass")}${tile(count.fail, "fail", "fail")}${tile(count["not-applicable"], "not applicable", "na")}
${tile(formatPercent(figure.percent), `of ${figure.documented} documented responses exercised${figure.minimum !== undefined ? ` (minimum ${figure.minimum}%)` : ""}`, figure.met ? "" : "fail")}
${tile(`${states.pass}/${statements.length}`, "statements honoured")}${tile(states.fail, "statements broken", "fail")}
</div>
<nav class="sections"><a href="#failures">Failures (${count.fail})</a><a href="#not-applicable">Not applicable (${count["not-applicable"]})</a><a href="#statements">Statements (${statements.length})</a><a href="#responses">Responses</a><a href="#run">The run</a></nav>
${failuresSection(failures, anchors, catalogue)}
${notApplicableSection(groups, count["not-applicable"])}
${statementsSection(statements, anchors)}
${responsesSection(report)}
${runSection(report)}
</main>
<script>${SCRIPT}</script>
</body></html>
`;
}
