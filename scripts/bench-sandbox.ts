/// <reference path="../sandbox/types/autocannon.d.ts" />
/// <reference path="../sandbox/types/better-sqlite3.d.ts" />
/**
 * `npm run bench:sandbox`: throughput and p99 latency of `POST /v1/charges` (a fresh
 * Idempotency-Key on every request) and `GET /v1/charges/{id}` with autocannon, in one run,
 * against (a) the sandbox, (b) a Prism mock of the same contract and (c) a bare node:http
 * server answering a fixed JSON body of the same size; then the sandbox again with 1,000
 * versus 1,000,000 stored charges, and its resident memory. Prints figures and ratios; a
 * benchmark, not a test: it never fails on a number.
 *
 * Every server runs in its own child process; autocannon runs here. Environment:
 * BENCH_DURATION (seconds per run, default 10), BENCH_CONNECTIONS (default 50),
 * BENCH_STORED (large store size, default 1000000). Each measured run follows an unreported
 * 2-second warm-up run on the same target.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { dynamicBrCode } from "../sandbox/src/domain/brcode.ts";
import { chargeId, hex32 } from "../sandbox/src/domain/ids.ts";
import { createKeyRing } from "../sandbox/src/keys.ts";
import { SANDBOX_NODE_FLAGS } from "../sandbox/src/node-flags.ts";
import { DATABASE_FILE, openSqliteStore } from "../sandbox/src/store/sqlite.ts";
import { startPrism } from "../src/mock/prism.ts";
import { ROOT } from "./lib/contract-build.ts";
import { openapiPath } from "../src/contract/layout.ts";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const LARGE = Number(process.env.BENCH_STORED ?? 1_000_000);
const SMALL = 1_000;
const WARMUP = 2;

const keyRing = createKeyRing();
const API_KEY = keyRing.keys.familyA.primary;
const account = keyRing.accounts.get("acc_1")!;
const CHARGE_BODY = JSON.stringify({ amount: 15000, method: "pix", reference: "bench", webhook_url: "https://loja.example.com.br/webhooks" });

interface RunResult {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** A short unreported run first, so that every target is measured warm (JIT, caches). */
async function warmCannon(url: string, kind: "post" | "get", ids: readonly string[] = []): Promise<RunResult> {
  await cannon(url, kind, ids, WARMUP);
  return cannon(url, kind, ids);
}

async function cannon(url: string, kind: "post" | "get", ids: readonly string[] = [], duration = DURATION): Promise<RunResult> {
  let counter = 0;
  const run = process.pid;
  const request =
    kind === "post"
      ? {
          method: "POST" as const,
          path: "/v1/charges",
          headers: { "x-api-key": API_KEY, "content-type": "application/json" },
          body: CHARGE_BODY,
          setupRequest: (req: Record<string, any>) => ({ ...req, headers: { ...req.headers, "idempotency-key": `bench-${run}-${Date.now()}-${counter++}` } }),
        }
      : {
          method: "GET" as const,
          path: "/v1/charges/x",
          headers: { "x-api-key": API_KEY },
          setupRequest: (req: Record<string, any>) => ({ ...req, path: `/v1/charges/${ids.length ? ids[counter++ % ids.length] : "ch_01JDQ7Z8M4R2V6X9K3T5N0B1C7"}` }),
        };
  const result = await autocannon({ url, connections: CONNECTIONS, duration, requests: [request as never] });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

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

async function spawnSandbox(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...SANDBOX_NODE_FLAGS, "--import", "tsx", join(ROOT, "sandbox/src/cli.ts"), "--port", "0", "--data-dir", dir, "--plan", "generous", "--json"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
  return { child, url: JSON.parse(line).url };
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

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const line = (label: string, post: RunResult, get: RunResult) =>
  `${label.padEnd(34)} POST ${fmt(post.rps).padStart(8)} req/s p99 ${fmt(post.p99).padStart(5)} ms   GET ${fmt(get.rps).padStart(8)} req/s p99 ${fmt(get.p99).padStart(5)} ms` +
  (post.non2xx + get.non2xx + post.errors + get.errors > 0 ? `   (non-2xx ${post.non2xx + get.non2xx}, errors ${post.errors + get.errors})` : "");

console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${fmt(totalmem() / 2 ** 30, 1)} GiB, Node ${process.version}`);
console.log(`autocannon: ${CONNECTIONS} connections, ${DURATION} s per run\n`);

const smallDir = mkdtempSync(join(tmpdir(), "bench-sandbox-small-"));
const largeDir = mkdtempSync(join(tmpdir(), "bench-sandbox-large-"));
try {
  // (a) the sandbox, 1,000 stored charges.
  const smallIds = await seed(smallDir, SMALL);
  const small = await spawnSandbox(smallDir);
  const sample = await fetch(`${small.url}/v1/charges/${smallIds[0]}`, { headers: { "x-api-key": API_KEY } });
  const chargeText = await sample.text();
  const sandboxPost = await warmCannon(small.url, "post");
  const sandboxGet = await warmCannon(small.url, "get", smallIds);
  const smallRss = rssMiB(small.child.pid!);
  await stop(small.child);

  // (b) Prism mock of the same contract.
  const prism = await startPrism({ document: join(ROOT, "generated", openapiPath("3.1", "family-a", "yaml")) });
  const prismPost = await warmCannon(prism.url, "post");
  const prismGet = await warmCannon(prism.url, "get");
  await prism.close();

  // (c) bare node:http with a fixed body of the same size.
  const bare = await spawnBare(chargeText);
  const barePost = await warmCannon(bare.url, "post");
  const bareGet = await warmCannon(bare.url, "get");
  await stop(bare.child);

  console.log(line("sandbox", sandboxPost, sandboxGet));
  console.log(line("Prism mock (same contract)", prismPost, prismGet));
  console.log(line(`bare node:http (${Buffer.byteLength(chargeText)} B body)`, barePost, bareGet));
  console.log(
    `ratios: sandbox/Prism POST ${fmt(sandboxPost.rps / prismPost.rps, 1)}x GET ${fmt(sandboxGet.rps / prismGet.rps, 1)}x (target >= 10x); ` +
      `sandbox/bare POST ${fmt(sandboxPost.rps / barePost.rps, 2)}x GET ${fmt(sandboxGet.rps / bareGet.rps, 2)}x (target >= 0.5x)\n`,
  );

  // The sandbox with 1,000 versus LARGE stored charges.
  const seedStart = performance.now();
  const largeIds = await seed(largeDir, LARGE);
  console.log(`seeded ${fmt(LARGE)} charges in ${fmt((performance.now() - seedStart) / 1000, 1)} s`);
  const large = await spawnSandbox(largeDir);
  const largeGet = await warmCannon(large.url, "get", largeIds);
  const largePost = await warmCannon(large.url, "post");
  const largeRss = rssMiB(large.child.pid!);
  await stop(large.child);
  console.log(line(`sandbox, ${fmt(SMALL)} stored charges`, sandboxPost, sandboxGet) + `   RSS ${fmt(smallRss)} MiB`);
  console.log(line(`sandbox, ${fmt(LARGE)} stored charges`, largePost, largeGet) + `   RSS ${fmt(largeRss)} MiB`);
  console.log(
    `kept with ${fmt(LARGE)} stored: POST ${fmt((100 * largePost.rps) / sandboxPost.rps)}%, GET ${fmt((100 * largeGet.rps) / sandboxGet.rps)}% (target >= 90%)`,
  );
} finally {
  rmSync(smallDir, { recursive: true, force: true });
  rmSync(largeDir, { recursive: true, force: true });
}
