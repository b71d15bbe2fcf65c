/**
 * `npm run conformance:mock [-- --family a|b] [--profile seed|full] [--junit PATH]`
 *
 * Starts Prism for both families from the generated OpenAPI and runs the suites against it.
 * A stateless mock answers whatever response a request names with `Prefer: code=NNN`, so every
 * documented response is asked for by status and checked against its schema; the checks that
 * need the server's own logic (request variants, scenarios) are reported not applicable.
 */
import { startMock } from "./mock/start-mock.ts";
import { parseCliOptions, runAndReport, USAGE, UsageError } from "./runner/cli-options.ts";
import { mockTarget } from "./mock/mock-target.ts";

async function main(): Promise<number> {
  const options = parseCliOptions(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE.replace("npm run conformance -- --target FILE", "npm run conformance:mock --"));
    return 0;
  }
  const mock = await startMock();
  try {
    // The mock serves the contract itself, decisions included: full is its natural profile.
    return (await runAndReport(mockTarget(mock.urls), { ...options, profile: options.profile ?? "full" })).code;
  } finally {
    await mock.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof UsageError ? `${error.message}\n\n${USAGE}` : error);
    process.exit(2);
  },
);
