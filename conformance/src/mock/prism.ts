/**
 * Starts a Prism mock server (`prism mock`) of one OpenAPI document and hands back its URL, or
 * Prism's validating proxy (`prism proxy`) in front of a server when given `upstream`.
 *
 * Shared by the client tests and the `npm run mock` command: the API below is kept stable.
 *
 *   const mock = await startPrism({ document: "generated/openapi/3.1/family-a.yaml" });
 *   await fetch(`${mock.url}/v1/merchant`, { headers: { "x-api-key": "sk_live_x" } });
 *   await mock.close();
 *
 * Prism runs as a child process in its own process group, so that `close()` ends Prism and
 * every process it started, and nothing outlives the caller.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export interface StartPrismOptions {
  /** Path of the OpenAPI document (YAML or JSON), absolute or relative to the working directory. */
  document: string;
  /** Interface to bind; 127.0.0.1 unless told otherwise. */
  host?: string;
  /** Port to bind; 0 (the default) picks a free port. */
  port?: number;
  /** Dynamic responses generated from the schemas (`prism mock -d`) instead of the examples. */
  dynamic?: boolean;
  /** Longest wait for Prism to answer, in milliseconds (default 30 000). */
  startTimeoutMs?: number;
  /** Prism's proxy mode (`prism proxy`): validates the exchanges with this server instead of mocking it. */
  upstream?: string;
  /** Prism's log level (`-v`); its default, info, logs every request. */
  verbosity?: "info" | "warn" | "error";
}

export interface RunningPrism {
  /** Base URL of the mock, without a trailing slash, e.g. `http://127.0.0.1:43121`. */
  url: string;
  port: number;
  /** Process id of Prism's process, which leads the process group of Prism and its children. */
  pid: number;
  /** Stops Prism and its children; safe to call more than once. */
  close(): Promise<void>;
}

const PRISM_PACKAGE = "@stoplight/prism-cli";

/**
 * Prism's own JS entry, run with this Node (no shell, no PATH lookup), or undefined when Prism
 * is not installed: it is an optional peer dependency, so that a team that only runs the
 * conformance suites does not install a mock server.
 */
export function prismEntry(): string | undefined {
  try {
    return fileURLToPath(import.meta.resolve(PRISM_PACKAGE));
  } catch {
    return undefined;
  }
}

/** One line saying how to install the Prism version this package declares (its peer dependency). */
export function prismMissing(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { peerDependencies: Record<string, string> };
  return `Prism is not installed (an optional peer dependency, needed by the mock only): npm install --save-dev ${PRISM_PACKAGE}@${manifest.peerDependencies[PRISM_PACKAGE]}`;
}

/** Asks the OS for a free port by binding port 0, then releases it for Prism. */
function freePort(host: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** Ends the child's whole process group, waiting for it to exit. */
function killTree(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const pid = child.pid;
  return new Promise((done) => {
    const forceTimer = setTimeout(() => signalGroup(pid, "SIGKILL"), 3_000);
    child.once("exit", () => {
      clearTimeout(forceTimer);
      done();
    });
    signalGroup(pid, "SIGTERM");
  });
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal); // negative pid: the process group led by the child
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Resolves once any HTTP answer comes back from `url` (any status counts as "up"). */
async function waitUntilAnswering(url: string, child: ChildProcess, deadline: number, log: () => string): Promise<void> {
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`prism exited early (code ${child.exitCode ?? child.signalCode}):\n${log()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await response.body?.cancel();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`prism did not answer at ${url} in time:\n${log()}`);
}

async function startOnce(options: Required<StartPrismOptions>, port: number): Promise<RunningPrism> {
  const entry = prismEntry();
  if (!entry) throw new Error(prismMissing());
  const mode = options.upstream ? ["proxy", resolve(options.document), options.upstream] : ["mock", resolve(options.document)];
  const args = [entry, ...mode, "--host", options.host, "--port", String(port), "-v", options.verbosity];
  if (options.dynamic) args.push("--dynamic");
  const child = spawn(process.execPath, args, {
    cwd: dirname(entry),
    detached: true, // own process group, so close() can end the whole tree
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);

  const urlHost = options.host.includes(":") ? `[${options.host}]` : options.host;
  const url = `http://${urlHost}:${port}`;
  try {
    await waitUntilAnswering(url, child, Date.now() + options.startTimeoutMs, () => output);
  } catch (error) {
    await killTree(child);
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    pid: child.pid!,
    close: () => (closing ??= killTree(child)),
  };
}

export async function startPrism(options: StartPrismOptions): Promise<RunningPrism> {
  const settings: Required<StartPrismOptions> = {
    host: "127.0.0.1",
    port: 0,
    dynamic: false,
    startTimeoutMs: 30_000,
    upstream: "",
    verbosity: "info",
    ...options,
  };
  if (settings.port !== 0) return startOnce(settings, settings.port);
  // A port picked by the OS can be taken by someone else before Prism binds it: try again.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      return await startOnce(settings, await freePort(settings.host));
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
