/**
 * `npm run conformance -- --target FILE [--family family-a|family-b] [--profile seed|full] [--junit PATH]`
 *
 * Runs the conformance suites against the servers a target file names and exits non-zero on
 * any failing check (2 on a usage or target error).
 */
import { parseCliOptions, runAndReport, USAGE, UsageError } from "./runner/cli-options.ts";
import { loadTarget, TargetError } from "./core/target.ts";

async function main(): Promise<number> {
  const options = parseCliOptions(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  if (!options.target) throw new UsageError("--target FILE is required");
  const target = loadTarget(options.target);
  return (await runAndReport(target, { ...options, profile: options.profile ?? "seed" })).code;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
    else if (error instanceof TargetError) console.error(error.message);
    else console.error(error);
    process.exit(2);
  },
);
