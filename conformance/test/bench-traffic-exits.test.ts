/**
 * `npm run bench:traffic` ends by itself: started with tiny settings, it must exit 0 and leave
 * no process behind (no sandbox, no proxy, no Prism). Its figures are not asserted.
 */
import { expect, it } from "vitest";
import { runToExit } from "../../contract/dev/bench/run-to-exit.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const TIMEOUT_MS = 180_000;
const TINY = { BENCH_DURATION: "0.2", BENCH_ROUNDS: "1", BENCH_CONNECTIONS: "2", BENCH_EXCHANGES: "500", BENCH_WARMUP_EXCHANGES: "100", BENCH_HAR_MB: "1" };

it("npm run bench:traffic exits 0 by itself, leaving no process", { timeout: TIMEOUT_MS + 30_000 }, async () => {
  const exit = await runToExit("npm", ["run", "--silent", "bench:traffic"], { cwd: ROOT, timeoutMs: TIMEOUT_MS, env: TINY });
  expect(exit.timedOut, `still running after ${TIMEOUT_MS / 1000} s; output:\n${exit.output.slice(-2000)}`).toBe(false);
  expect(exit.leftOver, "processes of the benchmark left running after it exited").toEqual([]);
  expect(exit.code, exit.output.slice(-2000)).toBe(0);
});
