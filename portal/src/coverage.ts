/**
 * Conformance coverage of the statement catalogue: which conformance checks enforce each
 * statement. The mapping belongs to the conformance suites (each check names the statement
 * ids it enforces, see `@payment-collection/conformance`); the portal only shows it.
 */
import { staticStatementCoverage, type CoveringCheck } from "@payment-collection/conformance/runner/static-coverage.ts";

export type { CoveringCheck };

export interface StatementCoverage {
  /** Where the mapping came from, named on the page. */
  source: string;
  byStatement: Map<string, CoveringCheck[]>;
}

/** The mapping the conformance suites publish. */
export function loadStatementCoverage(): StatementCoverage {
  return { source: "the conformance runner (response checks and scenarios)", byStatement: staticStatementCoverage() };
}
