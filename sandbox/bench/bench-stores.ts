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
 * (seconds per measured run, default 5) or BENCH_REQUESTS (requests per measured run), BENCH_ROUNDS
 * (default 3), BENCH_CONNECTIONS (default 50).
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { cannon, CONNECTIONS, cpuMicros, createCharges, RUN_LENGTH, fmt, machine, median, ROUNDS, spawnSandbox, stop, WARMUP } from "./common.ts";
import { commandLine } from "@payment-collection/contract/build/command-line.ts";

commandLine(
  "usage: npm run bench:stores -w @payment-collection/sandbox\n\nSQLite, PostgreSQL and two PostgreSQL instances side by side: throughput and CPU per request.\nNeeds SANDBOX_BENCH_POSTGRES_URL or SANDBOX_TEST_POSTGRES_URL. Environment: BENCH_DURATION or BENCH_REQUESTS, BENCH_ROUNDS, BENCH_CONNECTIONS. Prints figures, never fails.",
  {},
);

const PG_URL = process.env.SANDBOX_BENCH_POSTGRES_URL ?? process.env.SANDBOX_TEST_POSTGRES_URL;

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

/** One run against every URL of the target at once, connections split between them. */
async function measure(t: Target, kind: "post" | "get", duration?: number): Promise<Run> {
  const cpuBefore = t.pids.reduce((sum, pid) => sum + cpuMicros(pid), 0);
  const pgBefore = postgresCpu();
  const results = await Promise.all(t.urls.map((url) => cannon(url, kind, t.ids, { connections: Math.ceil(CONNECTIONS / t.urls.length), duration })));
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
  console.log(`machine: ${machine()}; PostgreSQL ${(await admin.query("SHOW server_version")).rows[0].server_version} on the same machine`);
  console.log(`method: autocannon in this process, ${CONNECTIONS} connections (split between instances); ${ROUNDS} rounds of ${WARMUP} s warm-up + ${RUN_LENGTH} per run, rotating order; medians`);
  const sqlite = await spawnSandbox(["--data-dir", dataDir]);
  const pgOne = await spawnSandbox(["--store", storeUrl.toString(), "--instance", "bench-1"]);
  const pgTwoA = await spawnSandbox(["--store", storeUrl.toString(), "--instance", "bench-2a"]);
  const pgTwoB = await spawnSandbox(["--store", storeUrl.toString(), "--instance", "bench-2b"]);
  children.push(sqlite.child, pgOne.child, pgTwoA.child, pgTwoB.child);
  const sqliteIds = await createCharges(sqlite.url, 500);
  const pgIds = await createCharges(pgOne.url, 500);
  const targets: Target[] = [
    { label: "SQLite, one instance", urls: [sqlite.url], pids: [sqlite.child.pid!], pg: false, ids: sqliteIds, runs: { post: [], get: [] } },
    { label: "PostgreSQL, one instance", urls: [pgOne.url], pids: [pgOne.child.pid!], pg: true, ids: pgIds, runs: { post: [], get: [] } },
    { label: "PostgreSQL, two instances", urls: [pgTwoA.url, pgTwoB.url], pids: [pgTwoA.child.pid!, pgTwoB.child.pid!], pg: true, ids: pgIds, runs: { post: [], get: [] } },
  ];
  for (let round = 0; round < ROUNDS; round++) {
    const order = targets.map((_, i) => targets[(i + round) % targets.length]);
    for (const t of order) {
      for (const kind of ["post", "get"] as const) {
        if (WARMUP > 0) await measure(t, kind, WARMUP);
        t.runs[kind].push(await measure(t, kind));
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
