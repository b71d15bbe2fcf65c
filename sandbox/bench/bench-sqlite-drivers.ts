/**
 * `npm run bench:drivers -w @payment-collection/sandbox`: the SQLite store on each of its
 * drivers that loads in the Node running the benchmark (better-sqlite3 where its binding is
 * built for this Node; node:sqlite from Node 22.13), side by side:
 *   store  the store API in this process: creations group-committed in batches of 50 (as one
 *          event-loop turn under load commits them), reads by id, and read-decide-write updates
 *          that each store a webhook event, in operations per second;
 *   HTTP   `POST /v1/charges` (a fresh Idempotency-Key per request) and `GET /v1/charges/{id}`
 *          through a sandbox started with `--store <driver>` (autocannon, as bench:stores), in
 *          requests per second, with the server's CPU per request.
 * Rounds rotate the order of the drivers; medians over the rounds are reported. A benchmark, not
 * a test: it never fails on a number. Run it under each Node to compare (`PATH=<node>/bin:$PATH`).
 *
 * Environment: BENCH_OPS (store operations per measured run and kind, default 20000), and those
 * of common.ts: BENCH_DURATION or BENCH_REQUESTS, BENCH_ROUNDS, BENCH_CONNECTIONS, BENCH_WARMUP.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cannon, CONNECTIONS, cpuMicros, createCharges, fmt, machine, median, ROUNDS, RUN_LENGTH, spawnSandbox, stop, WARMUP } from "./common.ts";
import { commandLine } from "@payment-collection/contract/build/command-line.ts";
import { openSqliteStore } from "../src/store/sqlite.ts";
import { SQLITE_DRIVERS, sqliteDriver, type SqliteDriverName } from "../src/store/sqlite/driver.ts";
import type { CreateRequest, SandboxStore } from "../src/store/types.ts";

commandLine(
  "usage: npm run bench:drivers -w @payment-collection/sandbox\n\nThe SQLite store on better-sqlite3 and on node:sqlite (each that loads in this Node): store operations and HTTP requests per second.\nEnvironment: BENCH_OPS, BENCH_DURATION or BENCH_REQUESTS, BENCH_ROUNDS, BENCH_CONNECTIONS, BENCH_WARMUP. Prints figures, never fails.",
  {},
);

const OPS = Number(process.env.BENCH_OPS ?? 20_000);
const BATCH = 50;
const KINDS = ["create", "get", "update"] as const;

const drivers = SQLITE_DRIVERS.filter((name) => {
  try {
    sqliteDriver(name);
    return true;
  } catch (error) {
    console.log(`${name}: not measured here: ${(error as Error).message.split(";")[0]}`);
    return false;
  }
});

function charge(id: string): CreateRequest {
  const data = { id, amount: 15000, method: "pix", status: "pending", reference: "bench", created_at: "2026-01-01T00:00:00Z" };
  return {
    record: { kind: "charge", accountId: "acc_bench", id, status: "pending", customerId: null, createdMs: Date.now(), data },
    claim: { scope: "key_bench", key: `key-${id}`, fingerprint: `fp-${id}`, nowMs: Date.now(), retentionMs: 86_400_000 },
    response: { status: 201, body: JSON.stringify(data) },
  };
}

/** One measured run of the store API: operations per second for each kind. */
async function storeRun(store: SandboxStore, tag: string): Promise<Record<(typeof KINDS)[number], number>> {
  const ids = Array.from({ length: OPS }, (_, i) => `ch_${tag}_${i}`);
  let began = performance.now();
  for (let i = 0; i < OPS; i += BATCH) await Promise.all(ids.slice(i, i + BATCH).map((id) => store.create(charge(id))));
  const create = OPS / ((performance.now() - began) / 1000);
  began = performance.now();
  for (const id of ids) await store.get("charge", "acc_bench", id);
  const get = OPS / ((performance.now() - began) / 1000);
  began = performance.now();
  for (const id of ids) {
    await store.update("charge", "acc_bench", id, (current) => ({
      next: { ...current, status: "paid", data: { ...current.data, status: "paid" } },
      result: true,
      events: [{ id: `evt_${id}`, accountId: "acc_bench", url: "https://loja.example.com.br/webhooks", type: "charge.paid", payload: current.dataJson ?? "{}", createdMs: Date.now() }],
    }));
  }
  const update = OPS / ((performance.now() - began) / 1000);
  return { create, get, update };
}

const dataDir = mkdtempSync(join(tmpdir(), "bench-drivers-"));
const children: ChildProcess[] = [];
try {
  console.log(`machine: ${machine()}`);
  console.log(
    `method: store API in this process, ${fmt(OPS)} operations per kind and run (creations in batches of ${BATCH}); HTTP: autocannon, ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${RUN_LENGTH} per run; ${ROUNDS} rounds, rotating order; medians`,
  );
  const storeRuns = new Map<SqliteDriverName, Array<Record<(typeof KINDS)[number], number>>>(drivers.map((d) => [d, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const driver of drivers.map((_, i) => drivers[(i + round) % drivers.length]!)) {
      const store = openSqliteStore({ dataDir: join(dataDir, `store-${driver.replace(/\W/g, "-")}-${round}`), driver });
      try {
        storeRuns.get(driver)!.push(await storeRun(store, `${round}`));
      } finally {
        await store.close();
      }
    }
  }
  interface Measured {
    driver: SqliteDriverName;
    child: ChildProcess;
    url: string;
    ids: string[];
    runs: Record<"post" | "get", Array<{ rps: number; cpuUs: number }>>;
  }
  const sandboxes: Measured[] = [];
  for (const driver of drivers) {
    const sandbox = await spawnSandbox(["--data-dir", join(dataDir, `http-${driver.replace(/\W/g, "-")}`), "--store", driver]);
    children.push(sandbox.child);
    sandboxes.push({ driver, ...sandbox, ids: await createCharges(sandbox.url, 500), runs: { post: [], get: [] } });
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of sandboxes.map((_, i) => sandboxes[(i + round) % sandboxes.length]!)) {
      for (const kind of ["post", "get"] as const) {
        if (WARMUP > 0) await cannon(s.url, kind, s.ids, { duration: WARMUP });
        const cpuBefore = cpuMicros(s.child.pid!);
        const result = await cannon(s.url, kind, s.ids);
        s.runs[kind].push({ rps: result.rps, cpuUs: result.requests > 0 ? (cpuMicros(s.child.pid!) - cpuBefore) / result.requests : 0 });
      }
    }
  }
  for (const driver of drivers) {
    const runs = storeRuns.get(driver)!;
    const s = sandboxes.find((x) => x.driver === driver)!;
    console.log(driver);
    console.log(`  store: ${KINDS.map((kind) => `${kind} ${fmt(median(runs.map((r) => r[kind])))}/s`).join(", ")}`);
    console.log(`  HTTP:  ${(["post", "get"] as const).map((kind) => `${kind.toUpperCase()} ${fmt(median(s.runs[kind].map((r) => r.rps)))} req/s (sandbox CPU ${fmt(median(s.runs[kind].map((r) => r.cpuUs)))} µs/req)`).join(", ")}`);
  }
  if (drivers.length === 2) {
    const [a, b] = drivers.map((d) => storeRuns.get(d)!);
    const [sa, sb] = drivers.map((d) => sandboxes.find((x) => x.driver === d)!);
    const ratio = (x: number[], y: number[]) => fmt(median(y) / median(x), 2);
    console.log(
      `ratios node:sqlite / better-sqlite3 (medians): store ${KINDS.map((kind) => `${kind} ${ratio(a!.map((r) => r[kind]), b!.map((r) => r[kind]))}x`).join(", ")}; ` +
        `HTTP POST ${ratio(sa!.runs.post.map((r) => r.rps), sb!.runs.post.map((r) => r.rps))}x, GET ${ratio(sa!.runs.get.map((r) => r.rps), sb!.runs.get.map((r) => r.rps))}x`,
    );
  }
} finally {
  await Promise.all(children.map(stop));
  rmSync(dataDir, { recursive: true, force: true });
}
