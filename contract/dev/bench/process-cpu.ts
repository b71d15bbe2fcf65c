/**
 * CPU time of a benchmark's processes from /proc (Linux): what every benchmark script reports
 * per request, since wall-clock figures swing with the machine's load.
 */
import { readdirSync, readFileSync } from "node:fs";

/** USER_HZ, the unit of /proc/<pid>/stat times: 100 on Linux. */
const CLOCK_TICKS = 100;

/** A process's group and CPU time (user + system, all threads, µs) from /proc, or undefined once it is gone. */
function processStat(pid: number | string): { group: number; cpuMicros: number } | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return { group: Number(fields[2]), cpuMicros: ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS };
  } catch {
    return undefined;
  }
}

/** CPU time (user + system, all threads) a process has used, in microseconds (0 once it is gone). */
export function cpuMicros(pid: number): number {
  return processStat(pid)?.cpuMicros ?? 0;
}

/** CPU time (user + system) of every process in the process group `pgid`, in microseconds. */
export function groupCpuMicros(pgid: number): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = processStat(entry);
    if (stat?.group === pgid) total += stat.cpuMicros;
  }
  return total;
}

