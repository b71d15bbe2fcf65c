/**
 * The readable report (`--html`) as a function of a run report, and what it says would run the
 * checks that were not applicable: the verdict and counts first, each failure with its
 * statement, expected and seen values and curl line, the not-applicable checks grouped by the
 * option, target member or server setting that would run them (described from the command's
 * usage and the target's schema), every statement with its state, and nothing loaded from
 * anywhere. The page in a browser, from a real run: html-report.browser.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { CheckResult, RunReport } from "../src/core/results.ts";
import { loadCatalogue } from "../src/core/statement-map.ts";
import { conformanceHtml, escapeHtml } from "../src/runner/html-report.ts";
import { notApplicableGroups, remedyOf } from "../src/runner/not-applicable.ts";
import { statementCoverage } from "../src/runner/statement-coverage.ts";

const catalogue = loadCatalogue();

function result(partial: Partial<CheckResult> & Pick<CheckResult, "id" | "verdict">): CheckResult {
  return { source: "probe", family: "family-a", title: partial.id, profile: "seed", statements: [], decisions: [], covers: [], reasons: [], durationMs: 1, ...partial };
}

const notApplicable = (id: string, reason: string, family: CheckResult["family"] = "family-a") => result({ id, family, verdict: "not-applicable", reasons: [reason] });

const CURL = `curl -i -X GET 'http://127.0.0.1:4010/v1/merchant' -H "x-api-key: $API_KEY"  # API_KEY: the target's primary key`;

const report: RunReport = {
  target: "target.json",
  profile: "seed",
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 4200,
  families: ["family-a", "family-b"],
  documented: [
    { family: "family-a", operationId: "getMerchant", status: "200" },
    { family: "family-a", operationId: "getMerchant", status: "403" },
  ],
  warnings: [],
  timings: [{ suite: "dredd", family: "family-a", durationMs: 1000, requests: 12, pacingWaitMs: 0 }],
  keys: [{ member: "familyA.keys.primary", fingerprint: "key#0a1b2c3d" }],
  results: [
    result({
      id: "family-a/getMerchant/200/key-with-scope",
      source: "dredd",
      title: "getMerchant 200: the primary key",
      verdict: "fail",
      statements: ["AB-SERVICE-PRINCIPLE-json-bodies", "A-MERCHANT-FIELD-document"],
      covers: [{ operationId: "getMerchant", status: "200" }],
      reasons: ['body: /document must match format "cpf-cnpj" <script>'],
      exchanges: [{ method: "GET", url: "http://127.0.0.1:4010/v1/merchant", status: 200, body: '{"document":"11222333000182"}', reproduction: CURL }],
    }),
    result({
      id: "family-a/derived/consistency/createCharge/returns-what-was-sent",
      source: "derived",
      derivedClass: "consistency",
      title: "what was sent is what comes back",
      verdict: "fail",
      statements: ["A-CHARGE-FIELD-amount"],
      reasons: ["amount: sent 1990, answered 1991"],
      reproduction: "curl -i -X POST 'http://127.0.0.1:4010/v1/charges'\ncurl -i -X GET 'http://127.0.0.1:4010/v1/charges/ch_1'",
      example: { amount: 1990 },
    }),
    result({ id: "family-a/getMerchant/403/key-without-scope", verdict: "pass", statements: ["A-AUTH-AUTH-merchant-scope"], covers: [{ operationId: "getMerchant", status: "403" }] }),
    notApplicable("family-a/charges/a", "decision D14: the document does not state this outcome (checked under --profile full)"),
    notApplicable("family-a/charges/b", "decision D07: the document does not state this rule (checked under --profile full)"),
    notApplicable("family-b/boletos/c", "the target names no familyB.fixtures.confirmedBoletoId and this run canceled no boleto", "family-b"),
    notApplicable("family-b/customers/d", 'the target names no family B key "secondAccount"', "family-b"),
    notApplicable("family-a/auth/e", "the target is a sandbox (environment: sandbox): its keys are test keys"),
    notApplicable("family-b/limits/f", "rate-limit exhaustion excluded (--no-exhaust)", "family-b"),
    notApplicable("family-b/limits/g", "the rate limit is 5000 requests per window, above the 1000 this run may use up (--exhaust-cap)", "family-b"),
    notApplicable("family-a/events/h", "the sandbox refuses webhook targets on 127.0.0.1 unless started with --allow-private-webhooks"),
    notApplicable("family-a/errors/i", "OBE001 reports an internal error of the server; no client request can provoke it"),
  ],
};

describe("what would run a not-applicable check", () => {
  it("names the option of this command, with its usage", () => {
    expect(remedyOf(report.results[3]!)).toMatchObject({ kind: "option", subject: "--profile full", change: "run with --profile full" });
    expect(remedyOf(report.results[3]!).about).toMatch(/^seed: what the document states/);
    expect(remedyOf(report.results[8]!)).toMatchObject({ kind: "option", subject: "--no-exhaust", change: "run without --no-exhaust", about: "skip the 429 checks (they use up the account's rate limit)" });
    expect(remedyOf(report.results[9]!)).toMatchObject({ kind: "option", subject: "--exhaust-cap", change: "change --exhaust-cap" });
  });

  it("names the target file's member, with its schema's description", () => {
    expect(remedyOf(report.results[5]!)).toMatchObject({ kind: "target", subject: "familyB.fixtures.confirmedBoletoId" });
    expect(remedyOf(report.results[6]!)).toMatchObject({ kind: "target", subject: "familyB.keys.secondAccount" });
    expect(remedyOf(report.results[6]!).about).toMatch(/^A key of a second account/);
    expect(remedyOf(report.results[7]!)).toMatchObject({ kind: "target", subject: "familyA.environment" });
    expect(remedyOf(notApplicable("x", "the target's testKey does not start with sk_test_"))).toMatchObject({ kind: "target", subject: "familyA.keys.testKey" });
    expect(remedyOf(notApplicable("x", "the target names no familyB.keys.primary (a key of the other family)"))).toMatchObject({ kind: "target", subject: "familyB.keys.primary" });
  });

  it("names an option of the server, and leaves the rest to the server's answers", () => {
    expect(remedyOf(report.results[10]!)).toMatchObject({ kind: "server", subject: "--allow-private-webhooks" });
    expect(remedyOf(report.results[11]!)).toMatchObject({ kind: "answers", subject: "" });
  });

  it("groups by remedy, options first, then the target, the server and the answers; by reason within", () => {
    const groups = notApplicableGroups(report);
    expect(groups.map((g) => `${g.remedy.kind} ${g.remedy.subject} ${g.count}`)).toEqual([
      "option --profile full 2",
      "option --no-exhaust 1",
      "option --exhaust-cap 1",
      "target familyB.fixtures.confirmedBoletoId 1",
      "target familyB.keys.secondAccount 1",
      "target familyA.environment 1",
      "server --allow-private-webhooks 1",
      "answers  1",
    ]);
    expect(groups[0]!.reasons.map((r) => r.checks.map((c) => c.id))).toEqual([["family-a/charges/a"], ["family-a/charges/b"]]);
  });
});

describe("the HTML report", () => {
  const page = conformanceHtml(report, catalogue);
  const at = (text: string) => {
    const index = page.indexOf(text);
    expect(index, text).toBeGreaterThan(-1);
    return index;
  };

  it("opens with the verdict and its counts, then the failures, the not applicable and the statements", () => {
    expect(page).toMatch(/<header class="verdict fail"><span class="word">FAIL<\/span><span class="why">2 failing checks<\/span>/);
    expect(at('<span class="n">12</span>checks')).toBeLessThan(at('id="failures"'));
    expect(at('<span class="n">2</span>fail')).toBeLessThan(at('id="failures"'));
    expect(at('<span class="n">9</span>not applicable')).toBeLessThan(at('id="failures"'));
    expect(at('id="failures"')).toBeLessThan(at('id="not-applicable"'));
    expect(at('id="not-applicable"')).toBeLessThan(at('id="statements"'));
  });

  it("shows each failure with its statement quoted, the expected response, what was seen and a curl line", () => {
    const card = page.slice(at('<article class="failure" id="failure-1">'), at('<article class="failure" id="failure-2">'));
    // The statement the problem points at comes first, quoted; the others behind a disclosure.
    expect(card.indexOf("A-MERCHANT-FIELD-document")).toBeLessThan(card.indexOf("AB-SERVICE-PRINCIPLE-json-bodies"));
    expect(card).toContain(`A-MERCHANT-FIELD-document</code></a> <q>${escapeHtml(catalogue.byId.get("A-MERCHANT-FIELD-document")!.quote)}</q>`);
    expect(card).toMatch(/<dt>Expected<\/dt><dd><code>getMerchant<\/code> answering its documented <code>200<\/code>/);
    expect(card).toContain("<code>GET http://127.0.0.1:4010/v1/merchant</code> → <strong>200</strong>");
    expect(card).toContain('&quot;document&quot;: &quot;11222333000182&quot;');
    expect(card).toContain("must match format &quot;cpf-cnpj&quot; &lt;script&gt;");
    expect(card).toContain(`<pre class="curl">${CURL.replace(/"/g, "&quot;")}</pre>`);
    const derived = page.slice(at('id="failure-2"'), at('id="not-applicable"'));
    expect(derived).toContain("curl -i -X POST 'http://127.0.0.1:4010/v1/charges'\ncurl -i -X GET 'http://127.0.0.1:4010/v1/charges/ch_1'");
    expect(derived).toMatch(/<dt>Shrunk example<\/dt>/);
  });

  it("groups the not-applicable checks by what would run them, with what that is", () => {
    const section = page.slice(at('id="not-applicable"'), at('id="statements"'));
    expect(section).toContain("Run with <code>--profile full</code>");
    expect(section).toContain("Set <code>familyB.fixtures.confirmedBoletoId</code> in the target file");
    expect(section).toContain("Start the server with <code>--allow-private-webhooks</code>");
    expect(section).toContain("Nothing this run sets: the server's answers decided it");
    expect(section).toContain('<p class="about">skip the 429 checks (they use up the account\'s rate limit)</p>');
  });

  it("lists every statement of the families run, each with its state, filterable and searchable", () => {
    const entries = statementCoverage(report, catalogue);
    const rows = [...page.matchAll(/<tr id="st-([^"]+)" data-state="([^"]+)" data-family="([^"]+)">/g)];
    expect(rows.map((r) => r[1])).toEqual(entries.map((e) => e.statement.id));
    expect(rows.find((r) => r[1] === "A-MERCHANT-FIELD-document")![2]).toBe("fail");
    expect(rows.find((r) => r[1] === "A-AUTH-AUTH-merchant-scope")![2]).toBe("pass");
    // A broken statement's failing check links to its card.
    expect(page).toMatch(/<a href="#failure-1"><code>family-a\/getMerchant\/200\/key-with-scope<\/code><\/a>/);
    expect(page).toContain('<input type="search" id="statement-search"');
  });

  it("is one file that loads nothing: inline style and script, a policy that forbids any load", () => {
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">`);
    expect(page).not.toMatch(/\s(src|srcset)=|<link\b|@import|url\(/);
    expect(page).not.toMatch(/href="(?!#)/);
  });

  it("says which fingerprint stands for which key, and a stopped run's reason", () => {
    expect(page).toContain("<td><code>key#0a1b2c3d</code></td><td><code>familyA.keys.primary</code></td>");
    const stopped = conformanceHtml({ ...report, results: [] }, catalogue, { stopped: "family A: http://x stopped answering" });
    expect(stopped).toMatch(/<header class="verdict stopped"><span class="word">STOPPED<\/span><span class="why">family A: http:\/\/x stopped answering<\/span>/);
  });
});
