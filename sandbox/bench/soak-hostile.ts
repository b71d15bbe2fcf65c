/**
 * Soak under hostile clients (issue #17), a benchmark script, not a test:
 *
 *   npx tsx sandbox/bench/soak-hostile.ts --seconds 30
 *
 * Spawns the sandbox as `npm run sandbox` starts it (default plan, loopback), then runs, for
 * `--seconds` (default 120), 20 hostile clients and one well-behaved client:
 * - 5 send ~1 MiB bodies (one huge array) to a control and to POST /v1/charges;
 * - 5 send slow bodies (a few bytes every 100 ms) and slow headers;
 * - 5 hammer with spent keys (the rate-limit account, far past its limit) and key-less requests;
 * - 5 advance their account's clock by ten years at a time (and read it back).
 * The well-behaved client (account 2, family A) sends one GET /v1/merchant every 650 ms (about
 * 92 a minute, under the default plan's 100), so every answer it gets should be a 200. Prints its p50/p99/max latency, its statuses, and the sandbox's CPU time per
 * request of any client (from /proc). Target: p99 < 50 ms.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { commandLine } from "@payment-collection/contract/build/command-line.ts";
import { createKeyRing } from "../src/keys.ts";
import { SANDBOX_NODE_FLAGS } from "../src/node-flags.ts";
import { stop } from "./common.ts";

const { values } = commandLine(
  "usage: npx tsx sandbox/bench/soak-hostile.ts [--seconds N]\n\n20 hostile clients and one well-behaved client against the sandbox for N seconds (default 120); prints the well-behaved client's latency. Never fails on a number.",
  { seconds: { type: "string" } },
);
const SECONDS = Number(values.seconds ?? 120);
const keys = createKeyRing().keys;

function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
}

const dir = mkdtempSync(join(tmpdir(), "soak-hostile-"));
const child = spawn(process.execPath, [...SANDBOX_NODE_FLAGS, "--import", "tsx", join(import.meta.dirname, "../src/cli.ts"), "--port", "0", "--data-dir", dir, "--plan", "default", "--json"], {
  stdio: ["ignore", "pipe", "inherit"],
});
const { url } = JSON.parse(await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve))) as { url: string };
const { hostname, port } = new URL(url);

let stopping = false;
let requests = 0;
const deadline = Date.now() + SECONDS * 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One request with node:http (no pooling surprises); resolves with the status (0 on error). */
function call(method: string, path: string, headers: Record<string, string>, body?: string | Buffer, slowMs = 0): Promise<number> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: hostname, port, method, path, headers: body === undefined ? headers : { ...headers, "content-length": Buffer.byteLength(body) }, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", () => resolve(0));
    });
    req.on("error", () => resolve(0));
    requests++;
    if (body === undefined) return void req.end();
    if (!slowMs) return void req.end(body);
    const bytes = Buffer.from(body);
    let at = 0;
    const drip = () => {
      if (stopping || at >= bytes.length) return void req.end(bytes.subarray(at));
      req.write(bytes.subarray(at, at + 8));
      at += 8;
      setTimeout(drip, slowMs);
    };
    drip();
  });
}

const HUGE = `{"status":"REGISTERED","amount":100,"method":"pix","x":[${"0,".repeat(500_000)}0]}`;
const hostile: Array<() => Promise<void>> = [];
for (let i = 0; i < 5; i++) {
  hostile.push(async () => {
    while (!stopping) {
      await call("POST", "/_sandbox/boletos", { "x-api-key": keys.familyB.primary, "content-type": "application/json" }, HUGE);
      await call("POST", "/v1/charges", { "x-api-key": keys.familyA.primary, "content-type": "application/json", "idempotency-key": `soak-${Math.random()}` }, HUGE);
    }
  });
  hostile.push(async () => {
    while (!stopping) await call("POST", "/pix", { "x-api-key": keys.familyB.primary, "content-type": "application/json" }, JSON.stringify({ amount: 1, description: "x".repeat(200) }), 100);
  });
  hostile.push(async () => {
    while (!stopping) {
      await call("GET", "/sdk/status/health", { "x-api-key": keys.familyB.rateLimits });
      await call("GET", "/v1/merchant", { "x-api-key": keys.familyA.rateLimits });
      await call("GET", "/v1/merchant", {});
    }
  });
  hostile.push(async () => {
    while (!stopping) {
      await call("POST", "/_sandbox/clock/advance", { "x-api-key": keys.familyB.rateLimits, "content-type": "application/json" }, JSON.stringify({ seconds: 315_360_000 }));
      await call("GET", "/_sandbox/clock", { "x-api-key": keys.familyA.rateLimits });
    }
  });
}

const latencies: number[] = [];
const statuses = new Map<number, number>();
async function wellBehaved(): Promise<void> {
  while (Date.now() < deadline) {
    const started = performance.now();
    const status = await call("GET", "/v1/merchant", { "x-api-key": keys.familyA.secondAccount });
    latencies.push(performance.now() - started);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    await sleep(650);
  }
}

const cpuBefore = cpuMicros(child.pid!);
const started = performance.now();
const running = hostile.map((client) => client());
await wellBehaved();
stopping = true;
const cpuUs = cpuMicros(child.pid!) - cpuBefore;
const elapsed = (performance.now() - started) / 1000;
await Promise.race([Promise.all(running), sleep(15_000)]);
await stop(child);
rmSync(dir, { recursive: true, force: true });

const sorted = [...latencies].sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
console.log(`soak: ${fmt(elapsed)} s, 20 hostile clients + 1 well-behaved client; ${requests} requests in all (${fmt(requests / elapsed)} req/s)`);
console.log(`well-behaved GET /v1/merchant: ${latencies.length} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}, p50 ${fmt(pct(50), 1)} ms, p99 ${fmt(pct(99), 1)} ms, max ${fmt(sorted.at(-1) ?? NaN, 1)} ms (target p99 < 50 ms)`);
console.log(`sandbox CPU: ${fmt(cpuUs / 1e6, 1)} s, ${fmt(cpuUs / requests)} µs per request`);

function fmt(n: number, digits = 0): string {
  return n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
