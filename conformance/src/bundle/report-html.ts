/**
 * report.html of a bundle: the readable conformance report, one self-contained page that opens
 * offline. It is the page `conformance --html PATH` writes, produced by the conformance
 * report's HTML renderer (runner/html-report.ts, a pure function of the run report); the bundle
 * keeps no renderer of its own.
 *
 * TO WIRE when runner/html-report.ts is in: import its renderer and return its page here, e.g.
 *   return renderHtmlReport(report);
 * Until then a bundle has no report.html; the manifest, the signature and verify cover the files
 * a bundle has, so nothing else changes when it gains one.
 */
import type { RunReport } from "../core/results.ts";

export function reportHtml(report: RunReport): string | undefined {
  void report;
  return undefined;
}
