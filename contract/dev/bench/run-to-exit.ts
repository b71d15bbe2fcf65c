/**
 * Runs a benchmark script the way a user does and waits for it to end by itself: the tests of
 * the benchmarks (each started with tiny settings) use it to check that a benchmark exits 0
 * when done and leaves no process behind, not even one that left its process group.
 *
 * Every process descending from the benchmark is noted while it runs (from /proc, by parent
 * pid); when the benchmark exits, any of them still alive (same pid and start time) is left
 * over. Left-over processes and a benchmark that outlives the timeout are killed, and said.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

export interface BenchmarkExit {
  /** Exit code, or null when ended by a signal (or killed at the timeout). */
  code: number | null;
  /** The benchmark was still running at the timeout (and was killed). */
  timedOut: boolean;
  /** Processes of the benchmark still alive once it had exited: pid and command line. */
  leftOver: string[];
  output: string;
}

interface ProcessInfo {
  ppid: number;
  /** Start time in clock ticks since boot: tells a reused pid apart. */
  start: string;
}

/** A live process's parent and start time; undefined once it is gone (a zombie has ended: only its exit status is left). */
function processInfo(pid: number | string): ProcessInfo | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    if (fields[0] === "Z" || fields[0] === "X") return undefined;
    return { ppid: Number(fields[1]), start: fields[19]! };
  } catch {
    return undefined;
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "?";
  }
}

/** Adds to `seen` every live process whose ancestry reaches `root` (or a process seen before). */
function noteDescendants(root: number, seen: Map<number, string>): void {
  const parents = new Map<number, ProcessInfo>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const info = processInfo(entry);
    if (info) parents.set(Number(entry), info);
  }
  for (const [pid, info] of parents) {
    if (seen.has(pid)) continue;
    for (let at: number | undefined = info.ppid, hops = 0; at !== undefined && at > 1 && hops < 64; hops += 1) {
      if (at === root || seen.has(at)) {
        seen.set(pid, info.start);
        break;
      }
      at = parents.get(at)?.ppid;
    }
  }
}

export function runToExit(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<BenchmarkExit> {
  const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const root = child.pid!;
  const seen = new Map<number, string>();
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const poll = setInterval(() => noteDescendants(root, seen), 100);
  let timedOut = false;
  const killAll = () => {
    for (const pid of [root, ...seen.keys()]) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    noteDescendants(root, seen);
    killAll();
  }, options.timeoutMs);
  return new Promise((resolve) => {
    child.once("exit", async (code) => {
      // Its output may still be in the pipes; a left-over process holding them keeps them open.
      await new Promise((done) => {
        child.once("close", done);
        setTimeout(done, 1000);
      });
      clearInterval(poll);
      clearTimeout(timer);
      const leftOver = [...seen]
        .filter(([pid, start]) => processInfo(pid)?.start === start)
        .map(([pid]) => `${pid} ${commandLine(pid)}`);
      if (leftOver.length > 0) killAll();
      resolve({ code, timedOut, leftOver, output });
    });
  });
}
