/**
 * `payment-collection sandbox` (and `npm run sandbox`): starts the sandbox and prints its
 * address, keys and data directory.
 *
 *   payment-collection sandbox --port 4010 --data-dir .sandbox-data --plan default
 *
 * Flags (each also read from the environment):
 *   --host HOST           SANDBOX_HOST       interface to bind (default 127.0.0.1)
 *   --port PORT           SANDBOX_PORT       port (default 4010; 0 picks a free port)
 *   --data-dir DIR        SANDBOX_DATA_DIR   SQLite data directory (default ./.sandbox-data)
 *   --store STORE         SANDBOX_STORE      sqlite (default), better-sqlite3 or node:sqlite (SQLite on that driver), or postgres://user:pass@host:5432/db (shared by several instances)
 *   --instance NAME       SANDBOX_INSTANCE   this instance's name in the webhook delivery log (default host:pid:random)
 *   --plan NAME           SANDBOX_PLAN       rate-limit plan: default | short-windows | generous
 *   --durability LEVEL    SANDBOX_DURABILITY process (survives kill -9) | power (fsync per commit)
 *   --allow-private-webhooks  SANDBOX_ALLOW_PRIVATE_WEBHOOKS=1  let webhooks reach local addresses
 *   --access-log          SANDBOX_ACCESS_LOG=1  one stdout line per request: method, path (no query), status, ms, account
 *   --cors-origin ORIGIN  SANDBOX_CORS_ORIGINS (comma-separated)  grant this origin cross-origin access (repeatable; D44)
 *   --json                                   print one JSON line instead of the text banner
 *
 * Exit codes: 0 stopped by SIGINT/SIGTERM (or --help); 2 invalid flag; 3 the database's schema
 * is newer than this sandbox (one line on stderr); 4 the store cannot be opened (e.g.
 * PostgreSQL unreachable at start; one line on stderr).
 */
import { existsSync, renameSync, statSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { outputFile, portInUse, portNumber, readCommandLine, refuse as refuseLine, UsageError } from "@payment-collection/contract/command/command-line.ts";
import { RATE_LIMIT_PLANS, resolvePlan, type PlanName } from "./plans.ts";
import { startSandbox, type SandboxKeys } from "./server.ts";
import { SchemaTooNewError } from "./store/sqlite/schema.ts";
import { SqliteDriverUnavailableError } from "./store/sqlite/driver.ts";
import { provisionSandboxTarget } from "./harness/provision.ts";
import { untilStopped } from "@payment-collection/contract/command/until-stopped.ts";

/**
 * An origin as browsers send it (`scheme://host[:port]`), or null when the text is not one:
 * a path, a query or credentials would never match the Origin header.
 */
export function normaliseOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== "/" && url.pathname !== "")) return null;
  return url.origin;
}

export const USAGE = `usage: payment-collection sandbox [options]

Starts the stateful sandbox of both families and prints its address and keys. Ctrl-C stops it.

  --host HOST               interface to bind (SANDBOX_HOST; default 127.0.0.1)
  --port PORT               port, 0 for a free one (SANDBOX_PORT; default 4010)
  --data-dir DIR            SQLite data directory (SANDBOX_DATA_DIR; default ./.sandbox-data)
  --store STORE             sqlite, or postgres://user:pass@host:5432/db to share one store
                            between instances (SANDBOX_STORE; default sqlite: on
                            better-sqlite3 when its binding loads, else on Node's node:sqlite;
                            better-sqlite3 or node:sqlite names the driver)
  --instance NAME           this instance's name in the webhook delivery log (SANDBOX_INSTANCE)
  --plan default|short-windows|generous
                            rate-limit plan (SANDBOX_PLAN; default: the documented limits;
                            short-windows: the same figures per 5 s window)
  --durability process|power  process: survives kill -9; power: fsync per commit
                            (SANDBOX_DURABILITY; default process)
  --allow-private-webhooks  let webhooks reach local addresses (SANDBOX_ALLOW_PRIVATE_WEBHOOKS=1)
  --access-log              one stdout line per request: method, path (no query), status,
                            milliseconds, account (SANDBOX_ACCESS_LOG=1)
  --cors-origin ORIGIN      let pages of this origin (http://localhost:8080) call the sandbox
                            from a browser; repeatable (SANDBOX_CORS_ORIGINS, comma-separated;
                            default: none; decision D44)
  --json                    print one JSON line (url, port, keys, ...) instead of the banner
  --write-target FILE       create conformance fixtures (boletos, a customer with an open
                            charge) and write a target file naming this sandbox, its keys and
                            them, for \`payment-collection conformance --target FILE\`
  -h, --help                this help

Exit codes: 0 stopped by SIGINT/SIGTERM; 2 bad option; 3 the database's schema is newer than
this sandbox; 4 the store cannot be opened.`;

const OPTIONS = {
  host: { type: "string" },
  port: { type: "string" },
  "data-dir": { type: "string" },
  store: { type: "string" },
  instance: { type: "string" },
  plan: { type: "string" },
  durability: { type: "string" },
  "allow-private-webhooks": { type: "boolean" },
  "access-log": { type: "boolean" },
  "cors-origin": { type: "string", multiple: true },
  json: { type: "boolean" },
  "write-target": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** One line on stderr and the exit code: bad input never ends in a stack trace. */
function refuse(message: string, code: number): number {
  return refuseLine("sandbox", message, code);
}

/** The banner's key lines, every key of the ring in order, so a new key shows without an edit here. */
function keyLines(keys: SandboxKeys): string[] {
  const section = (title: string, entries: Record<string, string>) => [title, ...Object.entries(entries).map(([name, key]) => `    ${name.padEnd(17)}${key}`)];
  return [
    ...section("  family A keys (x-api-key):", keys.familyA),
    ...section("  family B keys (X-API-Key):", keys.familyB),
    ...section("  webhook secrets:", keys.webhookSecrets),
  ];
}

type StartOptions = Parameters<typeof startSandbox>[0] & { plan: PlanName; durability: "process" | "power"; port: number; store: string; json: boolean; writeTarget?: string };

/**
 * The command line read and checked without starting anything: the options to start with, or
 * the exit code once the help or one line about bad input is printed.
 */
export function sandboxOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): StartOptions | number {
  let values;
  try {
    ({ values } = readCommandLine("sandbox", argv, OPTIONS));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return refuse(error.message, 2);
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const plan = (values.plan ?? env.SANDBOX_PLAN ?? "default") as PlanName;
  if (!(plan in RATE_LIMIT_PLANS)) return refuse(`unknown plan "${plan}"; known: ${Object.keys(RATE_LIMIT_PLANS).join(", ")}`, 2);
  const durability = values.durability ?? env.SANDBOX_DURABILITY ?? "process";
  if (durability !== "process" && durability !== "power") return refuse(`unknown durability "${durability}"; known: process, power`, 2);
  let port: number;
  let writeTarget: string | undefined;
  const dataDir = values["data-dir"] ?? env.SANDBOX_DATA_DIR;
  try {
    port = portNumber(values.port ?? env.SANDBOX_PORT ?? "4010", values.port === undefined && env.SANDBOX_PORT !== undefined ? "SANDBOX_PORT" : "--port");
    // From the folder the command was typed in (npm records it in INIT_CWD).
    writeTarget = values["write-target"] === undefined ? undefined : outputFile(resolve(env.INIT_CWD ?? process.cwd(), values["write-target"]), "--write-target", "target.json");
    if (dataDir !== undefined && existsSync(dataDir) && !statSync(dataDir).isDirectory()) {
      throw new UsageError(`${values["data-dir"] === undefined ? "SANDBOX_DATA_DIR" : "--data-dir"} ${dataDir} is a file; give a folder (created when missing)`);
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return refuse(error.message, 2);
  }
  const originTexts = values["cors-origin"] ?? (env.SANDBOX_CORS_ORIGINS ?? "").split(",").map((text) => text.trim()).filter(Boolean);
  const corsOrigins: string[] = [];
  for (const text of originTexts) {
    const origin = normaliseOrigin(text);
    if (origin === null) return refuse(`invalid --cors-origin ${text}: give an origin such as http://localhost:8080 (scheme, host and port only)`, 2);
    corsOrigins.push(origin);
  }
  return {
    host: values.host ?? env.SANDBOX_HOST ?? "127.0.0.1",
    port,
    dataDir,
    store: values.store ?? env.SANDBOX_STORE ?? "sqlite",
    instanceId: values.instance ?? env.SANDBOX_INSTANCE,
    plan,
    durability,
    allowPrivateWebhookTargets: values["allow-private-webhooks"] ?? env.SANDBOX_ALLOW_PRIVATE_WEBHOOKS === "1",
    accessLog: values["access-log"] ?? env.SANDBOX_ACCESS_LOG === "1",
    corsOrigins,
    json: values.json ?? false,
    writeTarget,
  };
}

/**
 * Runs the sandbox until SIGINT or SIGTERM; resolves with the exit code (at once for --help and
 * bad input).
 */
export async function sandboxCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const options = sandboxOptions(argv, env);
  if (typeof options === "number") return options;
  const { plan, durability, port, store } = options;
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox(options);
  } catch (error) {
    // One line, and an exit code per cause (documented above and in the README).
    const message = ((error as Error).message ?? String(error)).split("\n")[0]!;
    if (error instanceof SchemaTooNewError) return refuse(message, 3);
    if (/^unknown store/.test(message)) return refuse(message, 2);
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") return refuse(portInUse(options.host ?? "127.0.0.1", port, "--port"), 2);
    if (error instanceof SqliteDriverUnavailableError) return refuse(message, 4);
    if ((error as NodeJS.ErrnoException).code === "EACCES") return refuse(`cannot bind ${options.host}:${port}: permission denied; pick a port above 1023 with --port (0: any free port)`, 2);
    return refuse(`cannot open the store: ${message}`, 4);
  }

  if (options.writeTarget) {
    try {
      // The target declares the plan this sandbox runs, so announced limits are held to it.
      const target = await provisionSandboxTarget(sandbox.url, sandbox.keys, { useRateLimitAccount: true, declarePlan: resolvePlan(plan), declareCorsOrigins: options.corsOrigins, declarePrivateWebhookTargets: options.allowPrivateWebhookTargets });
      // JSON is YAML too; the target loader reads either. Written whole, then renamed: a CI
      // step waiting for the file never reads half of it.
      const partial = `${options.writeTarget}.${process.pid}.tmp`;
      writeFileSync(partial, `${JSON.stringify(target, null, 2)}\n`);
      renameSync(partial, options.writeTarget);
    } catch (error) {
      await sandbox.close();
      return refuse(`cannot write the target file ${options.writeTarget}: ${((error as Error).message ?? String(error)).split("\n")[0]}`, 2);
    }
  }
  if (options.json) {
    console.log(JSON.stringify({ url: sandbox.url, port: sandbox.port, dataDir: sandbox.dataDir, store: sandbox.store, instance: sandbox.instance, plan, durability, corsOrigins: options.corsOrigins, keys: sandbox.keys, target: options.writeTarget }));
  } else {
    console.log(
      [
        `Payment Collection sandbox listening on ${sandbox.url}`,
        sandbox.store.kind === "sqlite" ? `  data directory: ${sandbox.dataDir} (SQLite on ${sandbox.store.driver})` : `  store: ${sandbox.store.location} (shared; instance ${sandbox.instance})`,
        `  rate-limit plan: ${plan}; durability: ${durability}`,
        ...(options.corsOrigins && options.corsOrigins.length > 0 ? [`  browsers allowed from: ${options.corsOrigins.join(", ")}`] : []),
        ...(options.writeTarget ? [`  conformance target (keys and fixtures): ${options.writeTarget}`] : []),
        ...keyLines(sandbox.keys),
        "  controls: POST /_sandbox/boletos, /_sandbox/charges/{id}/pay, /_sandbox/pix/{pixId}/pay,",
        "            /_sandbox/boletos/{boletoId}/pay, /_sandbox/transactions/{id}/status, /_sandbox/clock/advance,",
        "            GET /_sandbox/webhooks/secret, POST /_sandbox/webhooks/secret/rotate, GET|PUT /_sandbox/webhooks/endpoint,",
        "            GET /_sandbox/webhooks/deliveries",
      ].join("\n"),
    );
  }

  return untilStopped(() => sandbox.close());
}

// Run directly (`npm run sandbox`, or spawned by `payment-collection sandbox` with the sandbox's Node flags).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(await sandboxCommand(process.argv.slice(2)));
}
