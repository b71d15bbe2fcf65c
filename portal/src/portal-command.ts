/**
 * `payment-collection portal`: builds the docs portal and serves it on localhost next to a
 * sandbox it starts (or next to the server `--server` names), so that one command gives a
 * reader the documentation and a live server for each reference's console.
 *
 * The sandbox it starts grants the portal's origin cross-origin access (decision D44: both
 * `http://127.0.0.1:PORT` and `http://localhost:PORT` when bound to the loopback address),
 * and the console is told its address and documented keys through `assets/console-config.js`,
 * answered from memory.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { firstLine, portInUse, portNumber, readCommandLine, refuse as refuseLine, UsageError } from "@payment-collection/contract/command/command-line.ts";
import { CONTRACT_ROOT } from "@payment-collection/contract/model/layout.ts";
import { consoleConfigScript, DEFAULT_CONSOLE_SERVER, type ConsoleConfig } from "./console/config.ts";
import { CONSOLE_SCRIPTS } from "./layout.ts";
import { serveStatic, type StaticServer } from "./serve.ts";
import { untilStopped } from "@payment-collection/contract/command/until-stopped.ts";

export const USAGE = `usage: payment-collection portal [options]

Builds the docs portal and serves it on localhost next to a sandbox it starts, so that the
console of each API reference sends requests to a live server. Ctrl-C stops both.

  --port PORT          port of the portal, 0 for a free one (default 4000)
  --host HOST          interface to bind (default 127.0.0.1)
  --sandbox-port PORT  port of the sandbox it starts, 0 for a free one (default 0)
  --server URL         no sandbox: the console's default server is URL (its CORS must grant
                       the portal's origin, e.g. payment-collection sandbox --cors-origin ...)
  --dir DIR            serve the portal already built in DIR (by --out) instead of building
  --out DIR            build the portal into DIR and exit, serving nothing: a static site to
                       host anywhere; DIR must be new, empty, or built by --out before (its
                       files are replaced); with --server, the console's default server
                       (default http://127.0.0.1:4010, the sandbox's default address)
  --json               print one JSON line (portal, server; with --out: built, pages,
                       siteBytes, server) instead of the banner
  -h, --help           this help

Exit codes: 0 stopped by SIGINT/SIGTERM, or built (--out); 2 bad option, port in use, or
--out cannot be written; 4 the sandbox's store
cannot be opened.`;

const OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  "sandbox-port": { type: "string" },
  server: { type: "string" },
  dir: { type: "string" },
  out: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export interface PortalOptions {
  host: string;
  port: number;
  sandboxPort: number;
  /** The server to point the console at instead of starting a sandbox. */
  server?: string;
  /** A portal already built; undefined: build one into a scratch folder. */
  dir?: string;
  /** Build into this folder and exit instead of serving. */
  out?: string;
  json: boolean;
}

function refuse(message: string, code = 2): number {
  return refuseLine("portal", message, code);
}

/** A built portal's folder: it must exist, be a folder, and hold an index.html. */
function builtPortal(dir: string): string {
  if (!existsSync(dir)) throw new UsageError(`--dir ${dir}: no such folder; build one with --out ${dir}, or leave --dir out to build it now`);
  if (!statSync(dir).isDirectory()) throw new UsageError(`--dir ${dir} is a file; give the folder of a built portal (--out DIR builds one)`);
  if (!existsSync(join(dir, "index.html"))) throw new UsageError(`--dir ${dir} holds no index.html: not a built portal (--out DIR builds one)`);
  return dir;
}

/** Whether a folder holds a portal this command built: the build empties it first, so nothing else may be in it. */
function isBuiltPortal(dir: string): boolean {
  return existsSync(join(dir, "index.html")) && existsSync(join(dir, CONSOLE_SCRIPTS.config));
}

/** A folder to build into: new, empty, or a portal built before, never a folder of other files (the build empties it). */
function outputFolder(dir: string): string {
  if (!existsSync(dir)) return dir;
  if (!statSync(dir).isDirectory()) throw new UsageError(`--out ${dir} is a file; give a new or empty folder`);
  if (readdirSync(dir).length > 0 && !isBuiltPortal(dir)) {
    throw new UsageError(`--out ${dir} holds other files, which the build would remove; give a new or empty folder, or one --out built before`);
  }
  return dir;
}

/** The command line checked without starting anything: the options, or the exit code once help or one line is printed. */
export function portalOptions(argv: string[]): PortalOptions | number {
  try {
    const { values } = readCommandLine("portal", argv, OPTIONS);
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    const serving = (["dir", "port", "host", "sandbox-port"] as const).filter((name) => values[name] !== undefined);
    if (values.out !== undefined && serving.length > 0) throw new UsageError(`--out builds and exits, serving nothing: leave out --${serving.join(", --")}`);
    const port = portNumber(values.port ?? "4000", "--port");
    const sandboxPort = portNumber(values["sandbox-port"] ?? "0", "--sandbox-port");
    if (values.server !== undefined && values["sandbox-port"] !== undefined) throw new UsageError("--server and --sandbox-port exclude each other: with --server no sandbox is started");
    let server: string | undefined;
    if (values.server !== undefined) {
      let url: URL;
      try {
        url = new URL(values.server);
      } catch {
        throw new UsageError(`invalid --server ${values.server}: give a URL such as http://127.0.0.1:4010`);
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`invalid --server ${values.server}: give an http:// or https:// URL`);
      server = values.server.replace(/\/+$/, "");
    }
    // From the folder the command was typed in (npm records it in INIT_CWD).
    const typedIn = (path: string) => resolve(process.env.INIT_CWD ?? process.cwd(), path);
    const dir = values.dir === undefined ? undefined : builtPortal(typedIn(values.dir));
    const out = values.out === undefined ? undefined : outputFolder(typedIn(values.out));
    return { host: values.host ?? "127.0.0.1", port, sandboxPort, server, dir, out, json: values.json ?? false };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return refuse(error.message);
  }
}

/** The origins a page of the portal may have: both loopback names when bound to the loopback. */
export function portalOrigins(host: string, port: number): string[] {
  const loopback = host === "127.0.0.1" || host === "localhost" || host === "::1";
  return loopback ? [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`] : [`http://${host.includes(":") ? `[${host}]` : host}:${port}`];
}

export interface RunningPortal {
  /** Where to open the portal. */
  url: string;
  /** The console's default server. */
  server: string;
  /** Whether this command started that server (a sandbox). */
  startedSandbox: boolean;
  close(): Promise<void>;
}

/** Builds (unless given a built portal), serves, and starts the sandbox; resolves once all accept connections. */
export async function startPortal(options: PortalOptions): Promise<RunningPortal> {
  let builtDir = options.dir;
  let scratch: string | undefined;
  if (!builtDir) {
    scratch = mkdtempSync(join(tmpdir(), "payment-collection-portal-"));
    const { buildPortal } = await import("./site.ts");
    await buildPortal({ root: CONTRACT_ROOT, outDir: scratch });
    builtDir = scratch;
  }
  let site: StaticServer;
  try {
    site = await serveStatic(builtDir, { host: options.host, port: options.port });
  } catch (error) {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
  const config: ConsoleConfig = {};
  let stopSandbox = async () => {};
  let sandboxData: string | undefined;
  try {
    if (options.server) {
      config.sandbox = options.server;
    } else {
      // The sandbox package is optional for the CLI: loaded only when a sandbox is started.
      const { startSandbox } = await import("@payment-collection/sandbox/server.ts");
      sandboxData = mkdtempSync(join(tmpdir(), "payment-collection-portal-sandbox-"));
      const sandbox = await startSandbox({ host: "127.0.0.1", port: options.sandboxPort, dataDir: sandboxData, corsOrigins: portalOrigins(options.host, site.port) });
      stopSandbox = () => sandbox.close();
      config.sandbox = sandbox.url;
      config.sandboxKeys = { "family-a": sandbox.keys.familyA.primary, "family-b": sandbox.keys.familyB.primary, "sandbox-controls": sandbox.keys.familyA.primary };
    }
  } catch (error) {
    await site.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    if (sandboxData) rmSync(sandboxData, { recursive: true, force: true });
    throw error;
  }
  site.override(`/${CONSOLE_SCRIPTS.config}`, consoleConfigScript(config));
  let closing: Promise<void> | undefined;
  return {
    url: `${site.origin}/`,
    server: config.sandbox!,
    startedSandbox: !options.server,
    close() {
      closing ??= (async () => {
        await site.close();
        await stopSandbox();
        if (scratch) rmSync(scratch, { recursive: true, force: true });
        if (sandboxData) rmSync(sandboxData, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

/** --out: the portal built into a folder to host anywhere, its console's default server --server's. */
async function buildInto(out: string, server: string | undefined, json: boolean): Promise<number> {
  const { buildPortal } = await import("./site.ts");
  let report;
  try {
    report = await buildPortal({ root: CONTRACT_ROOT, outDir: out, console: server ? { sandbox: server } : {} });
  } catch (error) {
    return refuse(`cannot write --out ${out}: ${firstLine((error as Error).message ?? String(error))}`);
  }
  const consoleServer = server ?? DEFAULT_CONSOLE_SERVER;
  const summary = { built: report.outDir, pages: report.pages.length, siteBytes: report.siteBytes, server: consoleServer };
  const mib = (report.siteBytes / 1024 / 1024).toFixed(1);
  console.log(
    json
      ? JSON.stringify(summary)
      : [
          `Payment Collection docs portal built into ${report.outDir}: ${summary.pages} pages, ${mib} MiB`,
          `  open its index.html, or host the folder with any static server`,
          `  console's default server: ${consoleServer} (it must grant the portal's origin cross-origin access; --server URL names another)`,
        ].join("\n"),
  );
  return 0;
}

/** Runs until SIGINT or SIGTERM; resolves with the exit code (at once for --help, bad input and --out). */
export async function portalCommand(argv: string[]): Promise<number> {
  const options = portalOptions(argv);
  if (typeof options === "number") return options;
  if (options.out !== undefined) return buildInto(options.out, options.server, options.json);
  let portal: RunningPortal;
  try {
    portal = await startPortal(options);
  } catch (error) {
    const message = ((error as Error).message ?? String(error)).split("\n")[0]!;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") {
      // Which of the two ports: the error names the one it could not bind.
      const sandboxPort = options.sandboxPort !== 0 && message.includes(`:${options.sandboxPort}`);
      return refuse(sandboxPort ? portInUse("127.0.0.1", options.sandboxPort, "--sandbox-port") : portInUse(options.host, options.port, "--port"));
    }
    if (code === "EACCES") return refuse(`cannot bind: permission denied (${message}); pick a port above 1023 with --port (0: any free port)`);
    if (code === "ERR_MODULE_NOT_FOUND") return refuse("the sandbox package (@payment-collection/sandbox) is not installed; install it, or give --server URL");
    return refuse(`cannot start the sandbox: ${message}`, 4);
  }
  if (options.json) {
    console.log(JSON.stringify({ portal: portal.url, server: portal.server, sandbox: portal.startedSandbox }));
  } else {
    console.log(
      [
        `Payment Collection docs portal on ${portal.url}`,
        portal.startedSandbox
          ? `  sandbox for the console: ${portal.server} (started here; its documented keys are filled in; stopped with the portal)`
          : `  console's server: ${portal.server} (it must grant ${portalOrigins(options.host, options.port === 0 ? Number(new URL(portal.url).port) : options.port).join(", ")} cross-origin access)`,
        "  Ctrl-C stops it.",
      ].join("\n"),
    );
  }
  return untilStopped(() => portal.close());
}
