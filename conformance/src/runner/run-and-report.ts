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
import { failed, type CheckResult, type RunReport } from "../core/results.ts";
import { loadCatalogue, type Catalogue } from "../core/statement-map.ts";
import { familyTarget, type Target } from "../core/target.ts";
import type { CliOptions } from "./cli-options.ts";
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

export type ReportOptions = Pick<CliOptions, "families" | "junit" | "json" | "report" | "statements" | "coverage" | "exhaust" | "exhaustCap" | "minCoverage" | "quiet"> &
  Partial<Pick<CliOptions, "progress" | "failFast" | "seed" | "bundle" | "signingKey">> & {
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

/** The texts of the JUnit and JSON reports of a run, ended or stopped early (with the reason). */
function reportTexts(report: RunReport, catalogue: Catalogue | undefined, end: { stopped: string } | { coverage: ReturnType<typeof responseCoverage> }): { junit: string; json: string } {
  if ("stopped" in end) {
    // The statement suite would only list what never ran: it comes with results.
    return { junit: toJunitXml(report, report.results.length > 0 ? catalogue : undefined, end), json: `${JSON.stringify({ ...report, stopped: end.stopped }, null, 2)}\n` };
  }
  return { junit: toJunitXml(report, catalogue, end), json: `${JSON.stringify({ ...report, responseCoverage: end.coverage }, null, 2)}\n` };
}

/** The JUnit and JSON files of a run that stopped early: what ran (if anything) and the reason. */
export function writeStoppedReports(options: Pick<ReportOptions, "junit" | "json">, reason: string, report: RunReport, catalogue?: Catalogue): void {
  const texts = reportTexts(report, catalogue, { stopped: reason });
  if (options.junit) write(options.junit, texts.junit);
  if (options.json) write(options.json, texts.json);
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
    console.error(error.message);
    writeStoppedReports(options, error.message, emptyReport(target.source, options), catalogue);
    return { code: EXIT.stopped };
  }
  const finishBundle = async (report: RunReport, texts: { junit: string; json: string }, code: number, stopped?: string) => {
    if (!bundle) return;
    const verdict = stopped ? "stopped" : code === EXIT.pass ? "pass" : "fail";
    const verdictOptions = { exhaust: options.exhaust, exhaustCap: options.exhaustCap, failFast: options.failFast ?? false, ...(options.minCoverage !== undefined ? { minCoverage: options.minCoverage } : {}) };
    const lines = await bundle.finish({ target, families, report, reportJson: texts.json, junitXml: texts.junit, options: verdictOptions, verdict, stopped });
    for (const line of lines) console.log(line);
  };
  const problems = await preflight(target, { families, onExchange: bundle?.recording.exchange });
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    const report = { ...emptyReport(target.source, options), ...(options.seed !== undefined ? { seed: options.seed } : {}) };
    writeStoppedReports(options, problems.join("; "), report, catalogue);
    await finishBundle(report, reportTexts(report, catalogue, { stopped: problems.join("; ") }), EXIT.stopped, problems.join("; "));
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
    console.error(stopped.message);
    writeStoppedReports(options, stopped.message, partial, catalogue);
    await finishBundle(partial, reportTexts(partial, catalogue, { stopped: stopped.message }), EXIT.stopped, stopped.message);
    return { code: EXIT.stopped, report: stopped.report };
  }
  progress.end();

  const figure = responseCoverage(report, options.minCoverage);
  console.log(formatReport(report, { statements: options.statements, coverage: options.coverage, catalogue, minCoverage: options.minCoverage }));
  if (!figure.met) console.error(coverageShortfall(figure));
  const texts = reportTexts(report, catalogue, { coverage: figure });
  if (options.junit) write(options.junit, texts.junit);
  if (options.report) write(options.report, statementReportMarkdown(report, statementCoverage(report, catalogue)));
  if (options.json) write(options.json, texts.json);
  const code = failed(report).length > 0 || !figure.met ? EXIT.failed : EXIT.pass;
  // A failing run says how to send its requests again.
  if (code === EXIT.failed && report.seed !== undefined && options.rerun) console.error(`rerun with the same generated values: ${options.rerun(report.seed)}`);
  await finishBundle(report, texts, code);
  return { code, report };
}
