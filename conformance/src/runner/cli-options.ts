/**
 * Command-line options of `npm run conformance` and `npm run conformance:mock`, and what both
 * do once a target is known: run, print the report, write JUnit, tell the exit code.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Profile } from "../core/profiles/schema-profile.ts";
import { FAMILY_IDS, isFamilyId, type FamilyId } from "@payment-collection/contract/model/index.ts";
import { toJunitXml } from "./junit.ts";
import { formatReport } from "./report.ts";
import { failed, type RunReport } from "../core/results.ts";
import { runConformance } from "./run.ts";
import { loadCatalogue } from "../core/statement-map.ts";
import { statementCoverage, statementReportMarkdown } from "./statement-coverage.ts";
import type { Target } from "../core/target.ts";

export const USAGE = `usage: npm run conformance -- --target FILE [options]

  --target FILE        target file (JSON or YAML): servers, keys, fixtures (see conformance/README.md)
  --family ID          run one family only: family-a or family-b (default: both)
  --profile seed|full  seed: what the document states (default; full against the mock, which is
                       the contract with its decisions); full: also the project's decisions
  --junit PATH         write JUnit XML
  --json PATH          write the report as JSON
  --statements         print which checks enforce which statement of spec/statements.yaml
  --report PATH        write a self-contained Markdown page: every statement of the catalogue with
                       its checks and verdicts, or why it is not checkable on the wire
  --coverage           print every documented response with the checks that exercised it
  --no-exhaust         skip the 429 checks (they use up the account's rate limit)
  --exhaust-cap N      highest rate limit (requests per window) the run may use up (default 1000)
  --quiet              no progress lines`;

export interface CliOptions {
  target?: string;
  families?: FamilyId[];
  /** Undefined when not given: the command picks its default. */
  profile?: Profile;
  junit?: string;
  json?: string;
  report?: string;
  statements: boolean;
  coverage: boolean;
  exhaust: boolean;
  exhaustCap: number;
  quiet: boolean;
  help: boolean;
}

export class UsageError extends Error {}

export function parseCliOptions(argv: string[]): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        target: { type: "string" },
        family: { type: "string" },
        profile: { type: "string" },
        junit: { type: "string" },
        json: { type: "string" },
        report: { type: "string" },
        statements: { type: "boolean", default: false },
        coverage: { type: "boolean", default: false },
        "no-exhaust": { type: "boolean", default: false },
        "exhaust-cap": { type: "string", default: "1000" },
        quiet: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.family !== undefined && !isFamilyId(values.family)) {
    throw new UsageError(`--family must be ${FAMILY_IDS.join(" or ")}, got ${values.family}`);
  }
  if (values.profile !== undefined && values.profile !== "seed" && values.profile !== "full") throw new UsageError(`--profile must be seed or full, got ${values.profile}`);
  const cap = Number(values["exhaust-cap"]);
  if (!Number.isInteger(cap) || cap < 1) throw new UsageError(`--exhaust-cap must be a positive integer`);
  return {
    target: callerPath(values.target),
    families: values.family !== undefined && isFamilyId(values.family) ? [values.family] : undefined,
    profile: values.profile as Profile | undefined,
    junit: callerPath(values.junit),
    json: callerPath(values.json),
    report: callerPath(values.report),
    statements: values.statements ?? false,
    coverage: values.coverage ?? false,
    exhaust: !values["no-exhaust"],
    exhaustCap: cap,
    quiet: values.quiet ?? false,
    help: values.help ?? false,
  };
}

/**
 * A path given on the command line, from the folder the command was typed in: npm runs a
 * workspace's script in the workspace's folder and records the caller's folder in INIT_CWD.
 */
function callerPath(path: string | undefined): string | undefined {
  return path === undefined ? undefined : resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Runs, prints and writes what was asked; returns the process exit code (1 on any failure). */
export async function runAndReport(target: Target, options: CliOptions & { profile: Profile }): Promise<{ code: number; report: RunReport }> {
  const log = options.quiet ? undefined : (line: string) => console.error(line);
  const report = await runConformance({
    target,
    families: options.families,
    profile: options.profile,
    exhaust: options.exhaust,
    exhaustCap: options.exhaustCap,
    log,
  });
  const catalogue = loadCatalogue();
  console.log(formatReport(report, { statements: options.statements, coverage: options.coverage, catalogue }));
  if (options.junit) write(options.junit, toJunitXml(report, catalogue));
  if (options.report) write(options.report, statementReportMarkdown(report, statementCoverage(report, catalogue)));
  if (options.json) write(options.json, `${JSON.stringify(report, null, 2)}\n`);
  return { code: failed(report).length > 0 ? 1 : 0, report };
}
