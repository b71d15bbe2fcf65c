/// <reference path="../types/autocannon.d.ts" />
/**
 * What the benchmarks (bench-sandbox.ts, bench-stores.ts) share: the settings read from the
 * environment, the sandbox started as `npm run sandbox` starts it (its own process, the node
 * options of src/node-flags.ts), the load (autocannon in the benchmark's process: `POST
 * /v1/charges` with a fresh Idempotency-Key per request, `GET /v1/charges/{id}` over a set of
 * ids), server CPU time per request from /proc, and the figures' formatting.
 *
 * Environment: BENCH_DURATION (seconds per measured run, default 5), BENCH_ROUNDS (default 3),
 * BENCH_CONNECTIONS (default 50), BENCH_WARMUP (seconds of warm-up per run, default 2),
 * BENCH_REQUESTS (requests per measured run instead of a duration: little load, for quick runs
 * such as the exit tests; autocannon still ends a run on its one-second tick, so the
 * throughput figures then say nothing).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import { createKeyRing } from "../src/keys.ts";
import { SANDBOX_NODE_FLAGS } from "../src/node-flags.ts";
import { cpuMicros, groupCpuMicros } from "../../contract/dev/bench/process-cpu.ts";

export { cpuMicros, groupCpuMicros };

export const DURATION = Number(process.env.BENCH_DURATION ?? 5);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** Seconds of unreported load before each measured run (BENCH_WARMUP, default 2). */
export const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
/** Requests per measured run instead of BENCH_DURATION seconds (BENCH_REQUESTS, unset by default). */
export const REQUESTS = process.env.BENCH_REQUESTS ? Number(process.env.BENCH_REQUESTS) : undefined;
/** How long a measured run is, as the method lines say it. */
export const RUN_LENGTH = REQUESTS ? `${REQUESTS} requests` : `${DURATION} s`;
/** The repository's root. */
export const ROOT = new URL("../..", import.meta.url).pathname;
export const API_KEY = createKeyRing().keys.familyA.primary;
export const CHARGE_BODY = JSON.stringify({ amount: 15000, method: "pix", reference: "bench", webhook_url: "https://loja.example.com.br/webhooks" });

/**
 * Resident memory of a process: in all, and the part that is file pages (the node binary and
 * the store's memory-mapped database file: the operating system's cache, reclaimable).
 */
export function residentMemory(pid: number): string {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return `RSS ${fmt(kib("VmRSS") / 1024)} MiB (of which file-backed ${fmt(kib("RssFile") / 1024)} MiB)`;
}

/** A sandbox in its own process on a free port, generous plan, with these extra CLI flags. */
export async function spawnSandbox(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...SANDBOX_NODE_FLAGS, "--import", "tsx", join(ROOT, "sandbox/src/cli.ts"), "--port", "0", "--plan", "generous", "--json", ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
  return { child, url: JSON.parse(line).url };
}

/** Seconds a server has to stop after SIGTERM before it is killed. */
const STOP_GRACE_SECONDS = 10;

/**
 * Stops a child server: SIGTERM, then SIGKILL if it has not exited within the grace period.
 * A child that already ended (by its exit code, or by a signal: exitCode stays null then) is
 * done at once: its exit event will not come again, and waiting for it would hang the run.
 */
export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_SECONDS * 1000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

export interface LoadResult {
  requests: number;
  rps: number;
  /** Latency p99 (ms). */
  p99: number;
  /** Non-2xx answers plus connection errors. */
  failures: number;
}

/**
 * One autocannon run: `post` creates charges (a fresh key per request), `get` reads the ids
 * given in turn (a fixed unknown id without any).
 */
export async function cannon(url: string, kind: "post" | "get", ids: readonly string[] = [], options: { connections?: number; duration?: number } = {}): Promise<LoadResult> {
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
          setupRequest: (req: Record<string, any>) => ({ ...req, path: `/v1/charges/${ids.length ? ids[counter++ % ids.length] : "ch_01M7Z876J0R2V6X9K3T5N0B1C7"}` }),
        };
  // A measured run lasts BENCH_DURATION seconds, or BENCH_REQUESTS requests; a warm-up, the duration it is given.
  const amount = options.duration === undefined ? REQUESTS : undefined;
  const began = performance.now();
  const result = await autocannon({ url, connections: options.connections ?? CONNECTIONS, ...(amount ? { amount } : { duration: options.duration ?? DURATION }), requests: [request as never] });
  // autocannon's average is per whole second of the run.
  const rps = amount ? result.requests.total / ((performance.now() - began) / 1000) : result.requests.average;
  return { requests: result.requests.total, rps, p99: result.latency.p99, failures: result.non2xx + result.errors };
}

/** Charges created through the API, one after the other; their ids. */
export async function createCharges(url: string, count: number): Promise<string[]> {
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

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The machine, for the first line of a report. */
export function machine(): string {
  return `${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${fmt(totalmem() / 2 ** 30, 1)} GiB, Node ${process.version}`;
}
