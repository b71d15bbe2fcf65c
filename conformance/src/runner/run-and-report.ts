/**
 * What `payment-collection conformance` does once it has a target: check that the servers
 * answer and accept the keys, run with progress on stderr, print the report, write the files
 * asked for, and tell the exit code. The JUnit and JSON files are written even when the run
 * stops early, with the reason as an error, so that CI shows why.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Profile } from "../core/profiles/schema-profile.ts";
import { FAMILY_IDS } from "@payment-collection/contract/model/index.ts";
import { refusal } from "@payment-collection/contract/command/command-line.ts";
import { failed, type CheckResult, type RunReport } from "../core/results.ts";
import { loadCatalogue, type Catalogue } from "../core/statement-map.ts";
import { familyTarget, type Target } from "../core/target.ts";
import type { CliOptions } from "./cli-options.ts";
import { conformanceHtml } from "./html-report.ts";
import { toJunitXml } from "./junit.ts";
import { preflight } from "./preflight.ts";
import { progressMode, streamProgress } from "./progress.ts";
import { formatReport } from "./report.ts";
import { coverageShortfall, responseCoverage } from "./response-coverage.ts";
import { runConformance } from "./run.ts";
import { RunStopped } from "./run-stopped.ts";
import { statementCoverage, statementReportMarkdown } from "./statement-coverage.ts";
import { EXIT } from "./exit-codes.ts";
import { BundleSession, SigningKeyError } from "../bundle/bundle-session.ts";

export type ReportOptions = Pick<CliOptions, "families" | "junit" | "json" | "report" | "html" | "statements" | "coverage" | "exhaust" | "exhaustCap" | "minCoverage" | "quiet"> &
  Partial<Pick<CliOptions, "progress" | "failFast" | "seed" | "bundle" | "signingKey" | "dredd">> & {
    profile: Profile;
    /** The command line that runs this run again with the given seed (printed when it fails). */
    rerun?: (seed: number) => string;
  };

export { EXIT };

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A report with no results, for a run that stopped before its first check. */
export function emptyReport(source: string, options: Pick<ReportOptions, "families" | "profile">): RunReport {
  return {
    target: source,
    profile: options.profile,
    startedAt: new Date().toISOString(),
    durationMs: 0,
    results: [],
    timings: [],
    families: options.families ?? [...FAMILY_IDS],
    documented: [],
    warnings: [],
  };
}

/** The texts of a run's reports, ended or stopped early (with the reason): the files of `--junit`, `--json` and `--html`, and of a bundle. */
export interface ReportTexts {
  junit: string;
  json: string;
  html: string;
}

function reportTexts(report: RunReport, catalogue: Catalogue | undefined, end: { stopped: string } | { coverage: ReturnType<typeof responseCoverage>; minCoverage?: number }): ReportTexts {
  if ("stopped" in end) {
    return {
      // The statement suite would only list what never ran: it comes with results.
      junit: toJunitXml(report, report.results.length > 0 ? catalogue : undefined, end),
      json: `${JSON.stringify({ ...report, stopped: end.stopped }, null, 2)}\n`,
      html: conformanceHtml(report, catalogue ?? loadCatalogue(), { stopped: end.stopped }),
    };
  }
  return {
    junit: toJunitXml(report, catalogue, { coverage: end.coverage }),
    json: `${JSON.stringify({ ...report, responseCoverage: end.coverage }, null, 2)}\n`,
    html: conformanceHtml(report, catalogue ?? loadCatalogue(), { minCoverage: end.minCoverage }),
  };
}

function writeTexts(options: Pick<ReportOptions, "junit" | "json" | "html">, texts: ReportTexts): void {
  if (options.junit) write(options.junit, texts.junit);
  if (options.json) write(options.json, texts.json);
  if (options.html) write(options.html, texts.html);
}

/** The JUnit, JSON and HTML files of a run that stopped early: what ran (if anything) and the reason. */
export function writeStoppedReports(options: Pick<ReportOptions, "junit" | "json" | "html">, reason: string, report: RunReport, catalogue?: Catalogue): void {
  writeTexts(options, reportTexts(report, catalogue, { stopped: reason }));
}

/** Runs, prints and writes what was asked; returns the exit code (EXIT) and the report when the run ended. */
export async function runAndReport(target: Target, options: ReportOptions): Promise<{ code: number; report?: RunReport }> {
  const catalogue = loadCatalogue();
  const families = (options.families ?? [...FAMILY_IDS]).filter((family) => familyTarget(target, family));
  // --bundle: its key is read before anything runs; the recording follows the preflight and the run.
  let bundle: BundleSession | undefined;
  try {
    bundle = options.bundle ? BundleSession.open(options.bundle, options.signingKey) : undefined;
  } catch (error) {
    if (!(error instanceof SigningKeyError)) throw error;
    console.error(refusal("conformance", error.message));
    writeStoppedReports(options, error.message, emptyReport(target.source, options), catalogue);
    return { code: EXIT.stopped };
  }
  const finishBundle = async (report: RunReport, texts: ReportTexts, code: number, stopped?: string) => {
    if (!bundle) return;
    const verdict = stopped ? "stopped" : code === EXIT.pass ? "pass" : "fail";
    const verdictOptions = { exhaust: options.exhaust, exhaustCap: options.exhaustCap, failFast: options.failFast ?? false, dredd: options.dredd ?? true, ...(options.minCoverage !== undefined ? { minCoverage: options.minCoverage } : {}) };
    const lines = await bundle.finish({ target, families, report, reportJson: texts.json, junitXml: texts.junit, reportHtml: texts.html, options: verdictOptions, verdict, stopped });
    for (const line of lines) console.log(line);
  };
  const problems = await preflight(target, { families, onExchange: bundle?.recording.exchange });
  if (problems.length > 0) {
    for (const problem of problems) console.error(refusal("conformance", problem));
    const report = { ...emptyReport(target.source, options), ...(options.seed !== undefined ? { seed: options.seed } : {}) };
    const texts = reportTexts(report, catalogue, { stopped: problems.join("; ") });
    writeTexts(options, texts);
    await finishBundle(report, texts, EXIT.stopped, problems.join("; "));
    return { code: EXIT.stopped };
  }
  bundle?.recording.runBegins();

  const progress = streamProgress(
    progressMode({ quiet: options.quiet, progress: options.progress ?? false, isTTY: process.stderr.isTTY === true, ci: process.env.CI }),
    process.stderr,
  );
  let report: RunReport;
  try {
    report = await runConformance({
      target,
      families: options.families,
      profile: options.profile,
      exhaust: options.exhaust,
      exhaustCap: options.exhaustCap,
      dredd: options.dredd,
      progress,
      seed: options.seed,
      onExchange: bundle?.recording.exchange,
      onResult: bundle?.recording.result,
      // --fail-fast: the first failure ends the run; it exits 1 like any failure.
      ...(options.failFast ? { stopWhen: (result: CheckResult) => result.verdict === "fail" } : {}),
    });
  } catch (error) {
    progress.end();
    const stopped = error instanceof RunStopped ? error : new RunStopped(`the run stopped: ${(error as Error).message?.split("\n")[0] ?? String(error)}`, undefined, { cause: error });
    const partial = stopped.report ?? emptyReport(target.source, options);
    if (partial.results.length > 0) console.log(formatReport(partial, { catalogue }));
    console.error(refusal("conformance", stopped.message));
    const texts = reportTexts(partial, catalogue, { stopped: stopped.message });
    writeTexts(options, texts);
    await finishBundle(partial, texts, EXIT.stopped, stopped.message);
    return { code: EXIT.stopped, report: stopped.report };
  }
  progress.end();

  const figure = responseCoverage(report, options.minCoverage);
  console.log(formatReport(report, { statements: options.statements, coverage: options.coverage, catalogue, minCoverage: options.minCoverage }));
  if (!figure.met) console.error(refusal("conformance", coverageShortfall(figure)));
  const texts = reportTexts(report, catalogue, { coverage: figure, minCoverage: options.minCoverage });
  writeTexts(options, texts);
  if (options.report) write(options.report, statementReportMarkdown(report, statementCoverage(report, catalogue)));
  const code = failed(report).length > 0 || !figure.met ? EXIT.failed : EXIT.pass;
  // A failing run says how to send its requests again.
  if (code === EXIT.failed && report.seed !== undefined && options.rerun) console.error(`rerun with the same generated values: ${options.rerun(report.seed)}`);
  await finishBundle(report, texts, code);
  return { code, report };
}

/** The files of a run that ended, as asked for: JUnit, the Markdown statement report, HTML, JSON. */
export function writeReports(options: Pick<ReportOptions, "junit" | "json" | "report" | "html" | "minCoverage">, report: RunReport, catalogue: Catalogue): void {
  writeTexts(options, reportTexts(report, catalogue, { coverage: responseCoverage(report, options.minCoverage), minCoverage: options.minCoverage }));
  if (options.report) write(options.report, statementReportMarkdown(report, statementCoverage(report, catalogue)));
}
