/**
 * `payment-collection conformance --target FILE [options]` (also `tsx src/cli.ts ...`).
 *
 * Runs the conformance suites against the servers a target file names. Exit codes: 0 every
 * check passed; 1 a check failed or coverage is below --min-coverage; 2 bad options or target
 * file, a server unreachable, a key refused, or a run that stopped early.
 */
import { parseCliOptions, rerunLine, USAGE, UsageError } from "./runner/cli-options.ts";
import { EXIT } from "./runner/exit-codes.ts";
import { isMain } from "./runner/is-main.ts";

/** Runs the command with its arguments (without the command's own name); resolves with the exit code. */
export async function conformanceCommand(argv: string[]): Promise<number> {
  let options;
  try {
    options = parseCliOptions(argv);
    if (options.help) {
      console.log(USAGE);
      return EXIT.pass;
    }
    if (!options.target) throw new UsageError("--target FILE is required");
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`payment-collection conformance: ${error.message}\n\n${USAGE}`);
    return EXIT.stopped;
  }
  // The runner and the contract model load only now: help and bad options answer at once.
  const [{ emptyReport, runAndReport, writeStoppedReports }, { loadTarget, TargetError }] = await Promise.all([
    import("./runner/run-and-report.ts"),
    import("./core/target.ts"),
  ]);
  const profile = options.profile ?? "seed";
  try {
    const target = loadTarget(options.target, process.env, { families: options.families });
    return (await runAndReport(target, { ...options, profile, rerun: (seed) => rerunLine("payment-collection conformance", argv, seed) })).code;
  } catch (error) {
    if (!(error instanceof TargetError)) throw error;
    console.error(error.message);
    writeStoppedReports(options, `${error.source}: ${error.problems.join("; ")}`, emptyReport(options.target, { ...options, profile }));
    return EXIT.stopped;
  }
}

if (isMain(import.meta.url)) {
  conformanceCommand(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`payment-collection conformance: ${(error as Error).message ?? String(error)}`);
      process.exit(EXIT.stopped);
    },
  );
}
