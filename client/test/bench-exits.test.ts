/**
 * `npm run bench` of the client ends by itself: with tiny settings (one process per side and
 * kind, one short block) it must exit 0 and leave no process behind. Its figures are not
 * asserted.
 */
import { expect, it } from "vitest";
import { runToExit } from "../../contract/dev/bench/run-to-exit.ts";

const CLIENT_DIR = new URL("..", import.meta.url).pathname;
const TIMEOUT_MS = 180_000;

it("npm run bench exits 0 by itself, leaving no process", { timeout: TIMEOUT_MS + 30_000 }, async () => {
  const env = { BENCH_RUNS: "1", BENCH_BLOCKS: "1", BENCH_BLOCK_SIZE: "10", BENCH_WARMUP: "10" };
  const exit = await runToExit("npm", ["run", "--silent", "bench"], { cwd: CLIENT_DIR, env, timeoutMs: TIMEOUT_MS });
  expect(exit.timedOut, `still running after ${TIMEOUT_MS / 1000} s; output:\n${exit.output.slice(-2000)}`).toBe(false);
  expect(exit.leftOver, "processes of the benchmark left running after it exited").toEqual([]);
  expect(exit.code, exit.output.slice(-2000)).toBe(0);
});
