/// <reference path="../types/autocannon.d.ts" />
/// <reference path="../types/better-sqlite3.d.ts" />
/**
 * `npm run bench:sandbox`: throughput and p99 latency of `POST /v1/charges` (a fresh
 * Idempotency-Key on every request) and `GET /v1/charges/{id}` with autocannon, in one run,
 * against (a) the sandbox, (b) a Prism mock of the same contract and (c) a bare node:http
 * server answering a fixed JSON body of the same size, (d) the POST baseline: the same bare
 * server doing at least what the sandbox must do per POST, one durable SQLite insert (WAL,
 * synchronous=NORMAL: the sandbox's default `process` durability) of the body before
 * answering; then the sandbox again with 1,000 versus 1,000,000 stored charges beside the bare
 * server (GET against a large store versus bare node:http), and its resident memory. Prints
 * figures and ratios; a benchmark, not a test: it never fails on a number.
 *
 * Method: every server runs in its own child process (the sandbox as `npm run sandbox` starts
 * it, with the node options of sandbox/src/node-flags.ts); autocannon runs here, on the same
 * machine. All targets stay up for the whole comparison, which runs in rounds: in each round
 * every target is measured once (an unreported warm-up run, then the measured run), in an
 * order that rotates from round to round, and the medians over the rounds are reported with
 * every run's figure and the server's CPU time per request (all its threads, from /proc; for Prism,
 * every process of its process group).
 * On a small virtual machine single runs move by ±15% or more; rounds spread that drift over
 * all targets instead of letting it fall on one.
 *
 * Environment: BENCH_DURATION or BENCH_REQUESTS, BENCH_ROUNDS, BENCH_CONNECTIONS (common.ts), BENCH_STORED
 * (large store size, default 1000000), BENCH_ONLY=stored (only the second comparison: stored
 * charges and the bare server, no Prism).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import Database from "better-sqlite3";
import { dynamicBrCode } from "../src/domain/brcode.ts";
import { chargeId, hex32 } from "../src/domain/ids.ts";
import { createKeyRing } from "../src/keys.ts";
import { DATABASE_FILE, openSqliteStore } from "../src/store/sqlite.ts";
import { startPrism } from "@payment-collection/conformance/mock/prism.ts";
import { openapiPath } from "@payment-collection/contract/model/layout.ts";
import { API_KEY, cannon, CONNECTIONS, cpuMicros, fmt, groupCpuMicros, machine, median, ROOT, ROUNDS, residentMemory, spawnSandbox, stop, WARMUP, RUN_LENGTH, type LoadResult } from "./common.ts";
import { commandLine } from "@payment-collection/contract/build/command-line.ts";

commandLine(
  "usage: npm run bench:sandbox\n\nSandbox throughput and CPU per request versus Prism and bare node:http, then with 1,000 versus BENCH_STORED stored charges.\nEnvironment: BENCH_DURATION or BENCH_REQUESTS, BENCH_ROUNDS, BENCH_CONNECTIONS, BENCH_STORED, BENCH_ONLY=stored. Prints figures, never fails.",
  {},
);

const LARGE = Number(process.env.BENCH_STORED ?? 1_000_000);
const SMALL = 1_000;
const ONLY_STORED = process.env.BENCH_ONLY === "stored";

const account = createKeyRing().accounts.get("acc_1")!;

/** Creates the store's schema and inserts `count` charges (and their idempotency keys) in bulk. */
async function seed(dir: string, count: number): Promise<string[]> {
  // The store creates the schema (and stops its checkpoint worker on close).
  await openSqliteStore({ dataDir: dir }).close();
  const db = new Database(join(dir, DATABASE_FILE));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  const insertRecord = db.prepare(
    "INSERT INTO records (kind, account_id, id, status, customer_id, unique_key, created_ms, data) VALUES ('charge', 'acc_1', ?, 'pending', NULL, NULL, ?, ?)",
  );
  const insertKey = db.prepare(
    "INSERT INTO idempotency_keys (scope, key, fingerprint, state, status, body, created_ms, record_kind, record_id) VALUES ('key_a_primary', ?, ?, 'done', 201, ?, ?, 'charge', ?)",
  );
  const sample: string[] = [];
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const createdMs = Date.now() - (count - i);
      const txid = hex32();
      const charge = {
        id: chargeId(createdMs),
        object: "charge",
        status: "pending",
        amount: 100 + (i % 10_000),
        currency: "BRL",
        method: "pix",
        reference: `seed-${i}`,
        payer: null,
        payer_request: null,
        pix: { br_code: dynamicBrCode(account.brCode, txid), txid, end_to_end_id: null },
        webhook_url: null,
        expires_at: new Date(createdMs + 30 * 86_400_000).toISOString(),
        paid_at: null,
        created_at: new Date(createdMs).toISOString(),
      };
      const text = JSON.stringify(charge);
      insertRecord.run(charge.id, createdMs, text);
      insertKey.run(`seed-${i}`, hex32() + hex32(), text, createdMs, charge.id);
      if (sample.length < 10_000 || Math.random() < 10_000 / count) {
        if (sample.length < 10_000) sample.push(charge.id);
        else sample[Math.floor(Math.random() * sample.length)] = charge.id;
      }
    }
  });
  for (let from = 0; from < count; from += 50_000) batch(from, Math.min(count, from + 50_000));
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  return sample;
}

async function spawnBare(body: string): Promise<{ child: ChildProcess; url: string }> {
  const source = `
    const { createServer } = require("node:http");
    const body = ${JSON.stringify(body)};
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(req.method === "POST" ? 201 : 200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
        res.end(body);
      });
    });
    server.keepAliveTimeout = 60000;
    server.listen(0, "127.0.0.1", () => console.log(server.address().port));
  `;
  const child = spawn(process.execPath, ["-e", source], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
  return { child, url: `http://127.0.0.1:${port}` };
}

/** Bare node:http plus one durable SQLite insert per POST (the sandbox's durability setting). */
async function spawnBareWithInsert(body: string, dir: string): Promise<{ child: ChildProcess; url: string }> {
  const source = `
    const { createServer } = require("node:http");
    const Database = require("better-sqlite3");
    const db = new Database(${JSON.stringify(join(dir, "baseline.sqlite"))});
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.exec("CREATE TABLE IF NOT EXISTS records (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, created_ms INTEGER NOT NULL, data TEXT NOT NULL)");
    const insert = db.prepare("INSERT INTO records (key, created_ms, data) VALUES (?, ?, ?)");
    const body = ${JSON.stringify(body)};
    const server = createServer((req, res) => {
      const chunks = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        if (req.method === "POST") insert.run(String(req.headers["idempotency-key"] ?? Math.random()), Date.now(), Buffer.concat(chunks).toString("utf8"));
        res.writeHead(req.method === "POST" ? 201 : 200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
        res.end(body);
      });
    });
    server.keepAliveTimeout = 60000;
    server.listen(0, "127.0.0.1", () => console.log(server.address().port));
  `;
  const child = spawn(process.execPath, ["-e", source], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
  return { child, url: `http://127.0.0.1:${port}` };
}

interface Target {
  label: string;
  url: string;
  /** The server's CPU time so far (µs): its process, or Prism's whole process group. */
  cpu: () => number;
  getIds?: readonly string[];
  runs: { post: Measured[]; get: Measured[] };
}

interface Measured extends LoadResult {
  /** Server CPU per request (µs), when the target's process is known. */
  cpuUs?: number;
}

function target(label: string, url: string, cpu: () => number, getIds?: readonly string[]): Target {
  return { label, url, cpu, getIds, runs: { post: [], get: [] } };
}
const processCpu = (pid: number | undefined) => () => cpuMicros(pid!);

async function measure(t: Target, kind: "post" | "get"): Promise<void> {
  if (WARMUP > 0) await cannon(t.url, kind, t.getIds, { duration: WARMUP });
  const before = t.cpu();
  const result: Measured = await cannon(t.url, kind, t.getIds);
  if (result.requests > 0) result.cpuUs = (t.cpu() - before) / result.requests;
  t.runs[kind].push(result);
}

/**
 * ROUNDS rounds; in each, every target is measured (POST then GET), the order rotating from
 * round to round so that a slow spell of the machine does not fall on one target only.
 */
async function rounds(targets: Target[]): Promise<void> {
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < targets.length; i++) {
      const t = targets[(i + round) % targets.length]!;
      await measure(t, "post");
      await measure(t, "get");
    }
  }
}

const rps = (t: Target, kind: "post" | "get") => median(t.runs[kind].map((r) => r.rps));

function describe(t: Target, kind: "post" | "get"): string {
  const runs = t.runs[kind];
  const values = runs.map((r) => r.rps);
  const cpu = runs.every((r) => r.cpuUs !== undefined) ? `, server CPU ${fmt(median(runs.map((r) => r.cpuUs!)))} µs/req` : "";
  const failures = runs.reduce((n, r) => n + r.failures, 0);
  return (
    `${kind.toUpperCase().padEnd(4)} ${fmt(median(values)).padStart(7)} req/s (runs ${values.map((v) => fmt(v)).join(", ")}), ` +
    `p99 ${fmt(median(runs.map((r) => r.p99)))} ms${cpu}${failures > 0 ? `, non-2xx or errors: ${failures}` : ""}`
  );
}
function report(t: Target, extra = ""): void {
  console.log(`${t.label}${extra}\n  ${describe(t, "post")}\n  ${describe(t, "get")}`);
}

console.log(`machine: ${machine()}`);
console.log(
  `method: autocannon in this process, ${CONNECTIONS} connections; each server in its own process; ${ROUNDS} rounds, ` +
    `each target measured once per round (${WARMUP} s warm-up, then ${RUN_LENGTH}) in rotating order; medians reported\n`,
);

const smallDir = mkdtempSync(join(tmpdir(), "bench-sandbox-small-"));
const largeDir = mkdtempSync(join(tmpdir(), "bench-sandbox-large-"));
const children: ChildProcess[] = [];
let prism: Awaited<ReturnType<typeof startPrism>> | undefined;
try {
  // (a) the sandbox (1,000 stored charges at start), (b) Prism mock of the same contract,
  // (c) bare node:http answering a fixed body of the same size, (d) bare node:http with an
  // insert per POST. All run throughout the first comparison; (a) and (c) also the second.
  const smallIds = await seed(smallDir, SMALL);
  const small = await spawnSandbox(["--data-dir", smallDir]);
  children.push(small.child);
  const sample = await fetch(`${small.url}/v1/charges/${smallIds[0]}`, { headers: { "x-api-key": API_KEY } });
  const chargeText = await sample.text();
  const bare = await spawnBare(chargeText);
  children.push(bare.child);
  const plainLabel = `bare node:http (fixed ${Buffer.byteLength(chargeText)} B body)`;
  let smallRss = residentMemory(small.child.pid!);

  if (!ONLY_STORED) {
    prism = await startPrism({ document: join(ROOT, "generated", openapiPath("3.1", "family-a", "yaml")) });
    const baselineDir = mkdtempSync(join(tmpdir(), "bench-baseline-"));
    const withInsert = await spawnBareWithInsert(chargeText, baselineDir);
    children.push(withInsert.child);

    const sandbox = target(`sandbox (${fmt(SMALL)} stored charges at start)`, small.url, processCpu(small.child.pid), smallIds);
    const mock = target("Prism mock (same contract, CPU of its process group)", prism.url, () => groupCpuMicros(prism!.pid));
    const plain = target(plainLabel, bare.url, processCpu(bare.child.pid));
    const insertBaseline = target("bare node:http + one durable SQLite insert per POST (WAL, synchronous=NORMAL)", withInsert.url, processCpu(withInsert.child.pid));
    await rounds([sandbox, mock, plain, insertBaseline]);
    smallRss = residentMemory(small.child.pid!);
    await prism.close();
    prism = undefined;
    await stop(withInsert.child);
    rmSync(baselineDir, { recursive: true, force: true });

    report(sandbox);
    report(mock);
    report(plain);
    report(insertBaseline);
    console.log(
      `ratios (medians): POST sandbox/(bare + SQLite insert) ${fmt(rps(sandbox, "post") / rps(insertBaseline, "post"), 2)}x (target >= 0.7x), ` +
        `sandbox/Prism ${fmt(rps(sandbox, "post") / rps(mock, "post"), 1)}x (target >= 7x); ` +
        `GET sandbox/bare ${fmt(rps(sandbox, "get") / rps(plain, "get"), 2)}x (target >= 0.5x), sandbox/Prism ${fmt(rps(sandbox, "get") / rps(mock, "get"), 1)}x (target >= 10x); ` +
        `POST sandbox/bare (no insert) ${fmt(rps(sandbox, "post") / rps(plain, "post"), 2)}x\n`,
    );
  }

  // The sandbox with 1,000 versus LARGE stored charges and the bare server, measured in alternation.
  const seedStart = performance.now();
  const largeIds = await seed(largeDir, LARGE);
  console.log(`seeded ${fmt(LARGE)} charges in ${fmt((performance.now() - seedStart) / 1000, 1)} s`);
  const large = await spawnSandbox(["--data-dir", largeDir]);
  children.push(large.child);
  const smallAgain = target(`sandbox, ${fmt(SMALL)} stored charges at start`, small.url, processCpu(small.child.pid), smallIds);
  const largeTarget = target(`sandbox, ${fmt(LARGE)} stored charges`, large.url, processCpu(large.child.pid), largeIds);
  const plainAgain = target(plainLabel, bare.url, processCpu(bare.child.pid));
  await rounds([smallAgain, largeTarget, plainAgain]);
  const largeRss = residentMemory(large.child.pid!);
  report(smallAgain, `, ${smallRss}`);
  report(largeTarget, `, ${largeRss}`);
  report(plainAgain);
  console.log(
    `kept with ${fmt(LARGE)} stored: POST ${fmt((100 * rps(largeTarget, "post")) / rps(smallAgain, "post"))}%, ` +
      `GET ${fmt((100 * rps(largeTarget, "get")) / rps(smallAgain, "get"))}% (target >= 90%); ` +
      `GET with ${fmt(LARGE)} stored/bare ${fmt(rps(largeTarget, "get") / rps(plainAgain, "get"), 2)}x, with ${fmt(SMALL)}/bare ${fmt(rps(smallAgain, "get") / rps(plainAgain, "get"), 2)}x (target >= 0.5x)`,
  );
} finally {
  await prism?.close();
  for (const child of children) await stop(child);
  rmSync(smallDir, { recursive: true, force: true });
  rmSync(largeDir, { recursive: true, force: true });
}
