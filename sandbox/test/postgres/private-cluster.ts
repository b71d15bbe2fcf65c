/**
 * A private PostgreSQL cluster for one test file, which may stop and start it at will: the
 * cluster the other test files share is never touched. `initdb` into a fresh temporary folder,
 * trust authentication, a free port on 127.0.0.1 with its socket in that folder. As root it runs
 * as the `postgres` OS user (initdb refuses root); otherwise as the current user.
 *
 * `clusterDescribe` runs a suite when the server binaries and such a user are there; otherwise it
 * is skipped locally with the reason, and fails in CI (CI=true), like the other PostgreSQL tests.
 */
import { execFile, execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { describe, it } from "vitest";

const run = promisify(execFile);
const SERVER_BINARIES = ["initdb", "pg_ctl", "postgres"];

/** Where the server binaries are and how to run them as a user PostgreSQL accepts. */
export interface ClusterTools {
  bindir: string;
  /** The argv that runs `argv` as the cluster's owner. */
  asOwner(argv: string[]): string[];
  /** The owner's uid and gid, when the temporary folder must be handed over (running as root). */
  owner?: { uid: number; gid: number };
}

function hasServerBinaries(dir: string): boolean {
  return SERVER_BINARIES.every((name) => existsSync(join(dir, name)));
}

/** `pg_config --bindir`, then the newest Debian /usr/lib/postgresql/N/bin, then `initdb` on PATH. */
function findBindir(): string | undefined {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync("pg_config", ["--bindir"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
  } catch {
    // No pg_config (it comes with the client development package): look elsewhere.
  }
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((v) => /^\d+(\.\d+)?$/.test(v)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(debian, v, "bin")));
  }
  candidates.push(...(process.env.PATH ?? "").split(delimiter).filter((dir) => dir && existsSync(join(dir, "initdb"))));
  return candidates.find(hasServerBinaries);
}

function commandExists(name: string): boolean {
  return (process.env.PATH ?? "").split(delimiter).some((dir) => dir && existsSync(join(dir, name)));
}

function shellQuote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The tools, or why the suite cannot run here. */
export function findClusterTools(): ClusterTools | string {
  const bindir = findBindir();
  if (!bindir) return "PostgreSQL's server binaries (initdb, pg_ctl, postgres) were not found (pg_config --bindir, /usr/lib/postgresql/*/bin, PATH); install Debian's postgresql package";
  if (process.getuid?.() !== 0) return { bindir, asOwner: (argv) => argv };
  let owner: { uid: number; gid: number };
  try {
    const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
    owner = { uid: id("-u"), gid: id("-g") };
  } catch {
    return "running as root, and there is no `postgres` OS user to run initdb as (initdb refuses root)";
  }
  if (commandExists("runuser")) return { bindir, owner, asOwner: (argv) => ["runuser", "-u", "postgres", "--", ...argv] };
  if (commandExists("su")) return { bindir, owner, asOwner: (argv) => ["su", "postgres", "-s", "/bin/sh", "-c", argv.map(shellQuote).join(" ")] };
  return "running as root, and neither runuser nor su is there to run initdb as the `postgres` user";
}

/** `describe(name, body(tools))` when a private cluster can be made here; otherwise a skip (locally) or a failure (CI). */
export function clusterDescribe(name: string, body: (tools: ClusterTools) => void): void {
  const tools = findClusterTools();
  if (typeof tools !== "string") describe(name, () => body(tools));
  else if (process.env.CI === "true") {
    describe(name, () => {
      it("can make a private PostgreSQL cluster", () => {
        throw new Error(`CI must be able to make a private PostgreSQL cluster: ${tools} (.ci/run installs postgresql through sandbox/scripts/ci-postgres.sh)`);
      });
    });
  } else {
    console.warn(`skipped "${name}": ${tools}`);
    describe.skip(`${name} [skipped: ${tools}]`, () => undefined);
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

export interface PrivateCluster {
  /** A superuser's connection string to the `postgres` database, over TCP on 127.0.0.1. */
  url: string;
  /** `pg_ctl start -w`: returns once it accepts connections. */
  start(): Promise<void>;
  /** `pg_ctl -m fast stop -w`: sessions are terminated, the WAL flushed; returns once it is down. */
  stop(): Promise<void>;
  /** Stops it (if it runs) and removes its folder; never throws. */
  remove(): Promise<void>;
}

/** Makes and starts a private cluster (a few seconds, mostly initdb). */
export async function startPrivateCluster(tools: ClusterTools): Promise<PrivateCluster> {
  const folder = mkdtempSync(join(tmpdir(), "sandbox-pg-cluster-"));
  if (tools.owner) chownSync(folder, tools.owner.uid, tools.owner.gid);
  const data = join(folder, "data");
  const log = join(folder, "postgres.log");
  // cwd: the owner may not be allowed into the test's folder.
  const pg = async (binary: string, args: string[]) => {
    const [file, ...rest] = tools.asOwner([join(tools.bindir, binary), ...args]);
    try {
      await run(file, rest, { cwd: folder, timeout: 60_000 });
    } catch (error) {
      const tail = existsSync(log) ? readFileSync(log, "utf8").split("\n").slice(-15).join("\n") : "";
      throw new Error(`${binary} ${args.join(" ")} failed: ${(error as Error).message}\n${tail}`);
    }
  };
  let port = 0;
  let running = false;
  const cluster: PrivateCluster = {
    get url() {
      return `postgres://postgres@127.0.0.1:${port}/postgres`;
    },
    async start() {
      // -l: the server's output goes to the log file, not to pipes this process would wait on.
      await pg("pg_ctl", ["-D", data, "-l", log, "-o", `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1`, "-w", "-t", "30", "start"]);
      running = true;
    },
    async stop() {
      await pg("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "30", "stop"]);
      running = false;
    },
    async remove() {
      if (running || existsSync(join(data, "postmaster.pid"))) await pg("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
      rmSync(folder, { recursive: true, force: true });
    },
  };
  try {
    await pg("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
    // The port is free when chosen, not reserved: another process may take it first, so try again.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        await cluster.start();
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
  } catch (error) {
    await cluster.remove();
    throw error;
  }
  return cluster;
}
