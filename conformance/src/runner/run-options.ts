/** What a conformance run is given: the target, which suites, and what it reports as it goes. */
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import type { ResponseCheck } from "../checks/response-check.ts";
import type { Profile } from "../core/profiles/schema-profile.ts";
import type { PacerOptions, WireExchange } from "../core/pacing.ts";
import type { CheckResult } from "../core/results.ts";
import type { Scenario } from "../core/scenario.ts";
import type { Target } from "../core/target.ts";
import type { DerivedOptions } from "../derived/index.ts";
import type { RunProgress } from "./progress.ts";

export interface RunOptions {
  target: Target;
  /** Families to run (default: both). */
  families?: FamilyId[];
  profile?: Profile;
  /** Run the 429 checks, which use up the account's rate limit (default true). */
  exhaust?: boolean;
  /** False: the Dredd suites do not run, and the checks they would run are not applicable (default true). */
  dredd?: boolean;
  /** Highest rate limit the run may use up (requests per window). */
  exhaustCap?: number;
  /** Behaviour scenarios to run with the response checks (default: src/scenarios). */
  scenarios?: Scenario[];
  /** Response checks (default: the suites of src/checks). */
  checks?: Record<FamilyId, ResponseCheck[]>;
  /** Progress lines (suites and pacing waits); `progress` replaces them. */
  log?: (line: string) => void;
  /** Progress: suites, checks done, pacing waits with a countdown (default: the `log` lines). */
  progress?: RunProgress;
  /** Build output to read the contract from (default generated/). */
  generatedDir?: string;
  /** The generic checks derived from the contract and the run's traffic (src/derived/); false: none. */
  derived?: DerivedOptions | false;
  /**
   * Stops the run once a result satisfies it (`--fail-fast`: the first failure): the checks,
   * scenarios and generic check classes not begun yet do not run, the Dredd suite skips its
   * remaining transactions, and the report says that it stopped early (`stoppedEarly`).
   */
  stopWhen?: (result: CheckResult) => boolean;
  /**
   * How long a request may take and how long the run may wait after a 429 (default: 30 s, and
   * windows of up to 2 minutes). A run against a local server that must never be limited (the
   * mutation run) gives a few seconds: a request it does not answer in time is a failure there.
   */
  pacing?: Pick<PacerOptions, "timeoutMs" | "maxWaitSeconds" | "maxRetries">;
  /** Seed of every value the run makes up (ids, keys, generated bodies); default: one drawn for the run, reported. */
  seed?: number;
  /** Every exchange of the run as it ends, and every result as it is recorded (a recording: src/bundle/). */
  onExchange?: (exchange: WireExchange) => void;
  onResult?: (result: CheckResult) => void;
}
