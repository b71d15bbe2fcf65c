/**
 * `npm run bench:bundle` ends by itself: started with tiny settings (one round, family A), it must
 * exit 0 and leave no process behind (no sandbox). Its figures are not asserted.
 */
import { expect, it } from "vitest";
import { runToExit } from "../../contract/dev/bench/run-to-exit.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const TIMEOUT_MS = 240_000;
const TINY = { BENCH_ROUNDS: "1", BENCH_FAMILIES: "family-a", BENCH_PROFILE: "seed", BENCH_VERIFY_RUNS: "1" };

it("npm run bench:bundle exits 0 by itself, leaving no process", { timeout: TIMEOUT_MS + 30_000 }, async () => {
  const exit = await runToExit("npm", ["run", "--silent", "bench:bundle"], { cwd: ROOT, timeoutMs: TIMEOUT_MS, env: TINY });
  expect(exit.timedOut, `still running after ${TIMEOUT_MS / 1000} s; output:\n${exit.output.slice(-2000)}`).toBe(false);
  expect(exit.leftOver, "processes of the benchmark left running after it exited").toEqual([]);
  expect(exit.code, exit.output.slice(-2000)).toBe(0);
  expect(exit.output).toMatch(/^verify: median .* exit 0/m);
});
