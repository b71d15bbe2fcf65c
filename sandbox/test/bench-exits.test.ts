/**
 * The sandbox's benchmark scripts end by themselves: each is started as a user starts it, with
 * settings small enough for a test, and must exit 0 and leave no process behind (a sandbox,
 * a Prism mock, a bare server). Only that is asserted: the figures are not.
 */
import { describe, expect, it } from "vitest";
import { runToExit } from "../../contract/dev/bench/run-to-exit.ts";
import { PG_URL } from "./postgres/support.ts";

const SANDBOX_DIR = new URL("..", import.meta.url).pathname;
/** The smallest load that still walks every step of the common benchmarks (common.ts). */
const TINY = { BENCH_REQUESTS: "200", BENCH_ROUNDS: "1", BENCH_WARMUP: "0", BENCH_CONNECTIONS: "2", BENCH_STORED: "2000" };
const TIMEOUT_MS = 240_000;

async function expectCleanExit(command: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  const exit = await runToExit(command, args, { cwd: SANDBOX_DIR, env: { ...TINY, ...env }, timeoutMs: TIMEOUT_MS });
  expect(exit.timedOut, `still running after ${TIMEOUT_MS / 1000} s; output:\n${exit.output.slice(-2000)}`).toBe(false);
  expect(exit.leftOver, "processes of the benchmark left running after it exited").toEqual([]);
  expect(exit.code, exit.output.slice(-2000)).toBe(0);
}

// Side by side: each mostly waits on its servers and timers.
describe.concurrent("benchmark scripts exit by themselves, leaving no process", () => {
  it("npm run bench (sandbox, Prism, bare servers, large store)", { timeout: TIMEOUT_MS + 30_000 }, async () => {
    await expectCleanExit("npm", ["run", "--silent", "bench"]);
  });

  it("soak-hostile.ts", { timeout: TIMEOUT_MS + 30_000 }, async () => {
    await expectCleanExit(process.execPath, ["--import", "tsx", "bench/soak-hostile.ts", "--seconds", "2"]);
  });

  it("npm run bench:drivers (the SQLite drivers that load in this Node)", { timeout: TIMEOUT_MS + 30_000 }, async () => {
    await expectCleanExit("npm", ["run", "--silent", "bench:drivers"], { BENCH_OPS: "200" });
  });

  it.skipIf(!PG_URL)("npm run bench:stores (needs PostgreSQL: SANDBOX_TEST_POSTGRES_URL)", { timeout: TIMEOUT_MS + 30_000 }, async () => {
    await expectCleanExit("npm", ["run", "--silent", "bench:stores"]);
  });
});
