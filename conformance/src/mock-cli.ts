/**
 * `npm run conformance:mock -w @payment-collection/conformance -- [options]` (also
 * `tsx src/mock-cli.ts ...`).
 *
 * Starts Prism for both families from the generated OpenAPI and runs the suites against it.
 * A stateless mock answers whatever response a request names with `Prefer: code=NNN`, so every
 * documented response is asked for by status and checked against its schema; the checks that
 * need the server's own logic (request variants, scenarios) are reported not applicable.
 */
import { startMock } from "./mock/start-mock.ts";
import { parseCliOptions, USAGE, UsageError } from "./runner/cli-options.ts";
import { isMain } from "./runner/is-main.ts";
import { EXIT, runAndReport } from "./runner/run-and-report.ts";
import { mockTarget } from "./mock/mock-target.ts";

export const MOCK_USAGE = `${USAGE.replace("payment-collection conformance --target FILE [options]", "npm run conformance:mock -w @payment-collection/conformance -- [options]")
  .replace("Runs the conformance suites against the servers a target file names.", "Starts the Prism mock of both families and runs the conformance suites against it.")
  .replace(/\n  --target FILE[^\n]*\n[^\n]*/, "")}`;

/** Runs the suites against a Prism mock it starts and stops; resolves with the exit code. */
export async function mockConformanceCommand(argv: string[]): Promise<number> {
  let options;
  try {
    options = parseCliOptions(argv);
    if (options.help) {
      console.log(MOCK_USAGE);
      return EXIT.pass;
    }
    if (options.target) throw new UsageError("--target is not an option here: the target is the mock");
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`conformance:mock: ${error.message}\n\n${MOCK_USAGE}`);
    return EXIT.stopped;
  }
  const mock = await startMock();
  try {
    // The mock serves the contract itself, decisions included: full is its natural profile.
    return (await runAndReport(mockTarget(mock.urls), { ...options, profile: options.profile ?? "full" })).code;
  } finally {
    await mock.close();
  }
}

if (isMain(import.meta.url)) {
  mockConformanceCommand(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`conformance:mock: ${(error as Error).message ?? String(error)}`);
      process.exit(EXIT.stopped);
    },
  );
}
