/**
 * The OWASP API Security lint (contract/spectral-owasp.yaml through lint-owasp.ts): the four
 * generated documents are clean, every rule turned off says why, a request input without a
 * bound fails the lint, and a rule turned off without a reason is reported.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatLintReport, generatedYamlDocuments, lintOwaspDocuments } from "../src/build/lint-openapi.ts";
import { loadOwaspRuleset, OWASP_RULESET_FILE } from "../src/build/lint-owasp.ts";
import { ROOT } from "../src/build/contract-build.ts";
import { openapiPath } from "../src/model/layout.ts";

const scratch = mkdtempSync(join(tmpdir(), "owasp-lint-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("OWASP API Security lint", () => {
  it("finds no error or warning in the four documents, and no unexplained exception", async () => {
    const { reports, off, problems } = await lintOwaspDocuments(generatedYamlDocuments());
    expect(problems).toEqual([]);
    for (const report of reports) expect(report.counts.error + report.counts.warning, formatLintReport(report)).toBe(0);
    expect(off.length).toBeGreaterThan(0);
    for (const exception of off) expect(exception.reason.length, exception.rule).toBeGreaterThan(40);
  });

  it("fails a request string without a maxLength (a customer's name on creation)", async () => {
    const document = JSON.parse(readFileSync(join(ROOT, "generated", openapiPath("3.1", "family-b", "json")), "utf8"));
    delete document.components.schemas.CustomerCreateRequest.properties.name.maxLength;
    const file = join(scratch, "family-b-unbounded.json");
    writeFileSync(file, JSON.stringify(document));
    const { reports } = await lintOwaspDocuments([file]);
    const findings = reports[0]!.findings.filter((finding) => finding.code === "request-string-limit");
    expect(findings.map((finding) => finding.path)).toEqual(["components.schemas.CustomerCreateRequest.properties.name"]);
    expect(findings[0]!.severity).toBe("error");
  });

  it("fails a page number without a maximum", async () => {
    const document = JSON.parse(readFileSync(join(ROOT, "generated", openapiPath("3.1", "family-b", "json")), "utf8"));
    const list = document.paths["/transactions"].get;
    const page = list.parameters.find((parameter: { name?: string }) => parameter.name === "page");
    delete page.schema.maximum;
    const file = join(scratch, "family-b-unbounded-page.json");
    writeFileSync(file, JSON.stringify(document));
    const { reports } = await lintOwaspDocuments([file]);
    expect(reports[0]!.findings.filter((finding) => finding.code === "request-integer-limit")).toHaveLength(1);
  });

  it("reports a rule turned off without a reason", () => {
    const text = readFileSync(OWASP_RULESET_FILE, "utf8").replace("rules:\n", "rules:\n  owasp:api3:2023-no-additionalProperties: off\n");
    const file = join(scratch, "unexplained.yaml");
    writeFileSync(file, text);
    expect(loadOwaspRuleset(file).problems).toEqual([`${file}: rule owasp:api3:2023-no-additionalProperties is turned off without a reason (a comment above it)`]);
  });
});
