/**
 * Global setup of the self-test: clears the kill records before the run, and after it prints the
 * table of statements, their broken servers and whether the suites killed them (also written
 * to reports/statement-kills.md and .json).
 */
import { clearKillRecords, statementKillReport, writeStatementKills } from "./statement-kills.ts";

export default function setup(): () => void {
  clearKillRecords();
  return () => {
    const report = statementKillReport();
    // Only a run that ran broken servers has a table worth printing.
    if (report.rows.some((r) => r.servers.some((s) => s.outcome !== "not run"))) console.log(writeStatementKills(report));
    else console.log(report.summary.join("\n"));
  };
}
