/**
 * `npm run bench:client`: per-call overhead of the family A client against raw fetch.
 *
 * Method: a node:http server in a child process (so its work never shares this process's
 * thread or CPU accounting) answers GET /v1/merchant on 127.0.0.1 with the contract's
 * example body over keep-alive connections. After a warm-up, the script runs BLOCKS blocks of
 * BLOCK_SIZE iterations; each iteration makes one raw call (`fetch(url, {headers})` +
 * `response.json()`) and one client call (`client.GET("/v1/merchant")`: API key and
 * idempotency middleware, retry transport, rate-limit tracking, JSON parsing), alternating
 * which goes first. Interleaving call by call means load from other processes hits both
 * sides alike. The ratio is the median over blocks of (client time / raw time): one run, one
 * ratio. Also printed: mean wall time per call of each side and the CPU-time ratio.
 * A benchmark, not a test: it prints, never fails.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { ROOT } from "./lib/contract-build.ts";
import { createChargesClient } from "../src/client/index.ts";
import { openapiPath } from "../src/contract/layout.ts";

const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 40);
const BLOCK_SIZE = Number(process.env.BENCH_BLOCK_SIZE ?? 250);
const WARMUP = 1_000;
const API_KEY = "sk_live_bench_0001";

const document = JSON.parse(readFileSync(join(ROOT, "generated", openapiPath("3.1", "family-a", "dereferenced.json")), "utf8"));
const merchant = document.paths["/v1/merchant"].get.responses["200"].content["application/json"].example;

const serverSource = `
  const { createServer } = require("node:http");
  const body = ${JSON.stringify(JSON.stringify(merchant))};
  const server = createServer((request, response) => {
    response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body),
      "x-ratelimit-limit": "100", "x-ratelimit-remaining": "99", "x-ratelimit-reset": "1800000000" });
    response.end(body);
  });
  server.keepAliveTimeout = 60000;
  server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;
const server = spawn(process.execPath, ["-e", serverSource], { stdio: ["ignore", "pipe", "inherit"] });
const port = Number(await new Promise<string>((resolve) => createInterface({ input: server.stdout! }).once("line", resolve)));
const baseUrl = `http://127.0.0.1:${port}`;

const client = createChargesClient({ baseUrl, apiKey: API_KEY });
const sides = [
  async function raw() {
    const response = await fetch(`${baseUrl}/v1/merchant`, { headers: { "x-api-key": API_KEY } });
    return response.json();
  },
  async function viaClient() {
    const result = await client.GET("/v1/merchant");
    if (result.data === undefined) throw new Error("no data");
    return result.data;
  },
];

for (let i = 0; i < WARMUP; i += 1) for (const side of sides) await side();

// Per block: total time of each side over BLOCK_SIZE interleaved pairs, and their ratio.
// The median block ratio resists the spikes (GC, preemption by other processes) that would
// skew one overall sum.
const blockRatios: number[] = [];
const wall = [0, 0];
const cpu = [0, 0];
for (let block = 0; block < BLOCKS; block += 1) {
  const blockWall = [0, 0];
  for (let i = 0; i < BLOCK_SIZE; i += 1) {
    for (let k = 0; k < 2; k += 1) {
      const index = (i + k) % 2; // alternate which side goes first
      const cpuStart = process.cpuUsage();
      const started = performance.now();
      await sides[index]!();
      blockWall[index]! += performance.now() - started;
      const used = process.cpuUsage(cpuStart);
      cpu[index]! += used.user + used.system;
    }
  }
  wall[0]! += blockWall[0]!;
  wall[1]! += blockWall[1]!;
  blockRatios.push(blockWall[1]! / blockWall[0]!);
}
server.kill();

const sorted = [...blockRatios].sort((a, b) => a - b);
const quantile = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const ratio = quantile(0.5);
const calls = BLOCKS * BLOCK_SIZE;
const perCall = (total: number) => ((total / calls) * 1000).toFixed(1);
console.log("Client overhead versus raw fetch (loopback node:http server in a child process)");
console.log(`  method: ${BLOCKS} blocks of ${BLOCK_SIZE} iterations after ${WARMUP} warm-up; each iteration makes one raw call`);
console.log(`          and one client call in alternating order; ratio = median over blocks of (client time / raw time)`);
console.log(`  raw fetch + json():      ${perCall(wall[0]!)} µs/call (mean wall)`);
console.log(`  client.GET:              ${perCall(wall[1]!)} µs/call (mean wall)`);
console.log(`  ratio client/raw:        ${ratio.toFixed(3)}x (blocks: p25 ${quantile(0.25).toFixed(3)}, p75 ${quantile(0.75).toFixed(3)}) target <= 1.05x: ${ratio <= 1.05 ? "OK" : "ABOVE TARGET"}`);
console.log(`  ratio of CPU time:       ${(cpu[1]! / cpu[0]!).toFixed(3)}x (this process only; the server runs elsewhere)`);
console.log(`  node ${process.version}`);
