/**
 * The two front ends on the command line, one engine behind both:
 *
 *   payment-collection proxy --family-a-upstream URL --family-b-upstream URL [options]
 *   payment-collection traffic check FILE.har [options]
 *
 * Exit codes: 0 nothing violated; 1 a violation, an upstream fault, (with --consumer) a
 * consumer finding, or coverage below --min-coverage; 2 bad options, an unreadable or malformed
 * HAR file, or a port the proxy cannot listen on.
 */
import { didYouMean, inputFile, outputFile, portInUse, portNumber, readCommandLine, refuse, UsageError, type OptionSpecs } from "@payment-collection/contract/command/command-line.ts";
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import { loadTarget, TargetError } from "../core/target.ts";
import type { Profile } from "../core/profiles/index.ts";
import { accountsOfTarget } from "./accounts.ts";
import { TrafficEngine, violationLine, type Violation } from "./engine.ts";
import { checkHar } from "./har-check.ts";
import { HarError } from "./har-reader.ts";
import { DEFAULT_MAX_BODY, startTrafficProxy } from "./proxy-server.ts";
import { failedReasons, textSummary, writeReports, type ReportMeta } from "./reports.ts";
import { familyRoutes } from "./routing.ts";

const COMMON = `  --profile seed|full  seed: what the document states (default); full: also the project's decisions
                       (a violation of a decision is named by its decision id)
  --target FILE        a conformance target file: which keys share an account (tenant isolation
                       is judged only when this is known)
  --consumer           also report what the client sent that the contract does not define
                       (unknown paths, parameters and members, wrong types); they fail the check
  --max-body BYTES     bodies larger than this pass through unread, counted "not validated:
                       too large" (default ${DEFAULT_MAX_BODY})
  --junit PATH         JUnit XML: one test case per operation and status seen, violations as failures
  --json PATH          the summary as JSON
  --html PATH          a self-contained HTML report: violations by statement, coverage
  --min-coverage P     fail when fewer than P% of the documented responses were seen
  -h, --help           this text`;

export const PROXY_USAGE = `usage: payment-collection proxy --family-a-upstream URL --family-b-upstream URL [options]

A validating proxy: forwards every request unchanged to its family's upstream, returns every
response unchanged (bodies streamed) and checks every exchange against the contract. Each
violation is one line on stderr as it happens (operation and status, the statement id, expected
vs seen, a curl reproduction with the key redacted). On SIGINT, SIGTERM or --duration it prints
a summary, writes the reports and exits.

  --family-a-upstream URL   where family A requests go (paths /v1/...)
  --family-b-upstream URL   where family B requests go (every other path of family B)
  --port N             port to listen on (default 8080; 0: any free port)
  --host ADDRESS       address to listen on (default 127.0.0.1)
  --duration SECONDS   stop after this long
${COMMON}

An unreachable upstream gets a 502 with a JSON body saying so, recorded as an upstream fault.

Exit codes: 0 nothing violated; 1 a violation, an upstream fault, a consumer finding (with
--consumer) or coverage below --min-coverage; 2 bad options or a port it cannot listen on.`;

export const TRAFFIC_USAGE = `usage: payment-collection traffic check FILE.har [options]

Checks the exchanges of a HAR 1.2 file (a browser's or a proxy's recording) with the engine of
the validating proxy. The file is read as a stream; the peak memory is reported.

  --family-a-base-url URL   entries under this URL are family A (repeatable; default: the
                            document's server URLs)
  --family-b-base-url URL   entries under this URL are family B (repeatable)
                            entries to other hosts are counted and skipped
${COMMON}

Exit codes: 0 nothing violated; 1 a violation, a consumer finding (with --consumer) or coverage
below --min-coverage; 2 bad options, or a HAR file that cannot be read (one line names the
entry and what is wrong).`;

const COMMON_OPTIONS = {
  profile: { type: "string" },
  target: { type: "string" },
  consumer: { type: "boolean" },
  "max-body": { type: "string" },
  junit: { type: "string" },
  json: { type: "string" },
  html: { type: "string" },
  "min-coverage": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

function parse<T extends OptionSpecs>(command: string, argv: string[], options: T) {
  return readCommandLine(command, argv, options, { positionals: true });
}

function profileOf(value: string | undefined): Profile {
  if (value === undefined) return "seed";
  if (value !== "seed" && value !== "full") throw new UsageError(`--profile must be seed or full, not ${JSON.stringify(value)}`);
  return value;
}

function numberOf(value: string | undefined, name: string, fallback: number | undefined, bounds: { min: number; max?: number }): number | undefined {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < bounds.min || (bounds.max !== undefined && n > bounds.max)) throw new UsageError(`${name} must be a number from ${bounds.min}${bounds.max !== undefined ? ` to ${bounds.max}` : ""}, not ${JSON.stringify(value)}`);
  return n;
}

function urlOf(value: string, name: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error();
    return value;
  } catch {
    throw new UsageError(`${name} must be an http(s) URL, not ${JSON.stringify(value)}`);
  }
}

function accountsOf(path: string | undefined): Map<string, string> | undefined {
  if (path === undefined) return undefined;
  return accountsOfTarget(loadTarget(inputFile(path, "--target", "target.json"), process.env));
}

/** A report's path, refused when it names a folder. */
const reportPath = (path: string | undefined, flag: string, example: string) => (path === undefined ? undefined : outputFile(path, flag, example));

interface Common {
  profile: Profile;
  accounts?: Map<string, string>;
  consumer: boolean;
  maxBody: number;
  reports: { junit?: string; json?: string; html?: string };
  minCoverage?: number;
}

function commonOf(values: Record<string, unknown>): Common {
  return {
    profile: profileOf(values.profile as string | undefined),
    accounts: accountsOf(values.target as string | undefined),
    consumer: values.consumer === true,
    maxBody: numberOf(values["max-body"] as string | undefined, "--max-body", DEFAULT_MAX_BODY, { min: 0 })!,
    reports: {
      junit: reportPath(values.junit as string | undefined, "--junit", "traffic.xml"),
      json: reportPath(values.json as string | undefined, "--json", "traffic.json"),
      html: reportPath(values.html as string | undefined, "--html", "traffic.html"),
    },
    minCoverage: numberOf(values["min-coverage"] as string | undefined, "--min-coverage", undefined, { min: 0, max: 100 }),
  };
}

/** Prints a violation line on stderr as it is found (consumer findings only with --consumer). */
const printer = (consumer: boolean) => (violation: Violation) => {
  if (violation.side !== "consumer" || consumer) console.error(violationLine(violation));
};

function finish(engine: TrafficEngine, common: Common, meta: ReportMeta): number {
  const summary = engine.summary();
  writeReports(common.reports, summary, meta, engine.catalogue);
  console.log(textSummary(summary, meta));
  return failedReasons(summary, meta).length > 0 ? 1 : 0;
}

/** Bad options or target file: the one line (a target file's problems, all of them), exit 2. */
function usageFailure(command: string, error: unknown): number {
  if (error instanceof UsageError || error instanceof TargetError) return refuse(command, error.message);
  throw error;
}

/** `payment-collection proxy ...`: resolves with the exit code once stopped. */
export async function proxyCommand(argv: string[], signals: NodeJS.EventEmitter = process): Promise<number> {
  let common: Common;
  let upstreams: Partial<Record<FamilyId, string>>;
  let port: number;
  let duration: number | undefined;
  let host: string;
  try {
    const { values, positionals } = parse("proxy", argv, {
      ...COMMON_OPTIONS,
      "family-a-upstream": { type: "string" },
      "family-b-upstream": { type: "string" },
      port: { type: "string" },
      host: { type: "string" },
      duration: { type: "string" },
    });
    if (values.help) {
      console.log(PROXY_USAGE);
      return 0;
    }
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}; payment-collection proxy --help lists the options`);
    upstreams = {};
    if (values["family-a-upstream"]) upstreams["family-a"] = urlOf(values["family-a-upstream"], "--family-a-upstream");
    if (values["family-b-upstream"]) upstreams["family-b"] = urlOf(values["family-b-upstream"], "--family-b-upstream");
    if (Object.keys(upstreams).length === 0) throw new UsageError("--family-a-upstream or --family-b-upstream is required");
    port = values.port === undefined ? 8080 : portNumber(values.port, "--port");
    duration = numberOf(values.duration, "--duration", undefined, { min: 0 });
    host = values.host ?? "127.0.0.1";
    common = commonOf(values);
  } catch (error) {
    return usageFailure("proxy", error);
  }
  const routes = familyRoutes({}).filter((r) => upstreams[r.family]);
  const engine = new TrafficEngine({ profile: common.profile, routes, accounts: common.accounts, onViolation: printer(common.consumer) });
  let proxy;
  try {
    proxy = await startTrafficProxy({ engine, routes, upstreams, port, host, maxBody: common.maxBody });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") return refuse("proxy", portInUse(host, port, "--port"));
    if (code === "EACCES") return refuse("proxy", `cannot listen on ${host}:${port}: permission denied; pick a port above 1023 with --port (0: any free port)`);
    if (code === "EADDRNOTAVAIL") return refuse("proxy", `cannot listen on ${host}: not an address of this machine; give one with --host (default 127.0.0.1)`);
    return refuse("proxy", `cannot listen on ${host}:${port}: ${code ?? (error as Error).message}`);
  }
  const source = Object.entries(upstreams).map(([family, url]) => `${family} -> ${url}`).join(", ");
  console.error(`payment-collection proxy: listening on ${proxy.url} (${source}; profile ${common.profile})`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    signals.once("SIGINT", stop);
    signals.once("SIGTERM", stop);
    if (duration !== undefined) setTimeout(stop, duration * 1000).unref();
  });
  await proxy.close();
  // Checks of the last exchanges run right after their responses.
  await new Promise((resolve) => setImmediate(resolve));
  return finish(engine, common, { source: `the proxy at ${proxy.url} (${source})`, consumer: common.consumer, minCoverage: common.minCoverage });
}

/** `payment-collection traffic check FILE.har ...`. */
export async function trafficCommand(argv: string[]): Promise<number> {
  let common: Common;
  let file: string;
  let baseUrls: Partial<Record<FamilyId, string[]>>;
  try {
    const { values, positionals } = parse("traffic", argv, {
      ...COMMON_OPTIONS,
      "family-a-base-url": { type: "string", multiple: true },
      "family-b-base-url": { type: "string", multiple: true },
    });
    if (values.help) {
      console.log(TRAFFIC_USAGE);
      return 0;
    }
    const [action, path, ...rest] = positionals;
    if (action !== "check") throw new UsageError(action === undefined ? "a subcommand is required: traffic check FILE.har" : `unknown subcommand ${JSON.stringify(action)}${didYouMean(action, ["check"]) || "; the one subcommand is check (traffic check FILE.har)"}`);
    if (path === undefined) throw new UsageError("a HAR file is required: traffic check FILE.har");
    if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}: traffic check takes one HAR file`);
    file = inputFile(path, "check", "session.har");
    baseUrls = {
      "family-a": (values["family-a-base-url"] ?? []).map((u) => urlOf(u, "--family-a-base-url")),
      "family-b": (values["family-b-base-url"] ?? []).map((u) => urlOf(u, "--family-b-base-url")),
    };
    common = commonOf(values);
  } catch (error) {
    return usageFailure("traffic", error);
  }
  const routes = familyRoutes(baseUrls);
  const engine = new TrafficEngine({ profile: common.profile, routes, accounts: common.accounts, onViolation: printer(common.consumer) });
  let peakRss: number;
  try {
    peakRss = (await checkHar(file, engine, common.maxBody)).peakRss;
  } catch (error) {
    if (!(error instanceof HarError)) throw error;
    return refuse("traffic", `check ${file}: ${error.message}`);
  }
  return finish(engine, common, { source: file, consumer: common.consumer, minCoverage: common.minCoverage, peakRss });
}
