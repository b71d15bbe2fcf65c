/**
 * `npm run bench:main-job` ends by itself: started with its smallest step (a seed run without
 * limits), it must exit 0 and leave no process behind (no sandbox, no Dredd). Its figures are
 * not asserted.
 */
import { expect, it } from "vitest";
import { runToExit } from "../../contract/dev/bench/run-to-exit.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const TIMEOUT_MS = 240_000;

it("npm run bench:main-job exits 0 by itself, leaving no process", { timeout: TIMEOUT_MS + 30_000 }, async () => {
  const exit = await runToExit("npm", ["run", "--silent", "bench:main-job", "--", "--only", "unlimited"], { cwd: ROOT, timeoutMs: TIMEOUT_MS });
  expect(exit.timedOut, `still running after ${TIMEOUT_MS / 1000} s; output:\n${exit.output.slice(-2000)}`).toBe(false);
  expect(exit.leftOver, "processes of the benchmark left running after it exited").toEqual([]);
  expect(exit.code, exit.output.slice(-2000)).toBe(0);
  expect(exit.output).toMatch(/seed run, both families, no limits/);
});
