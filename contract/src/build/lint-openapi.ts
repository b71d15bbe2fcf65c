/**
 * `npm run lint` (and `npm run lint:openapi`): lints the four generated OpenAPI documents with
 * Spectral, first with the ruleset in .spectral.yaml (spectral:oas), then with the OWASP API
 * Security rules as contract/spectral-owasp.yaml applies them (lint-owasp.ts), prints the
 * findings and their counts per document, and exits non-zero when any document has an error
 * or a warning (infos and hints are printed only), or when the OWASP file turns a rule off
 * without a reason.
 *
 * The test suite imports `lintOpenApiDocuments` instead of parsing the CLI's output.
 */
import * as fs from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { Document, Spectral, type ISpectralDiagnostic } from "@stoplight/spectral-core";
import { bundleAndLoadRuleset } from "@stoplight/spectral-ruleset-bundler/with-loader";
// CommonJS packages whose named exports Node cannot detect statically.
import spectralParsers from "@stoplight/spectral-parsers";
import spectralRuntime from "@stoplight/spectral-runtime";
import { ROOT } from "./contract-build.ts";
import { FAMILIES, OPENAPI_VERSIONS, openapiPath } from "../model/layout.ts";
import { commandLine } from "./command-line.ts";
import { loadOwaspRuleset, OWASP_RULESET_FILE } from "./lint-owasp.ts";

export const RULESET_FILE = join(ROOT, ".spectral.yaml");

/** Spectral's severities, indexed by its numeric DiagnosticSeverity (0 = error ... 3 = hint). */
const SEVERITY_NAMES = ["error", "warning", "info", "hint"] as const;
export type SeverityName = (typeof SEVERITY_NAMES)[number];

export interface LintFinding {
  severity: SeverityName;
  code: string;
  message: string;
  /** 1-based line and column in the linted file. */
  line: number;
  column: number;
  path: string;
}

export interface LintReport {
  file: string;
  counts: Record<SeverityName, number>;
  findings: LintFinding[];
}

/** The four YAML documents the build writes, as absolute paths. */
export function generatedYamlDocuments(generatedDir = join(ROOT, "generated")): string[] {
  return OPENAPI_VERSIONS.flatMap((version) =>
    FAMILIES.map((family) => join(generatedDir, openapiPath(version.id, family.id, "yaml"))),
  );
}

function toFinding(diagnostic: ISpectralDiagnostic): LintFinding {
  return {
    severity: SEVERITY_NAMES[diagnostic.severity] ?? "hint",
    code: String(diagnostic.code),
    message: diagnostic.message,
    line: diagnostic.range.start.line + 1,
    column: diagnostic.range.start.character + 1,
    path: diagnostic.path.join("."),
  };
}

/** Lints each file with the project ruleset; one report per file, in the order given. */
export async function lintOpenApiDocuments(
  files: string[] = generatedYamlDocuments(),
  rulesetFile: string = RULESET_FILE,
): Promise<LintReport[]> {
  const spectral = new Spectral();
  spectral.setRuleset(await bundleAndLoadRuleset(rulesetFile, { fs, fetch: spectralRuntime.fetch }));
  return runSpectral(spectral, files);
}

/**
 * Lints each file with the OWASP rules as the contract applies them; `problems` lists what is
 * wrong with the ruleset file itself (a rule turned off without a reason).
 */
export async function lintOwaspDocuments(
  files: string[] = generatedYamlDocuments(),
  rulesetFile: string = OWASP_RULESET_FILE,
): Promise<{ reports: LintReport[]; off: Array<{ rule: string; reason: string }>; problems: string[] }> {
  const ruleset = loadOwaspRuleset(rulesetFile);
  const spectral = new Spectral();
  spectral.setRuleset(ruleset.definition as never);
  return { reports: await runSpectral(spectral, files), off: ruleset.off, problems: ruleset.problems };
}

async function runSpectral(spectral: Spectral, files: string[]): Promise<LintReport[]> {
  const reports: LintReport[] = [];
  for (const file of files) {
    const document = new Document(fs.readFileSync(file, "utf8"), spectralParsers.Yaml, file);
    const findings = (await spectral.run(document)).map(toFinding);
    const counts = { error: 0, warning: 0, info: 0, hint: 0 };
    for (const finding of findings) counts[finding.severity] += 1;
    reports.push({ file, counts, findings });
  }
  return reports;
}

/** Errors and warnings fail the lint; infos and hints are advice. */
export function lintFailed(reports: LintReport[]): boolean {
  return reports.some((report) => report.counts.error + report.counts.warning > 0);
}

export function formatLintReport(report: LintReport): string {
  const { error, warning, info, hint } = report.counts;
  const lines = [
    `${relative(ROOT, report.file)}: ${error} errors, ${warning} warnings, ${info} infos, ${hint} hints`,
  ];
  for (const f of report.findings) {
    lines.push(`  ${f.line}:${f.column} ${f.severity} ${f.code} ${f.message}${f.path ? ` (${f.path})` : ""}`);
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const files = commandLine(
    "usage: npm run lint [-- FILE...]\n\nLints the four family documents (or the given OpenAPI files) with Spectral's spectral:oas\nruleset, then with the OWASP API Security rules (contract/spectral-owasp.yaml). Exit 0 when\nclean; 1 on any error or warning, or a rule turned off without a reason; 2 on a bad option.",
    {},
    true,
  ).positionals;
  const reports = await lintOpenApiDocuments(files.length > 0 ? files : undefined);
  for (const report of reports) console.log(formatLintReport(report));
  const owasp = await lintOwaspDocuments(files.length > 0 ? files : undefined);
  console.log(`OWASP API Security rules (${relative(ROOT, OWASP_RULESET_FILE)}; ${owasp.off.length} turned off, each with its reason there):`);
  for (const report of owasp.reports) console.log(formatLintReport(report));
  for (const problem of owasp.problems) console.error(`  ${problem}`);
  if (lintFailed(reports) || lintFailed(owasp.reports) || owasp.problems.length > 0) {
    console.error("lint: errors, warnings or unexplained exceptions found");
    process.exitCode = 1;
  } else {
    console.log(`lint: ${reports.length} documents clean under spectral:oas and the OWASP rules`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
