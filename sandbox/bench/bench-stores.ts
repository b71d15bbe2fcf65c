/// <reference path="../types/autocannon.d.ts" />
/**
 * `npm run bench:stores -w @payment-collection/sandbox`: the sandbox's two stores side by side,
 * in one run: throughput of `POST /v1/charges` (a fresh Idempotency-Key per request) and
 * `GET /v1/charges/{id}`, and server CPU per request, for
 *   (a) SQLite, one instance (the default store),
 *   (b) PostgreSQL, one instance,
 *   (c) PostgreSQL, two instances over the same database (the load split between them: two
 *       autocannon clients, half the connections each, figures summed).
 * Server CPU per request is the sandbox processes' CPU time (/proc) over the requests answered;
 * for PostgreSQL the database's processes' CPU time per request is reported beside it, and the
 * sum. Rounds rotate the order of the targets; medians over the rounds are reported. A
 * benchmark, not a test: it never fails on a number.
 *
 * Needs SANDBOX_BENCH_POSTGRES_URL (or SANDBOX_TEST_POSTGRES_URL): a database where it may create
 * and drop a schema (sandbox/scripts/ci-postgres.sh prints one). Environment: BENCH_DURATION
 * (seconds per measured run, default 5), BENCH_ROUNDS (default 3), BENCH_CONNECTIONS (default 50).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import pg from "pg";
import { createKeyRing } from "../src/keys.ts";
import { SANDBOX_NODE_FLAGS } from "../src/node-flags.ts";

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = 2;
const PG_URL = process.env.SANDBOX_BENCH_POSTGRES_URL ?? process.env.SANDBOX_TEST_POSTGRES_URL;
const ROOT = new URL("../..", import.meta.url).pathname;
const API_KEY = createKeyRing().keys.familyA.primary;
const CHARGE_BODY = JSON.stringify({ amount: 15000, method: "pix", reference: "bench", webhook_url: "https://loja.example.com.br/webhooks" });
const CLOCK_TICKS = 100;

function cpuMicros(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** CPU time of every process of the `postgres` user (the cluster's backends, WAL writer...), by pid. */
function postgresCpu(): Map<number, number> {
  const byPid = new Map<number, number>();
  let uid: number | undefined;
  try {
    uid = statSync("/var/lib/postgresql").uid;
  } catch {
    return byPid;
  }
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (statSync(`/proc/${entry}`).uid === uid) byPid.set(Number(entry), cpuMicros(Number(entry)));
    } catch {
      // gone meanwhile
    }
  }
  return byPid;
}

/** CPU the database's processes used between two snapshots (processes that ended meanwhile are not counted). */
function postgresCpuSince(before: Map<number, number>): number {
  let total = 0;
  for (const [pid, cpu] of postgresCpu()) total += cpu - (before.get(pid) ?? 0);
  return total;
}

async function spawnSandbox(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...SANDBOX_NODE_FLAGS, "--import", "tsx", join(ROOT, "sandbox/src/cli.ts"), "--port", "0", "--plan", "generous", "--json", ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
  return { child, url: JSON.parse(line).url };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

interface Target {
  label: string;
  urls: string[];
  pids: number[];
  pg: boolean;
  ids: string[];
  runs: { post: Run[]; get: Run[] };
}
interface Run {
  rps: number;
  cpuUs: number;
  pgCpuUs: number;
  failures: number;
}

async function cannon(url: string, kind: "post" | "get", ids: readonly string[], connections: number, duration: number) {
  let counter = 0;
  const tag = randomBytes(4).toString("hex");
  const request =
    kind === "post"
      ? {
          method: "POST" as const,
          path: "/v1/charges",
          headers: { "x-api-key": API_KEY, "content-type": "application/json" },
          body: CHARGE_BODY,
          setupRequest: (req: Record<string, any>) => ({ ...req, headers: { ...req.headers, "idempotency-key": `bench-${tag}-${counter++}` } }),
        }
      : {
          method: "GET" as const,
          path: "/v1/charges/x",
          headers: { "x-api-key": API_KEY },
          setupRequest: (req: Record<string, any>) => ({ ...req, path: `/v1/charges/${ids[counter++ % ids.length]}` }),
        };
  const result = await autocannon({ url, connections, duration, requests: [request as never] });
  return { requests: result.requests.total as number, rps: result.requests.average, failures: result.non2xx + result.errors };
}

/** One run against every URL of the target at once, connections split between them. */
async function measure(t: Target, kind: "post" | "get", duration: number): Promise<Run> {
  const cpuBefore = t.pids.reduce((sum, pid) => sum + cpuMicros(pid), 0);
  const pgBefore = postgresCpu();
  const results = await Promise.all(t.urls.map((url) => cannon(url, kind, t.ids, Math.ceil(CONNECTIONS / t.urls.length), duration)));
  const cpu = t.pids.reduce((sum, pid) => sum + cpuMicros(pid), 0) - cpuBefore;
  const pgCpu = t.pg ? postgresCpuSince(pgBefore) : 0;
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  return {
    rps: results.reduce((sum, r) => sum + r.rps, 0),
    cpuUs: requests > 0 ? cpu / requests : 0,
    pgCpuUs: requests > 0 ? pgCpu / requests : 0,
    failures: results.reduce((sum, r) => sum + r.failures, 0),
  };
}

async function createIds(url: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = await fetch(`${url}/v1/charges`, {
      method: "POST",
      headers: { "x-api-key": API_KEY, "content-type": "application/json", "idempotency-key": `bench-seed-${randomBytes(6).toString("hex")}` },
      body: CHARGE_BODY,
    });
    ids.push(((await r.json()) as { id: string }).id);
  }
  return ids;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

if (!PG_URL) {
  console.error("bench-stores: set SANDBOX_BENCH_POSTGRES_URL (or SANDBOX_TEST_POSTGRES_URL), e.g. \"$(bash sandbox/scripts/ci-postgres.sh)\"");
  process.exit(2);
}

const schemaName = `sbx_bench_${randomBytes(4).toString("hex")}`;
const admin = new pg.Client({ connectionString: PG_URL });
await admin.connect();
await admin.query(`CREATE SCHEMA ${schemaName}`);
const storeUrl = new URL(PG_URL);
storeUrl.searchParams.set("options", `-c search_path=${schemaName}`);
const dataDir = mkdtempSync(join(tmpdir(), "bench-stores-"));
const children: ChildProcess[] = [];
try {
  console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${fmt(totalmem() / 2 ** 30, 1)} GiB, Node ${process.version}; PostgreSQL ${(await admin.query("SHOW server_version")).rows[0].server_version} on the same machine`);
  console.log(`method: autocannon in this process, ${CONNECTIONS} connections (split between instances); ${ROUNDS} rounds of ${WARMUP} s warm-up + ${DURATION} s per run, rotating order; medians`);
  const sqlite = await spawnSandbox(["--data-dir", dataDir]);
  const pgOne = await spawnSandbox(["--store", storeUrl.toString(), "--instance", "bench-1"]);
  const pgTwoA = await spawnSandbox(["--store", storeUrl.toString(), "--instance", "bench-2a"]);
  const pgTwoB = await spawnSandbox(["--store", storeUrl.toString(), "--instance", "bench-2b"]);
  children.push(sqlite.child, pgOne.child, pgTwoA.child, pgTwoB.child);
  const sqliteIds = await createIds(sqlite.url, 500);
  const pgIds = await createIds(pgOne.url, 500);
  const targets: Target[] = [
    { label: "SQLite, one instance", urls: [sqlite.url], pids: [sqlite.child.pid!], pg: false, ids: sqliteIds, runs: { post: [], get: [] } },
    { label: "PostgreSQL, one instance", urls: [pgOne.url], pids: [pgOne.child.pid!], pg: true, ids: pgIds, runs: { post: [], get: [] } },
    { label: "PostgreSQL, two instances", urls: [pgTwoA.url, pgTwoB.url], pids: [pgTwoA.child.pid!, pgTwoB.child.pid!], pg: true, ids: pgIds, runs: { post: [], get: [] } },
  ];
  for (let round = 0; round < ROUNDS; round++) {
    const order = targets.map((_, i) => targets[(i + round) % targets.length]);
    for (const t of order) {
      for (const kind of ["post", "get"] as const) {
        await measure(t, kind, WARMUP);
        t.runs[kind].push(await measure(t, kind, DURATION));
      }
    }
  }
  const summary = (t: Target, kind: "post" | "get") => {
    const runs = t.runs[kind];
    const rps = median(runs.map((r) => r.rps));
    const cpu = median(runs.map((r) => r.cpuUs));
    const pgCpu = median(runs.map((r) => r.pgCpuUs));
    const failures = runs.reduce((sum, r) => sum + r.failures, 0);
    return { rps, cpu, pgCpu, text: `${kind.toUpperCase().padEnd(4)} ${fmt(rps).padStart(7)} req/s (runs ${runs.map((r) => fmt(r.rps)).join(", ")}), sandbox CPU ${fmt(cpu)} µs/req${t.pg ? `, PostgreSQL CPU ${fmt(pgCpu)} µs/req, sum ${fmt(cpu + pgCpu)} µs/req` : ""}${failures ? `, non-2xx or errors: ${failures}` : ""}` };
  };
  const figures = targets.map((t) => ({ post: summary(t, "post"), get: summary(t, "get") }));
  targets.forEach((t, i) => {
    console.log(t.label);
    console.log(`  ${figures[i].post.text}`);
    console.log(`  ${figures[i].get.text}`);
  });
  const [s, p1, p2] = figures;
  console.log(
    `ratios (medians): POST PG/SQLite ${fmt(p1.post.rps / s.post.rps, 2)}x (target >= 0.5x); GET PG/SQLite ${fmt(p1.get.rps / s.get.rps, 2)}x; ` +
      `sandbox CPU per request PG/SQLite: POST ${fmt(p1.post.cpu / s.post.cpu, 2)}x, GET ${fmt(p1.get.cpu / s.get.cpu, 2)}x (target <= 2x); ` +
      `with PostgreSQL's own CPU: POST ${fmt((p1.post.cpu + p1.post.pgCpu) / s.post.cpu, 2)}x, GET ${fmt((p1.get.cpu + p1.get.pgCpu) / s.get.cpu, 2)}x; ` +
      `two instances / one: POST ${fmt(p2.post.rps / p1.post.rps, 2)}x, GET ${fmt(p2.get.rps / p1.get.rps, 2)}x (on ${cpus().length} CPUs shared with PostgreSQL and the load generator)`,
  );
} finally {
  await Promise.all(children.map(stop));
  rmSync(dataDir, { recursive: true, force: true });
  await admin.query(`DROP SCHEMA IF EXISTS ${schemaName} CASCADE`);
  await admin.end();
}
