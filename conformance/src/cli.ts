/**
 * `payment-collection conformance --target FILE [options]` (also `tsx src/cli.ts ...`), and
 * `--mock`: the suites against the Prism mock of both families, which the command starts.
 *
 * Runs the conformance suites against the servers a target file names. Exit codes: 0 every
 * check passed; 1 a check failed or coverage is below --min-coverage; 2 bad options or target
 * file, a server unreachable, a key refused, a run that stopped early, --mock without Prism, or
 * Dredd not installed (without --no-dredd).
 */
import { refusal, refuse } from "@payment-collection/contract/command/command-line.ts";
import type { Profile } from "./core/profiles/schema-profile.ts";
import type { Target } from "./core/target.ts";
import { parseCliOptions, rerunLine, USAGE, UsageError, type CliOptions } from "./runner/cli-options.ts";
import { EXIT } from "./runner/exit-codes.ts";
import { isMain } from "./runner/is-main.ts";

/**
 * The profile when none is given: seed, what the document states; against the mock, full. The
 * mock serves the contract itself, decisions included, so full checks all it can answer, where
 * seed would only leave the decided parts unchecked (and a mock cannot be a faithful server
 * that chose otherwise, which is what seed is fair to).
 */
export function defaultProfile(target: Pick<Target, "mock">): Profile {
  return target.mock === "prism" ? "full" : "seed";
}

/** `--mock`: starts Prism for both families, runs the suites against it, stops it. */
async function againstMock(options: CliOptions, argv: string[]): Promise<number> {
  const [{ prismEntry, prismMissing }, { startMock }, { mockTarget }, { runAndReport }] = await Promise.all([
    import("./mock/prism.ts"),
    import("./mock/start-mock.ts"),
    import("./mock/mock-target.ts"),
    import("./runner/run-and-report.ts"),
  ]);
  if (!prismEntry()) return refuse("conformance", `--mock needs Prism: ${prismMissing()}`, EXIT.stopped);
  let mock;
  try {
    mock = await startMock();
  } catch (error) {
    return refuse("conformance", `--mock: Prism did not start: ${((error as Error).message ?? String(error)).split("\n")[0]}`, EXIT.stopped);
  }
  try {
    const target = mockTarget(mock.urls);
    return (await runAndReport(target, { ...options, profile: options.profile ?? defaultProfile(target), rerun: (seed) => rerunLine("payment-collection conformance", argv, seed) })).code;
  } finally {
    await mock.close();
  }
}

/** Runs the command with its arguments (without the command's own name); resolves with the exit code. */
export async function conformanceCommand(argv: string[]): Promise<number> {
  let options;
  try {
    options = parseCliOptions(argv);
    if (options.help) {
      console.log(USAGE);
      return EXIT.pass;
    }
    if (!options.target && !options.mock) throw new UsageError("--target FILE or --mock is required: the servers to check (payment-collection sandbox --write-target FILE writes a target for the sandbox)");
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return refuse("conformance", error.message, EXIT.stopped);
  }
  if (options.dredd) {
    // Dredd is an optional peer dependency: asked for and absent, one line says how to install it.
    const { dreddInstalled, dreddMissing } = await import("./dredd/dredd-library.ts");
    if (!dreddInstalled()) return refuse("conformance", dreddMissing(), EXIT.stopped);
  }
  if (options.mock) return againstMock(options, argv);
  // The runner and the contract model load only now: help and bad options answer at once.
  const [{ emptyReport, runAndReport, writeStoppedReports }, { loadTarget, TargetError }] = await Promise.all([
    import("./runner/run-and-report.ts"),
    import("./core/target.ts"),
  ]);
  let target: Target;
  try {
    target = loadTarget(options.target!, process.env, { families: options.families });
  } catch (error) {
    if (!(error instanceof TargetError)) throw error;
    console.error(refusal("conformance", error.message));
    writeStoppedReports(options, `${error.source}: ${error.problems.join("; ")}`, emptyReport(options.target!, { ...options, profile: options.profile ?? "seed" }));
    return EXIT.stopped;
  }
  return (await runAndReport(target, { ...options, profile: options.profile ?? defaultProfile(target), rerun: (seed) => rerunLine("payment-collection conformance", argv, seed) })).code;
}

if (isMain(import.meta.url)) {
  conformanceCommand(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(refusal("conformance", (error as Error).message ?? String(error)));
      process.exit(EXIT.stopped);
    },
  );
}
