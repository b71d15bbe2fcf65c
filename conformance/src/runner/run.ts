/**
 * A conformance run: the Dredd suite, the probes and the behaviour scenarios of each family of
 * a target, in two stages (everything else first, then the checks that use up rate limits),
 * collected into one report.
 *
 * What the run holds is its record (run-record.ts); what one stage of a family runs, and in
 * which order, is family-stage.ts.
 */
import type { RunReport } from "../core/results.ts";
import { runStage } from "./family-stage.ts";
import type { RunOptions } from "./run-options.ts";
import { RunRecord } from "./run-record.ts";
import { RunStopped } from "./run-stopped.ts";

export type { RunOptions } from "./run-options.ts";

/**
 * Runs the suites. Throws RunStopped, with the report of what ran, when a server stops
 * answering between suites or a suite throws what it should not. A run ended by `stopWhen`
 * returns its report, marked `stoppedEarly`.
 */
export async function runConformance(options: RunOptions): Promise<RunReport> {
  const record = new RunRecord(options);
  try {
    // One family after the other: the families' accounts may be one on the server, and checks
    // that read the rate-limit headers must not see the other family's requests.
    for (const run of record.runs) await runStage(record, run, "main");
    for (const run of record.runs) await runStage(record, run, "exhaust");
  } catch (error) {
    throw stoppedWith(error, record.report());
  }
  return record.report();
}

/** The RunStopped a run throws: its reason, the report of what ran, and the first cause. */
function stoppedWith(error: unknown, report: RunReport): RunStopped {
  const reason = error instanceof RunStopped ? error.message : `the run stopped: ${(error as Error).message?.split("\n")[0] ?? String(error)}`;
  return new RunStopped(reason, report, { cause: error instanceof RunStopped ? (error.cause ?? error) : error });
}
