/**
 * `npm run bench -w @payment-collection/client` (or `npm run bench:client` at the root): the
 * client's own CPU time per call, with fetch stubbed, per operation kind.
 *
 * The client's budget is its own work per call: what a call costs besides fetch and the
 * network. To measure it, fetch is replaced by a stub that answers at once with the
 * contract's example body of the operation (a fresh `Response` per call), so nothing but
 * JavaScript runs and the figure does not move with the network or a server's load.
 *
 * For each operation kind (a GET without parameters, with a path parameter, with query
 * parameters, a keyed POST with a JSON body in each family, an error response, a call through
 * a caller middleware), each measurement is a fresh Node process that makes calls one way
 * only, as a program would:
 * - raw: what hand-written code does for the same call with the stub (build the URL, set the
 *   API key header, and for a keyed POST a `crypto.randomUUID()` idempotency key and a
 *   `JSON.stringify` body; then `response.json()`);
 * - client: the same call through the client (`client.GET(...)`, `client.POST(...)`), i.e.
 *   idempotency step, openapi-fetch (URL, headers, body, middleware, result), API key and URL
 *   guard, retry transport, rate-limit record, JSON parsing.
 * After a warm-up it times BLOCKS blocks of BLOCK_SIZE sequential calls and records the CPU
 * time of the process per call (user + system, all threads; `process.cpuUsage`) and the
 * median wall time per call of its blocks. RUNS processes per side per kind run alternately
 * (raw, client, client, raw, ...); the figures are medians over them. The client's own CPU
 * per call is median(client) - median(raw): what the client adds to the hand-written call.
 *
 * A benchmark, not a test: it prints, never fails.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Middleware } from "openapi-fetch";
import { createFamilyAClient, createFamilyBClient, type FamilyAClient, type FamilyBClient } from "../src/index.ts";
import { operationExamples, responseExample as contractResponseExample } from "../test/support/contract-examples.ts";
import { commandLine } from "@payment-collection/contract/build/command-line.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 10);
const BLOCK_SIZE = Number(process.env.BENCH_BLOCK_SIZE ?? 2_000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5_000);
const API_KEY = "sk_live_bench_0001";
const BASE_URL = "http://127.0.0.1:9";
const RATE_LIMIT_HEADERS = { "x-ratelimit-limit": "100", "x-ratelimit-remaining": "99", "x-ratelimit-reset": "1800000000" };

type Family = "family-a" | "family-b";

/** One operation kind: the call each side makes, and the response the stub gives. */
interface Kind {
  id: string;
  label: string;
  family: Family;
  operationId: string;
  /** Status the stub answers with (its example body from the contract). */
  status: number;
  /** Registers a middleware that does nothing on the client. */
  middleware?: boolean;
}

const KINDS: readonly Kind[] = [
  { id: "a-get", label: "A GET, no parameters (GET /v1/merchant)", family: "family-a", operationId: "getMerchant", status: 200 },
  { id: "a-get-path", label: "A GET, path parameter (GET /v1/charges/{id})", family: "family-a", operationId: "getCharge", status: 200 },
  { id: "a-post-keyed", label: "A POST, JSON body + idempotency key (POST /v1/charges)", family: "family-a", operationId: "createCharge", status: 201 },
  { id: "a-error", label: "A GET, 404 problem body (GET /v1/charges/{id})", family: "family-a", operationId: "getCharge", status: 404 },
  { id: "b-get-query", label: "B GET, query parameters (GET /transactions)", family: "family-b", operationId: "listTransactions", status: 200 },
  { id: "b-post-keyed", label: "B POST, JSON body + idempotency key (POST /pix)", family: "family-b", operationId: "createPixCharge", status: 201 },
  { id: "a-get-middleware", label: "A GET, one caller middleware (GET /v1/merchant)", family: "family-a", operationId: "getMerchant", status: 200, middleware: true },
];

interface Measurement {
  kind: string;
  side: "raw" | "client";
  /** CPU time of the process per call over all blocks (user + system, all threads), µs. */
  cpuUs: number;
  /** Median over the process's blocks of wall time per call, µs. */
  wallUs: number;
}

/** The contract's example response body of an operation for a status (a problem body built from the status when it has none). */
function responseExample(family: Family, operationId: string, status: number): unknown {
  return contractResponseExample(family, operationId, status) ?? { type: "about:blank", title: "Not Found", status, code: "NOT_FOUND", detail: "No charge with this id." };
}

/** A fetch that answers at once, without a network, with a fresh Response of `body`. */
function stubFetch(body: string, status: number, contentType: string): typeof fetch {
  const headers = { "content-type": contentType, "content-length": String(Buffer.byteLength(body)), ...RATE_LIMIT_HEADERS };
  return (async () => new Response(body, { status, headers })) as unknown as typeof fetch;
}

const passThrough: Middleware = {
  onRequest() {
    return undefined;
  },
};

/** The call of one side for one kind. */
function callOf(kind: Kind, side: Measurement["side"]): () => Promise<unknown> {
  const example = operationExamples(kind.family).find((operation) => operation.operationId === kind.operationId)!;
  const body = JSON.stringify(responseExample(kind.family, kind.operationId, kind.status));
  const fetchImpl = stubFetch(body, kind.status, kind.status >= 400 ? "application/problem+json" : "application/json");
  const keyHeader = kind.family === "family-a" ? "x-api-key" : "X-API-Key";
  const idempotencyHeader = kind.family === "family-a" ? "Idempotency-Key" : "X-Idempotency-Key";
  const keyed = example.method === "POST";
  const { path: pathParams, query } = example.params;
  const init = { params: { path: pathParams, query }, ...(example.body === undefined ? {} : { body: example.body }) };

  if (side === "raw") {
    return async () => {
      // Hand-written: the URL, the key header, a key and a JSON body for a keyed POST.
      let url = BASE_URL + example.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathParams[name]!));
      const search = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)])).toString();
      if (search) url += `?${search}`;
      const headers: Record<string, string> = { [keyHeader]: API_KEY };
      const requestInit: RequestInit = { method: example.method, headers };
      if (keyed) {
        headers[idempotencyHeader] = crypto.randomUUID();
        headers["content-type"] = "application/json";
        requestInit.body = JSON.stringify(example.body);
      }
      return (await fetchImpl(url, requestInit)).json();
    };
  }
  const options = { apiKey: API_KEY, fetch: fetchImpl };
  const client = (kind.family === "family-a" ? createFamilyAClient({ baseUrl: BASE_URL, ...options }) : createFamilyBClient({ environment: BASE_URL, ...options })) as
    | FamilyAClient
    | FamilyBClient;
  if (kind.middleware) client.use(passThrough);
  // Untyped here: the kinds are data; the typed calls are covered by the tests.
  const method = (client as unknown as Record<string, (path: string, init: unknown) => Promise<{ data?: unknown; error?: unknown }>>)[example.method]!;
  return async () => {
    const result = await method(example.path, init);
    const value = kind.status >= 400 ? result.error : result.data;
    if (value === undefined) throw new Error(`${kind.id}: no ${kind.status >= 400 ? "error" : "data"}`);
    return value;
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Child mode: `bench-client.ts measure <kind> <raw|client>` prints one Measurement as JSON. */
async function measure(kindId: string, side: Measurement["side"]): Promise<void> {
  const kind = KINDS.find((candidate) => candidate.id === kindId)!;
  const call = callOf(kind, side);
  for (let i = 0; i < WARMUP; i += 1) await call();
  const blocks: number[] = [];
  const cpuStart = process.cpuUsage();
  for (let block = 0; block < BLOCKS; block += 1) {
    const started = performance.now();
    for (let i = 0; i < BLOCK_SIZE; i += 1) await call();
    blocks.push(((performance.now() - started) * 1000) / BLOCK_SIZE);
  }
  const cpu = process.cpuUsage(cpuStart);
  const result: Measurement = { kind: kind.id, side, cpuUs: (cpu.user + cpu.system) / (BLOCKS * BLOCK_SIZE), wallUs: median(blocks) };
  console.log(JSON.stringify(result));
}

async function main(): Promise<void> {
  const self = fileURLToPath(import.meta.url);
  const measured: Measurement[] = [];
  for (const kind of KINDS) {
    for (let run = 0; run < RUNS; run += 1) {
      const order: Array<Measurement["side"]> = run % 2 === 0 ? ["raw", "client"] : ["client", "raw"];
      for (const side of order) {
        const child = spawnSync(process.execPath, ["--import", "tsx", self, "measure", kind.id, side], { encoding: "utf8" });
        if (child.status !== 0) throw new Error(`measurement process failed (${kind.id}, ${side}): ${child.stderr}`);
        measured.push(JSON.parse(child.stdout.trim().split("\n").pop()!) as Measurement);
      }
    }
  }

  const of = (kind: Kind, side: Measurement["side"], key: "cpuUs" | "wallUs") => measured.filter((m) => m.kind === kind.id && m.side === side).map((m) => m[key]);
  const range = (values: number[]) => `${Math.min(...values).toFixed(1)}-${Math.max(...values).toFixed(1)}`;
  const width = Math.max(...KINDS.map((kind) => kind.label.length));
  console.log("Client's own CPU time per call, fetch stubbed (a fresh Response of the contract's example per call)");
  console.log(`  method: per kind, ${RUNS} processes per side, alternating; each warms up (${WARMUP} calls), then makes ${BLOCKS} blocks`);
  console.log(`          of ${BLOCK_SIZE} sequential calls; CPU = process user + system time per call (all threads); medians over processes`);
  const row = (cells: string[]) => `  ${cells[0]!.padEnd(width)}${cells.slice(1).map((cell) => cell.padStart(15)).join("")}`;
  console.log(row(["operation kind", "raw CPU µs", "client CPU µs", "client's own", "client spread", "wall raw µs", "wall client µs"]));
  for (const kind of KINDS) {
    const raw = median(of(kind, "raw", "cpuUs"));
    const client = median(of(kind, "client", "cpuUs"));
    console.log(
      row([
        kind.label,
        raw.toFixed(1),
        client.toFixed(1),
        (client - raw).toFixed(1),
        range(of(kind, "client", "cpuUs")),
        median(of(kind, "raw", "wallUs")).toFixed(1),
        median(of(kind, "client", "wallUs")).toFixed(1),
      ]),
    );
  }
  console.log("  client's own = median(client CPU) - median(raw CPU): what the client adds to the hand-written call");
  console.log(`  node ${process.version}`);
}

// `measure KIND SIDE` is how the benchmark runs itself in a fresh process; anything else is the command line.
const [mode, kindId, side] = process.argv.slice(2);
if (mode === "measure") await measure(kindId!, side as Measurement["side"]);
else {
  commandLine("usage: npm run bench:client\n\nThe client's own CPU per call, fetch stubbed, per operation kind (see the header of client/bench/bench-client.ts). Prints figures, never fails.", {});
  await main();
}
