/**
 * The coverage figure of a run: how many of the documented responses (operation x documented
 * status, from the contract) some check exercised, and whether that meets `--min-coverage`.
 */
import { coverage, type RunReport } from "../core/results.ts";

export interface ResponseCoverage {
  exercised: number;
  documented: number;
  /** exercised / documented, in percent (100 when nothing is documented). */
  percent: number;
  /** The `--min-coverage` asked for, if any. */
  minimum?: number;
  /** False when the figure is below the minimum. */
  met: boolean;
}

export function responseCoverage(report: Pick<RunReport, "results" | "documented">, minimum?: number): ResponseCoverage {
  const entries = coverage(report);
  const exercised = entries.filter((e) => e.exercisedBy.length > 0).length;
  const percent = entries.length === 0 ? 100 : (exercised / entries.length) * 100;
  return { exercised, documented: entries.length, percent, minimum, met: minimum === undefined || percent >= minimum };
}

/** `54%`, `53.8%`: one decimal when the figure is not whole, never rounded up to a pass. */
export function formatPercent(percent: number): string {
  const tenths = Math.floor(percent * 10) / 10;
  return `${Number.isInteger(tenths) ? tenths.toFixed(0) : tenths.toFixed(1)}%`;
}

/** The one line that says why the run fails on coverage. */
export function coverageShortfall(figure: ResponseCoverage): string {
  return `coverage ${formatPercent(figure.percent)} (${figure.exercised} of ${figure.documented} documented responses exercised) is below --min-coverage ${figure.minimum}%`;
}
