/**
 * A run that could not finish: a server stopped answering, or something the suites did not
 * expect was thrown. It carries the report of what ran before, so that the JUnit and JSON
 * reports still show it, with the reason as an error.
 */
import type { RunReport } from "../core/results.ts";

export class RunStopped extends Error {
  constructor(
    message: string,
    /** The checks that ran before the run stopped (none when it stopped before starting). */
    readonly report?: RunReport,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
