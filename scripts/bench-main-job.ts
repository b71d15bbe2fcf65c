/**
 * `npm run bench:main-job`: how long the main job and its conformance runs take, in one run:
 *
 *   1. `npm start` as a user runs it: wall time, CPU time (every process it started), and the
 *      pass/fail/not-applicable counts of each profile's report;
 *   2. a seed run of both families against a sandbox on the published plan (limits per
 *      minute): the pacing case, with the time waited and the least time the published limits
 *      allow for the requests it sent (the floor: one window per limit's worth of requests on
 *      the busiest account);
 *   3. the same run against a sandbox without limits (plan generous).
 *
 *   npm run bench:main-job [-- --only start,pacing,unlimited]
 *
 * A benchmark, not a test: it prints figures and exits 0 whatever they are (1 only when a
 * step could not run at all). On a machine shared with other work the wall times grow; the CPU
 * times say how much of it was this job's.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunReport } from "@payment-collection/conformance/core/results.ts";
import { pacingSummary, totals } from "@payment-collection/conformance/runner/report.ts";
import { commandLine } from "@payment-collection/contract/build/command-line.ts";
import { ROOT } from "@payment-collection/contract/build/contract-build.ts";

const STEPS = ["start", "pacing", "unlimited"] as const;
type Step = (typeof STEPS)[number];

const { values } = commandLine(
  "usage: npm run bench:main-job [-- --only start,pacing,unlimited]\n\nWall and CPU time of npm start; a seed run of both families against the sandbox on the published plan (time waited, and the floor the limits allow); the same without limits. Prints figures, never fails on a number.",
  { only: { type: "string" } },
);
const only = (values.only as string | undefined)?.split(",").map((s) => s.trim()) ?? [...STEPS];
const unknown = only.filter((s) => !STEPS.includes(s as Step));
if (unknown.length > 0) {
  console.error(`--only: unknown step ${unknown.join(", ")} (known: ${STEPS.join(", ")})`);
  process.exit(2);
}

/** CPU time (user + system) of the children this process has waited for, in seconds (Linux /proc). */
function childrenCpuSeconds(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

interface Timed {
  code: number | null;
  wallSeconds: number;
  cpuSeconds: number;
  output: string;
}

/** Runs a command to its end; wall time, and the CPU time of it and everything it started. */
function timed(command: string, args: string[]): Promise<Timed> {
  const cpuBefore = childrenCpuSeconds();
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    child.once("close", (code) => resolve({ code, wallSeconds: (performance.now() - started) / 1000, cpuSeconds: childrenCpuSeconds() - cpuBefore, output }));
  });
}

const s = (seconds: number) => `${seconds.toFixed(1)} s`;
const counts = (report: RunReport) => {
  const count = totals(report);
  return `${count.pass} pass / ${count.fail} fail / ${count["not-applicable"]} n/a`;
};

/** A seed run of both families against a fresh sandbox on `plan`; its report. */
async function seedRun(plan: "default" | "generous"): Promise<{ run: Timed; report?: RunReport }> {
  const dir = mkdtempSync(join(tmpdir(), "bench-main-job-"));
  const json = join(dir, "report.json");
  try {
    const run = await timed(process.execPath, ["--import", "tsx", join(ROOT, "scripts/run-against-sandbox.ts"), "--plan", plan, "--profile", "seed", "--json", json]);
    let report: RunReport | undefined;
    try {
      report = JSON.parse(readFileSync(json, "utf8")) as RunReport;
    } catch {
      console.log(`  no report (exit ${run.code}):\n${run.output.slice(-1500)}`);
    }
    return { run, report };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const pacingLine = (report: RunReport) => (report.pacing ? pacingSummary(report.pacing) : "");

let failed = false;
console.log(`machine: ${(await import("node:os")).cpus().length} CPUs, Node ${process.version}; wall times grow when the machine is shared, CPU times do not\n`);

if (only.includes("start")) {
  const run = await timed("npm", ["start", "--silent"]);
  console.log(`npm start: ${s(run.wallSeconds)} wall, ${s(run.cpuSeconds)} CPU (all its processes), exit ${run.code} (target: <= 60 s on 2 cores)`);
  for (const profile of ["seed", "full"]) {
    try {
      const report = JSON.parse(readFileSync(join(ROOT, "reports", `conformance-${profile}.json`), "utf8")) as RunReport;
      console.log(`  ${profile}: ${counts(report)}; ${pacingLine(report)}`);
    } catch {
      console.log(`  ${profile}: no report`);
      failed = true;
    }
  }
}

if (only.includes("pacing")) {
  const { run, report } = await seedRun("default");
  console.log(`seed run, both families, published plan (limits per minute): ${s(run.wallSeconds)} wall, ${s(run.cpuSeconds)} CPU, exit ${run.code}`);
  if (report) console.log(`  ${counts(report)}; ${pacingLine(report)} (target: <= 20 s, or the floor)`);
  else failed = true;
}

if (only.includes("unlimited")) {
  const { run, report } = await seedRun("generous");
  console.log(`seed run, both families, no limits (plan generous): ${s(run.wallSeconds)} wall, ${s(run.cpuSeconds)} CPU, exit ${run.code}`);
  if (report) console.log(`  ${counts(report)}`);
  else failed = true;
}

process.exitCode = failed ? 1 : 0;
