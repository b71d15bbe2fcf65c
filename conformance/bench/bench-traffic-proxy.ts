/**
 * Benchmark of the validating proxy (`payment-collection proxy`) in front of the sandbox, each
 * in its own process, the load from this one:
 *
 * 1. throughput: closed loop (BENCH_CONNECTIONS at once, BENCH_DURATION seconds), direct to the
 *    sandbox, through the proxy, through a bare pass-through proxy (bare-proxy.ts: node:http with
 *    a keep-alive agent, no checks) and through Prism's proxy mode (`prism proxy`, the family A
 *    document, same sandbox), BENCH_ROUNDS rounds in turn; the ratios proxy/bare proxy (target
 *    >= 0.8), proxy/direct and proxy/Prism (target >= 5), and the CPU time each process spends
 *    per exchange;
 * 2. added latency: open loop at 200 requests/s, p99 direct and through the proxy, BENCH_ROUNDS
 *    rounds in turn; the difference (target <= 2 ms);
 * 3. memory: a proxy of its own under a 64 MiB heap limit, its rules' memories filled first
 *    (BENCH_WARMUP_EXCHANGES, default 4 x MEMORY = 40,000: MEMORY creations), then
 *    BENCH_EXCHANGES exchanges (default 100,000), its resident memory sampled every tenth
 *    (target: flat);
 * 4. a HAR file of BENCH_HAR_MB megabytes (default 200; 0 skips it), made of recorded exchanges
 *    with the sandbox, checked by `payment-collection traffic check` under a 64 MiB heap limit:
 *    its time and peak memory.
 *
 * The load mixes GET /v1/charges/{id}, GET /sdk/status/health and POST /v1/charges (a fresh
 * Idempotency-Key each). Run: `npm run bench:traffic`. The figures depend on the machine and on
 * what else runs on it: the ratios, measured in one run, are what to compare.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { createKeyRing } from "@payment-collection/sandbox/keys.ts";
import { SANDBOX_NODE_FLAGS } from "@payment-collection/sandbox/node-flags.ts";
import { cpuMicros, groupCpuMicros } from "../../contract/dev/bench/process-cpu.ts";
import { MEMORY } from "../src/traffic/memory.ts";
import { prismEntry, startPrism, type RunningPrism } from "../src/mock/prism.ts";

if (process.argv.includes("--help") || process.argv.includes("-h")) {
  console.log(`usage: npm run bench:traffic

Benchmarks the validating proxy in front of the sandbox: throughput and CPU per exchange direct,
through the proxy, through a bare pass-through proxy (node:http, keep-alive, no checks: the
reference, target proxy/bare >= 0.8) and through Prism's proxy mode (when Prism is installed),
added p99 latency at
200 requests/s, resident memory over BENCH_EXCHANGES exchanges (a proxy under a 64 MiB heap
limit, warmed up first), and a BENCH_HAR_MB-megabyte HAR check under a 64 MiB heap limit.
Settings (environment): BENCH_CONNECTIONS (default 20), BENCH_DURATION (seconds per throughput
run, default 5), BENCH_ROUNDS (default 3), BENCH_EXCHANGES (default 100000),
BENCH_THROUGHPUT_WARMUP (exchanges each target gets before its throughput rounds, Prism aside,
default 20000), BENCH_WARMUP_EXCHANGES (before the memory is sampled, default 40000), BENCH_HAR_MB (default 200;
0 skips it), PROF=1 (the proxy writes a CPU profile to /tmp/proxyprof). Prints its figures and
exits 0.`);
  process.exit(0);
}


const ROOT = new URL("../..", import.meta.url).pathname;
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Exchanges before the memory is sampled: 4 x MEMORY fill the rules' memories (one creation in four). */
const WARM_UP = Number(process.env.BENCH_WARMUP_EXCHANGES ?? 4 * MEMORY);
/** Exchanges each process of the throughput part gets before its rounds (Prism aside). */
const THROUGHPUT_WARM_UP = Number(process.env.BENCH_THROUGHPUT_WARMUP ?? 20_000);
const EXCHANGES = Number(process.env.BENCH_EXCHANGES ?? 100_000);
const RATE = 200;
const HAR_MB = Number(process.env.BENCH_HAR_MB ?? 200);
const keys = createKeyRing().keys;
const CHARGE_BODY = JSON.stringify({ amount: 15000, method: "pix", reference: "bench", webhook_url: "https://loja.example.com.br/webhooks" });

async function spawned(args: string[], ready: RegExp, stream: "stdout" | "stderr"): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const lines = createInterface({ input: child[stream]! });
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    lines.on("line", (line) => {
      const found = ready.exec(line);
      if (found) resolve(found);
    });
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}`)));
  });
  return { child, match };
}

const stop = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once("exit", () => resolve()), child.kill("SIGTERM"))));

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const statuses: Record<string, number> = {};
let sequence = 0;

/** One request of the mix; resolves with its latency in ms. */
function send(base: string, ids: string[]): Promise<number> {
  const n = sequence++;
  const url = new URL(base);
  const kind = n % 4;
  const started = process.hrtime.bigint();
  const options =
    kind === 3
      ? { method: "POST", path: "/v1/charges", headers: { "x-api-key": keys.familyA.primary, "idempotency-key": `bench-${process.pid}-${n}`, "content-type": "application/json" }, body: CHARGE_BODY }
      : kind === 2
        ? { method: "GET", path: "/sdk/status/health", headers: { "X-API-Key": keys.familyB.primary } }
        : { method: "GET", path: `/v1/charges/${ids[n % ids.length]}`, headers: { "x-api-key": keys.familyA.primary } };
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method: options.method, path: options.path, headers: options.headers, agent }, (res) => {
      res.resume();
      statuses[`${options.method} ${kind} ${res.statusCode}`] = (statuses[`${options.method} ${kind} ${res.statusCode}`] ?? 0) + 1;
      res.once("end", () => (res.statusCode! >= 500 ? reject(new Error(`${options.method} ${options.path}: ${res.statusCode}`)) : resolve(Number(process.hrtime.bigint() - started) / 1e6)));
    });
    req.once("error", (error) => reject(new Error(`${options.method} ${base}${options.path}: ${error.message}`)));
    req.end(options.body);
  });
}

async function closedLoop(base: string, ids: string[], seconds: number): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < end) {
        await send(base, ids);
        done += 1;
      }
    }),
  );
  return done / seconds;
}

/** `count` exchanges of the mix, CONNECTIONS at a time. */
async function drive(base: string, ids: string[], count: number): Promise<void> {
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, lane) => {
      for (let i = lane; i < count; i += CONNECTIONS) await send(base, ids);
    }),
  );
}

async function openLoop(base: string, ids: string[], seconds: number): Promise<number[]> {
  const latencies: Promise<number>[] = [];
  const start = Date.now();
  for (let i = 0; i < RATE * seconds; i++) {
    const due = start + (i * 1000) / RATE;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    latencies.push(send(base, ids));
  }
  return Promise.all(latencies);
}

/** CPU time of the load generator (this process) and of each server process, in µs. */
type CpuReading = () => number;

interface LoadRun {
  rate: number;
  /** µs of CPU per request: each process on the request's way, and the load generator. */
  cpuPerRequest: Record<string, number>;
}

/** A closed-loop run with the CPU time each named process spent on it. */
async function measured(base: string, ids: string[], processes: Record<string, CpuReading>): Promise<LoadRun> {
  const readAll = (): Record<string, number> => {
    const own = process.cpuUsage();
    return { ...Object.fromEntries(Object.entries(processes).map(([name, read]) => [name, read()])), "load generator": own.user + own.system };
  };
  const before = readAll();
  const rate = await closedLoop(base, ids, DURATION);
  const after = readAll();
  const requests = rate * DURATION;
  return { rate, cpuPerRequest: Object.fromEntries(Object.keys(after).map((name) => [name, (after[name]! - before[name]!) / requests])) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const spread = (values: number[], digits = 0) => `median ${fmt(median(values), digits)} (${values.map((v) => fmt(v, digits)).join(", ")})`;
const cpuLine = (runs: LoadRun[]) => Object.keys(runs[0]!.cpuPerRequest).map((name) => `${name} ${fmt(median(runs.map((r) => r.cpuPerRequest[name]!)))} µs`).join(", ");

const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)]!;
const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** A HAR entry of one exchange with the sandbox, as a browser records it. */
async function recordedEntry(method: string, url: string, headers: Record<string, string>, body?: string): Promise<string> {
  const started = Date.now();
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  return JSON.stringify({
    startedDateTime: new Date(started).toISOString(),
    time: Date.now() - started,
    request: { method, url, httpVersion: "HTTP/1.1", headers: Object.entries(headers).map(([name, value]) => ({ name, value })), queryString: [], cookies: [], headersSize: -1, bodySize: body?.length ?? 0, ...(body ? { postData: { mimeType: "application/json", text: body } } : {}) },
    response: { status: response.status, statusText: response.statusText, httpVersion: "HTTP/1.1", headers: [...response.headers].map(([name, value]) => ({ name, value })), cookies: [], content: { size: text.length, mimeType: "application/json", text }, redirectURL: "", headersSize: -1, bodySize: text.length },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  });
}

/** Writes a HAR of about HAR_MB megabytes (a session's entries repeated) and checks it with the CLI. */
async function harCheck(base: string): Promise<void> {
  const a = { "x-api-key": keys.familyA.primary };
  const idempotency = `bench-har-${process.pid}`;
  const created = await recordedEntry("POST", `${base}/v1/charges`, { ...a, "idempotency-key": idempotency, "content-type": "application/json" }, CHARGE_BODY);
  const id = (JSON.parse(JSON.parse(created).response.content.text) as { id: string }).id;
  const session = [created, await recordedEntry("GET", `${base}/v1/charges/${id}`, a), await recordedEntry("GET", `${base}/sdk/status/health`, { "X-API-Key": keys.familyB.primary })];
  const dir = mkdtempSync(join(tmpdir(), "bench-har-"));
  const file = join(dir, "large.har");
  try {
    const fd = openSync(file, "w");
    writeSync(fd, '{"log":{"version":"1.2","creator":{"name":"bench","version":"1"},"entries":[');
    let written = 0;
    let entries = 0;
    for (let i = 0; written < HAR_MB * 1024 * 1024; i++) {
      const entry = session[i % session.length]!;
      written += writeSync(fd, `${entries === 0 ? "" : ","}\n${entry}`);
      entries += 1;
    }
    writeSync(fd, "]}}\n");
    closeSync(fd);
    const started = Date.now();
    // A 64 MiB heap: a reader that held the file (or grew with it) would run out of memory and fail.
    const check = spawn(process.execPath, ["--max-old-space-size=64", join(ROOT, "cli/bin/payment-collection.js"), "traffic", "check", file, "--family-a-base-url", base, "--family-b-base-url", base], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    check.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number>((resolve) => check.once("exit", (c) => resolve(c ?? -1)));
    const peak = /peak memory \(RSS\): (\S+ MiB)/.exec(out)?.[1] ?? "?";
    console.log(`HAR check of ${fmt(statSync(file).size / 1024 / 1024)} MiB (${fmt(entries)} entries) with a 64 MiB heap limit: ${fmt((Date.now() - started) / 1000, 1)} s, peak RSS ${peak}, exit ${code} (0: clean)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A proxy in front of the sandbox, in its own process. */
interface ProxyProcess {
  child: ChildProcess;
  url: string;
}

/** Throughput of each target in closed loops, in rounds taken in turn, with the CPU per exchange of its processes. */
async function throughput(direct: string, proxy: ProxyProcess, bare: ProxyProcess, sandbox: ChildProcess, ids: string[]): Promise<void> {
  let prism: RunningPrism | undefined;
  if (prismEntry()) {
    // Prism validates the family A document (its proxy takes one); the family B requests pass it unchecked.
    prism = await startPrism({ document: join(ROOT, "generated/openapi/3.1/family-a.yaml"), upstream: direct, verbosity: "error" });
  } else console.log("Prism is not installed (an optional peer dependency): its proxy is not measured");
  const sandboxCpu = () => cpuMicros(sandbox.pid!);
  const targets: Array<{ label: string; base: string; processes: Record<string, CpuReading>; runs: LoadRun[] }> = [
    { label: "direct", base: direct, processes: { sandbox: sandboxCpu }, runs: [] },
    { label: "proxy", base: proxy.url, processes: { proxy: () => cpuMicros(proxy.child.pid!), sandbox: sandboxCpu }, runs: [] },
    { label: "bare proxy", base: bare.url, processes: { "bare proxy": () => cpuMicros(bare.child.pid!), sandbox: sandboxCpu }, runs: [] },
    ...(prism ? [{ label: "Prism proxy", base: prism.url, processes: { prism: () => groupCpuMicros(prism.pid), sandbox: sandboxCpu }, runs: [] }] : []),
  ];
  try {
    // Warmed up by a count of exchanges, not a time: the proxy's checks reach their steady cost
    // (compiled validators, the JIT's optimised code) only after some thousands of exchanges,
    // which a loaded machine did not reach in a second. Prism, far slower, gets a second.
    for (const target of targets) await (target.label === "Prism proxy" ? closedLoop(target.base, ids, 1) : drive(target.base, ids, THROUGHPUT_WARM_UP));
    // Rounds in turn, so that a change of the machine's load falls on every target alike.
    for (let round = 0; round < ROUNDS; round++) for (const target of targets) target.runs.push(await measured(target.base, ids, target.processes));
  } finally {
    await prism?.close();
  }
  const rates = (label: string) => targets.find((t) => t.label === label)!.runs.map((r) => r.rate);
  console.log(`throughput (${CONNECTIONS} connections, ${DURATION} s, ${ROUNDS} rounds; req/s):`);
  for (const target of targets) console.log(`  ${target.label}: ${spread(target.runs.map((r) => r.rate))}; CPU per exchange: ${cpuLine(target.runs)}`);
  const ratios = (of: string, to: string) => rates(of).map((rate, i) => rate / rates(to)[i]!);
  console.log(`  proxy / bare proxy: ${spread(ratios("proxy", "bare proxy"), 2)} (target >= 0.8)`);
  const cpuOf = (label: string, name: string) => median(targets.find((t) => t.label === label)!.runs.map((r) => r.cpuPerRequest[name]!));
  console.log(`  CPU per exchange: proxy ${fmt(cpuOf("proxy", "proxy"))} µs, bare proxy ${fmt(cpuOf("bare proxy", "bare proxy"))} µs (medians)`);
  console.log(`  proxy / direct: ${spread(ratios("proxy", "direct"), 2)}; bare proxy / direct: ${spread(ratios("bare proxy", "direct"), 2)}`);
  if (prism) console.log(`  proxy / Prism proxy: ${spread(ratios("proxy", "Prism proxy"), 1)} (target >= 5)`);
}

/** The p99 the proxy adds at a fixed rate, in rounds too: the p99 of a few seconds is the machine's as much as the proxy's. */
async function addedLatency(direct: string, proxied: string, ids: string[]): Promise<void> {
  const directP99s: number[] = [];
  const proxiedP99s: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    directP99s.push(p99(await openLoop(direct, ids, DURATION)));
    proxiedP99s.push(p99(await openLoop(proxied, ids, DURATION)));
  }
  console.log(`latency at ${RATE} req/s (open loop, ${DURATION} s, ${ROUNDS} rounds; p99 in ms): direct ${spread(directP99s, 2)}, through the proxy ${spread(proxiedP99s, 2)}`);
  console.log(`  added: ${spread(proxiedP99s.map((p, i) => p - directP99s[i]!), 2)} (target <= 2 ms)`);
}

/**
 * Memory: a proxy of its own under a 64 MiB heap limit (one whose state grew with the
 * exchanges would run out of it), its rules' memories first filled (the warm-up exchanges).
 */
async function boundedMemory(bounded: ProxyProcess, ids: string[]): Promise<void> {
  await drive(bounded.url, ids, WARM_UP);
  const samples: number[] = [];
  const batch = Math.max(1, Math.floor(EXCHANGES / 10));
  for (let sent = 0; sent < EXCHANGES; sent += batch) {
    await drive(bounded.url, ids, Math.min(batch, EXCHANGES - sent));
    samples.push(rssMiB(bounded.child.pid!));
  }
  console.log(
    `proxy RSS (MiB, 64 MiB heap limit, after ${fmt(WARM_UP)} warm-up exchanges) after each tenth of ${fmt(EXCHANGES)} exchanges: ${samples.map((rss) => fmt(rss, 1)).join(", ")} ` +
      `(min ${fmt(Math.min(...samples), 1)}, max ${fmt(Math.max(...samples), 1)}; ${bounded.child.exitCode === null ? "still running" : `exited ${bounded.child.exitCode}`})`,
  );
}

/** Twenty charges made directly: the ids the load reads back. */
async function seedCharges(direct: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) {
    const res = await fetch(`${direct}/v1/charges`, { method: "POST", headers: { "x-api-key": keys.familyA.primary, "idempotency-key": `bench-seed-${process.pid}-${i}`, "content-type": "application/json" }, body: CHARGE_BODY });
    ids.push(((await res.json()) as { id: string }).id);
  }
  return ids;
}

async function main(): Promise<void> {
  const sandbox = await spawned([...SANDBOX_NODE_FLAGS, "--import", "tsx", join(ROOT, "sandbox/src/cli.ts"), "--port", "0", "--plan", "generous", "--json"], /"url":"([^"]+)"/, "stdout");
  const direct = sandbox.match[1]!;
  let violations = 0;
  const examples: string[] = [];
  /** A proxy in front of the sandbox, in its own process, its violations counted. */
  const startProxy = async (nodeFlags: string[]): Promise<ProxyProcess> => {
    const started = await spawned([...nodeFlags, join(ROOT, "cli/bin/payment-collection.js"), "proxy", "--family-a-upstream", direct, "--family-b-upstream", direct, "--port", "0"], /listening on (\S+)/, "stderr");
    createInterface({ input: started.child.stderr! }).on("line", (line) => {
      if (!line.startsWith("violation")) {
        // What a proxy says besides its violations (a failure) is shown as it comes.
        if (!/listening on/.test(line)) console.error(`proxy: ${line}`);
        return;
      }
      violations += 1;
      if (examples.length < 3) examples.push(line.split(" | ")[0]!);
    });
    return { child: started.child, url: started.match[1]! };
  };
  const proxy = await startProxy(process.env.PROF ? ["--cpu-prof", "--cpu-prof-dir=/tmp/proxyprof"] : []);
  const bareStarted = await spawned(["--import", "tsx", join(ROOT, "conformance/bench/bare-proxy.ts"), direct], /listening on (\S+)/, "stderr");
  const bare: ProxyProcess = { child: bareStarted.child, url: bareStarted.match[1]! };
  let bounded: ProxyProcess | undefined;
  try {
    const ids = await seedCharges(direct);
    await throughput(direct, proxy, bare, sandbox.child, ids);
    await addedLatency(direct, proxy.url, ids);
    bounded = await startProxy(["--max-old-space-size=64"]);
    await boundedMemory(bounded, ids);
    console.log(`violations the proxy printed: ${violations} (the sandbox is the correct server: expected 0)${examples.map((line) => `\n  ${line}`).join("")}`);
    console.log(`statuses seen: ${JSON.stringify(statuses)}`);
    if (HAR_MB > 0) await harCheck(direct);
  } finally {
    if (bounded) await stop(bounded.child);
    await stop(bare.child);
    await stop(proxy.child);
    await stop(sandbox.child);
    agent.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(`bench-traffic-proxy: ${(error as Error).message}`);
  process.exit(1);
});
