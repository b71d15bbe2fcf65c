/**
 * `npm run bench:client`: per-call overhead of the family A client against raw fetch.
 *
 * Method: a node:http server in a child process answers GET /v1/merchant on 127.0.0.1 with
 * the contract's example body over keep-alive connections. Each measurement is a fresh Node
 * process that makes calls one way only, as a real program would: either raw
 * (`fetch(url, {headers})` + `response.json()`) or through the client
 * (`client.GET("/v1/merchant")`: a direct call, as is every call with plain options on a
 * client without middleware: idempotency step, URL and header record, API key and URL guard,
 * retry transport, rate-limit tracking, JSON parsing; see src/client/direct-call.ts). It warms
 * up, then times BLOCKS blocks of BLOCK_SIZE sequential calls and reports its median block
 * time per call. The script runs RUNS raw processes and RUNS client processes alternately
 * (raw, client, client, raw, ...) so drift in the machine's load hits both sides alike; the
 * ratio is median(client) / median(raw): one run, one ratio, printed with the spread of the
 * processes and their CPU time per call. With two or more CPUs the server is pinned to CPU 1
 * and the measuring processes to CPU 0 (taskset, see `pinned`).
 *
 * Then the same measurement with fetch replaced by a stub that answers at once
 * (STUB_RUNS processes per side): what each side costs besides fetch and the network, i.e. the
 * client's own work per call, a figure that does not move with the machine's load the way
 * loopback calls do. It is printed in µs and as a share of a raw loopback call.
 *
 * Why processes and not calls interleaved in one process: on a 2-core virtual machine,
 * interleaving two call paths in one process moves each side's after-effects (garbage
 * collection of its allocations, stream finalisation, inline caches shared inside fetch) into
 * the other's measurement; even two identical raw functions interleaved call by call came out
 * up to 10% apart there. A benchmark, not a test: it prints, never fails.
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { ROOT } from "@payment-collection/contract/build/contract-build.ts";
import { createChargesClient } from "../src/index.ts";
import { openapiPath } from "@payment-collection/contract/model/layout.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 8);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 10);
const BLOCK_SIZE = Number(process.env.BENCH_BLOCK_SIZE ?? 500);
const WARMUP = 2_000;
const API_KEY = "sk_live_bench_0001";
/** Processes per side for the client's own cost (stub fetch; steady, so few are needed). */
const STUB_RUNS = Number(process.env.BENCH_STUB_RUNS ?? 3);
const RATE_LIMIT_HEADERS = { "x-ratelimit-limit": "100", "x-ratelimit-remaining": "99", "x-ratelimit-reset": "1800000000" };

interface Measurement {
  side: "raw" | "client";
  /** Median over the process's blocks, microseconds of wall time per call. */
  wallUs: number;
  /** CPU time of the process per call over all blocks (user + system, all threads). */
  cpuUs: number;
}

/**
 * A fetch that answers at once with the server's response, without a network: with it, a
 * process measures what each side costs besides fetch itself (the client's own work).
 */
function stubFetch(body: string): typeof fetch {
  const headers = { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), ...RATE_LIMIT_HEADERS };
  return (async () => new Response(body, { headers })) as unknown as typeof fetch;
}

/**
 * Child mode: `bench-client.ts measure <raw|client> <baseUrl|stub> [body]` prints one
 * Measurement as JSON; with `stub`, calls go to stubFetch instead of the server.
 */
async function measure(side: Measurement["side"], target: string, stubBody?: string): Promise<void> {
  const fetchImpl = target === "stub" ? stubFetch(stubBody!) : fetch;
  const baseUrl = target === "stub" ? "http://127.0.0.1:9" : target;
  const client = createChargesClient({ baseUrl, apiKey: API_KEY, fetch: target === "stub" ? fetchImpl : undefined });
  const url = `${baseUrl}/v1/merchant`;
  const call =
    side === "raw"
      ? async () => (await fetchImpl(url, { headers: { "x-api-key": API_KEY } })).json()
      : async () => {
          const result = await client.GET("/v1/merchant");
          if (result.data === undefined) throw new Error("no data");
          return result.data;
        };
  // Stubbed calls take microseconds: ten times as many, for blocks long enough to time.
  const scale = target === "stub" ? 10 : 1;
  for (let i = 0; i < WARMUP * scale; i += 1) await call();
  const blocks: number[] = [];
  const cpuStart = process.cpuUsage();
  for (let block = 0; block < BLOCKS; block += 1) {
    const started = performance.now();
    for (let i = 0; i < BLOCK_SIZE * scale; i += 1) await call();
    blocks.push(((performance.now() - started) * 1000) / (BLOCK_SIZE * scale));
  }
  const cpu = process.cpuUsage(cpuStart);
  const result: Measurement = { side, wallUs: median(blocks), cpuUs: (cpu.user + cpu.system) / (BLOCKS * BLOCK_SIZE * scale) };
  console.log(JSON.stringify(result));
}

/**
 * The command that runs `args` pinned to one CPU with taskset (util-linux), when there is a
 * second CPU and taskset is installed. Unpinned, the scheduler puts the caller and the server
 * on one core for some processes and on two for others, and per-call times differ by a third
 * between the two placements; pinned, every process sees the same placement.
 */
function pinned(cpu: number, args: string[]): [string, string[]] {
  const canPin = cpus().length >= 2 && spawnSync("taskset", ["-c", "0", "true"]).status === 0;
  return canPin ? ["taskset", ["-c", String(cpu), process.execPath, ...args]] : [process.execPath, args];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function main(): Promise<void> {
  const document = JSON.parse(readFileSync(join(ROOT, "generated", openapiPath("3.1", "family-a", "dereferenced.json")), "utf8"));
  const merchant = document.paths["/v1/merchant"].get.responses["200"].content["application/json"].example;
  const serverSource = `
    const { createServer } = require("node:http");
    const body = ${JSON.stringify(JSON.stringify(merchant))};
    const server = createServer((request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body),
        ...${JSON.stringify(RATE_LIMIT_HEADERS)} });
      response.end(body);
    });
    server.keepAliveTimeout = 60000;
    server.listen(0, "127.0.0.1", () => console.log(server.address().port));
  `;
  const server = spawn(...pinned(1, ["-e", serverSource]), { stdio: ["ignore", "pipe", "inherit"] });
  const port = Number(await new Promise<string>((resolve) => createInterface({ input: server.stdout! }).once("line", resolve)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const self = fileURLToPath(import.meta.url);

  const runSides = (runs: number, args: string[]): Measurement[] => {
    const measured: Measurement[] = [];
    for (let run = 0; run < runs; run += 1) {
      const order: Array<Measurement["side"]> = run % 2 === 0 ? ["raw", "client"] : ["client", "raw"];
      for (const side of order) {
        const child = spawnSync(...pinned(0, ["--import", "tsx", self, "measure", side, ...args]), { cwd: ROOT, encoding: "utf8" });
        if (child.status !== 0) throw new Error(`measurement process failed: ${child.stderr}`);
        measured.push(JSON.parse(child.stdout.trim().split("\n").pop()!) as Measurement);
      }
    }
    return measured;
  };
  let results: Measurement[];
  try {
    results = runSides(RUNS, [baseUrl]);
  } finally {
    server.kill();
  }
  const stubbed = runSides(STUB_RUNS, ["stub", JSON.stringify(merchant)]);

  const of = (side: Measurement["side"], key: "wallUs" | "cpuUs") => results.filter((r) => r.side === side).map((r) => r[key]);
  const rawWall = median(of("raw", "wallUs"));
  const clientWall = median(of("client", "wallUs"));
  const ratio = clientWall / rawWall;
  const range = (values: number[]) => `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;
  console.log("Client overhead versus raw fetch (loopback node:http server in a child process)");
  console.log(`  method: ${RUNS} processes per side, alternating; each warms up (${WARMUP} calls), then times ${BLOCKS} blocks`);
  console.log(`          of ${BLOCK_SIZE} sequential calls and reports its median µs/call; ratio = median(client) / median(raw)`);
  console.log(`  raw fetch + json():      ${rawWall.toFixed(1)} µs/call (processes: ${range(of("raw", "wallUs"))})`);
  console.log(`  client.GET:              ${clientWall.toFixed(1)} µs/call (processes: ${range(of("client", "wallUs"))})`);
  console.log(`  ratio client/raw:        ${ratio.toFixed(3)}x target <= 1.05x: ${ratio <= 1.05 ? "OK" : "ABOVE TARGET"}`);
  console.log(
    `  CPU time per call:       raw ${median(of("raw", "cpuUs")).toFixed(1)} µs, client ${median(of("client", "cpuUs")).toFixed(1)} µs ` +
      `(ratio ${(median(of("client", "cpuUs")) / median(of("raw", "cpuUs"))).toFixed(3)}x; whole process, all threads)`,
  );
  const ownRaw = median(stubbed.filter((r) => r.side === "raw").map((r) => r.wallUs));
  const ownClient = median(stubbed.filter((r) => r.side === "client").map((r) => r.wallUs));
  console.log(
    `  own cost, fetch stubbed:  raw ${ownRaw.toFixed(2)} µs/call, client ${ownClient.toFixed(2)} µs/call (${STUB_RUNS} processes per side): ` +
      `the client adds ${(ownClient - ownRaw).toFixed(2)} µs, ${((100 * (ownClient - ownRaw)) / rawWall).toFixed(2)}% of a raw loopback call`,
  );
  console.log(`  node ${process.version}; ${pinned(0, [])[0] === "taskset" ? "server on CPU 1, callers on CPU 0 (taskset)" : "not pinned (one CPU or no taskset)"}`);
}

const [mode, side, target, stubBody] = process.argv.slice(2);
if (mode === "measure") await measure(side as Measurement["side"], target!, stubBody);
else await main();
