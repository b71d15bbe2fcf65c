/**
 * Command-line options of `payment-collection conformance` (and of the runs against the mock and
 * a fresh sandbox, which take the same options), and the usage text.
 */
import { resolve } from "node:path";
import { outputFile, readCommandLine, UsageError } from "@payment-collection/contract/command/command-line.ts";
import type { Profile } from "../core/profiles/schema-profile.ts";
// From the layout module alone: the whole model (schemas, validators) is not needed to read options.
import { FAMILY_IDS, isFamilyId, type FamilyId } from "@payment-collection/contract/model/layout.ts";
import { isSeed, SEED_MAX } from "../core/run-random.ts";

// What each does once options are known; kept importable from here for older callers.

export const USAGE = `usage: payment-collection conformance --target FILE [options]
       payment-collection conformance --mock [options]

Runs the conformance suites against the servers a target file names, or against the Prism mock
of both families.

  --target FILE        target file (JSON or YAML): servers, keys, fixtures; its JSON Schema is
                       target.schema.json in this package (see the package's README)
  --mock               start the Prism mock of both families (as \`payment-collection mock\`),
                       run the suites against it and stop it; needs @stoplight/prism-cli, an
                       optional peer dependency
  --family ID          run one family only: family-a or family-b (default: both)
  --profile seed|full  seed: what the document states; full: also the project's decisions
                       (default: seed; full against the mock, --mock or a target with
                       \`mock: prism\`, which serves the contract with its decisions)
  --junit PATH         write JUnit XML (also when the run stops early: the reason is an error case)
  --json PATH          write the report as JSON
  --report PATH        write a self-contained Markdown page: every statement of the catalogue with
                       its checks and verdicts, or why it is not checkable on the wire
  --html PATH          write one self-contained HTML page to open in a browser: the verdict, the
                       failures with a curl line each, the checks not applicable by what would
                       run them, the statements (filter and search)
  --min-coverage P     fail when fewer than P% of the documented responses (operation x status)
                       were exercised
  --statements         print which checks enforce which statement of spec/statements.yaml
  --coverage           print every documented response with the checks that exercised it
  --no-exhaust         skip the 429 checks (they use up the account's rate limit)
  --no-dredd           run the probes, scenarios and generic checks without the Dredd suites
                       (the checks Dredd runs are not applicable); Dredd is an optional peer
                       dependency, needed by the Dredd suites only
  --exhaust-cap N      highest rate limit (requests per window) the run may use up (default 1000)
  --fail-fast          stop at the first failing check (exit 1); the reports say how many checks
                       did not run
  --seed N             seed of every value the run makes up (ids, keys, generated bodies): the
                       same seed against a server in the same state sends the same requests
                       (default: one drawn for the run; the report names it)
  --bundle DIR         write a signed bundle anyone can check offline with \`payment-collection
                       verify DIR\`: every exchange (HAR), the reports, a manifest, a signed
                       statement; keys appear only as fingerprints
  --signing-key FILE   the bundle's Ed25519 private key (PEM); default: a key made for the run,
                       written beside DIR as DIR.signing-key.pem
  --progress           progress on stderr even when it is not a terminal, or under CI
  --quiet              no progress
  -h, --help           this text

Exit codes: 0 every check passed; 1 a check failed, or coverage below --min-coverage;
2 bad options or target file, a signing key that is not Ed25519, a server unreachable, a key
refused, a run stopped early, --mock without Prism installed, or Dredd not installed (without
--no-dredd).`;

export interface CliOptions {
  target?: string;
  /** `--mock`: the run starts the Prism mock and checks it. */
  mock: boolean;
  families?: FamilyId[];
  /** Undefined when not given: the command picks its default. */
  profile?: Profile;
  junit?: string;
  json?: string;
  report?: string;
  /** `--html`: the readable page of the run. */
  html?: string;
  statements: boolean;
  coverage: boolean;
  exhaust: boolean;
  exhaustCap: number;
  /** False with `--no-dredd`: the Dredd suites do not run. */
  dredd: boolean;
  /** `--fail-fast`: stop at the first failing check. */
  failFast: boolean;
  /** `--min-coverage`: percentage of documented responses the run must exercise. */
  minCoverage?: number;
  /** `--progress`: progress even off a terminal or under CI. */
  progress: boolean;
  /** `--seed`: the seed of the values the run makes up. */
  seed?: number;
  /** `--bundle`: the folder of the run's signed bundle; `--signing-key`: its key file. */
  bundle?: string;
  signingKey?: string;
  quiet: boolean;
  help: boolean;
}

export { UsageError };


/** A report file's path from the caller's folder, refused when it names a folder. */
const reportPath = (path: string | undefined, flag: string, example: string) => (path === undefined ? undefined : outputFile(callerPath(path)!, flag, example));

/** The options the command takes (node:util parseArgs): the reports name them too (not-applicable.ts). */
export const OPTIONS = {
  target: { type: "string" },
  mock: { type: "boolean", default: false },
  family: { type: "string" },
  profile: { type: "string" },
  junit: { type: "string" },
  json: { type: "string" },
  report: { type: "string" },
  html: { type: "string" },
  statements: { type: "boolean", default: false },
  coverage: { type: "boolean", default: false },
  "no-exhaust": { type: "boolean", default: false },
  "no-dredd": { type: "boolean", default: false },
  "exhaust-cap": { type: "string", default: "1000" },
  "fail-fast": { type: "boolean", default: false },
  "min-coverage": { type: "string" },
  seed: { type: "string" },
  bundle: { type: "string" },
  "signing-key": { type: "string" },
  progress: { type: "boolean", default: false },
  quiet: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

export function parseCliOptions(argv: string[]): CliOptions {
  const { values } = readCommandLine("conformance", argv, OPTIONS);
  if (values.family !== undefined && !isFamilyId(values.family)) {
    throw new UsageError(`--family must be ${FAMILY_IDS.join(" or ")}, got ${values.family}`);
  }
  if (values.profile !== undefined && values.profile !== "seed" && values.profile !== "full") throw new UsageError(`--profile must be seed or full, got ${values.profile}`);
  const cap = Number(values["exhaust-cap"]);
  if (!Number.isInteger(cap) || cap < 1) throw new UsageError(`--exhaust-cap must be a positive integer`);
  const minCoverage = values["min-coverage"] === undefined ? undefined : Number(values["min-coverage"].replace(/%$/, ""));
  if (minCoverage !== undefined && (!Number.isFinite(minCoverage) || minCoverage < 0 || minCoverage > 100)) {
    throw new UsageError(`--min-coverage must be a percentage from 0 to 100, got ${values["min-coverage"]}`);
  }
  if (values.mock && values.target !== undefined) throw new UsageError("--mock and --target exclude each other: --mock checks the mock it starts");
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && (!/^\d+$/.test(values.seed!) || !isSeed(seed))) throw new UsageError(`--seed must be an integer from 0 to ${SEED_MAX}, got ${values.seed}`);
  if (values["signing-key"] !== undefined && values.bundle === undefined) throw new UsageError("--signing-key signs a bundle: give --bundle DIR too");
  return {
    target: callerPath(values.target),
    mock: values.mock ?? false,
    families: values.family !== undefined && isFamilyId(values.family) ? [values.family] : undefined,
    profile: values.profile as Profile | undefined,
    junit: reportPath(values.junit, "--junit", "conformance.xml"),
    json: reportPath(values.json, "--json", "conformance.json"),
    report: reportPath(values.report, "--report", "conformance.md"),
    html: reportPath(values.html, "--html", "conformance.html"),
    statements: values.statements ?? false,
    coverage: values.coverage ?? false,
    exhaust: !values["no-exhaust"],
    dredd: !values["no-dredd"],
    exhaustCap: cap,
    failFast: values["fail-fast"] ?? false,
    minCoverage,
    progress: values.progress ?? false,
    seed,
    bundle: callerPath(values.bundle),
    signingKey: callerPath(values["signing-key"]),
    quiet: values.quiet ?? false,
    help: values.help ?? false,
  };
}

/**
 * A path given on the command line, from the folder the command was typed in: npm runs a
 * workspace's script in the workspace's folder and records the caller's folder in INIT_CWD.
 */
export function callerPath(path: string | undefined): string | undefined {
  return path === undefined ? undefined : resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

/** A word of a command line as a POSIX shell reads it back. */
const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** The command line `command argv...` with `--seed N` for the given seed (any seed given before dropped). */
export function rerunLine(command: string, argv: string[], seed: number): string {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--seed") i += 1;
    else if (!argv[i]!.startsWith("--seed=")) kept.push(argv[i]!);
  }
  return [command, ...kept.map(shellWord), "--seed", String(seed)].join(" ");
}
