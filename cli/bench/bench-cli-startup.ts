/**
 * `npm run bench -w @payment-collection/cli` (or `npm run bench:cli` at the root): how fast the
 * installed CLI answers, and how much an install of it weighs.
 *
 * Packs every workspace (prepack compiles each into dist/) and installs the tarballs offline
 * into empty projects, as the install test does (test/install/pack-and-install.ts):
 * - the CLI alone (its optional peers Dredd and Prism left out): `conformance --no-dredd`;
 * - the CLI with Dredd, its optional peer dependency, as a team installs it to run the suites;
 * - the CLI with Prism, its other optional peer dependency, for a team that also runs `mock`;
 * - the conformance package alone, and with Dredd;
 * - the client alone.
 * Prints the size of each node_modules (`du -sk`), then the wall time of `payment-collection
 * --help`, `--version` and `conformance --help` in the CLI-only project: one run unmeasured
 * (it fills the file cache), then RUNS measured runs (BENCH_RUNS, default 5), median, fastest,
 * slowest. Each run is a fresh `node` process on the installed bin, as a shell starts it.
 *
 * A benchmark, not a test: it prints, never fails on a figure. Figures move with the machine's
 * load; on a shared machine, run it alone.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { installOffline, NPM_ENV, packWorkspaces } from "../test/install/pack-and-install.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const COMMANDS = [["--help"], ["--version"], ["conformance", "--help"]];
const PROJECTS: Array<{ label: string; direct: string[] }> = [
  { label: "cli", direct: ["@payment-collection/cli"] },
  { label: "cli + Dredd", direct: ["@payment-collection/cli", "dredd"] },
  { label: "cli + Prism (mock)", direct: ["@payment-collection/cli", "@stoplight/prism-cli"] },
  { label: "conformance", direct: ["@payment-collection/conformance"] },
  { label: "conformance + Dredd", direct: ["@payment-collection/conformance", "dredd"] },
  { label: "client", direct: ["@payment-collection/client"] },
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Seconds one run of the installed bin takes; throws when the command does not exit 0. */
function timeRun(project: string, args: string[]): number {
  const bin = join(project, "node_modules/.bin/payment-collection");
  const began = performance.now();
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: project, env: NPM_ENV, encoding: "utf8", timeout: 60_000 });
  const seconds = (performance.now() - began) / 1000;
  if (result.status !== 0) throw new Error(`payment-collection ${args.join(" ")} exited with ${result.status ?? result.signal}: ${result.stderr.split("\n")[0]}`);
  return seconds;
}

const scratch = mkdtempSync(join(tmpdir(), "bench-cli-"));
try {
  console.error("packing every workspace (each prepack compiles its package)...");
  const packed = await packWorkspaces(REPO_ROOT, scratch);
  const projects: Record<string, string> = {};
  console.log("node_modules of an offline install (du -sk):");
  for (const { label, direct } of PROJECTS) {
    const project = join(scratch, label.replace(/\W+/g, "-"));
    const seconds = await installOffline({ repoRoot: REPO_ROOT, scratch, project, packed, direct });
    const kib = Number(execFileSync("du", ["-sk", join(project, "node_modules")], { encoding: "utf8" }).split("\t")[0]);
    const count = execFileSync("npm", ["ls", "--all", "--parseable"], { cwd: project, env: NPM_ENV, encoding: "utf8" }).trim().split("\n").length - 1;
    console.log(`  ${label.padEnd(20)} ${(kib / 1024).toFixed(1).padStart(7)} MiB, ${count} packages (install ${seconds.toFixed(1)} s)`);
    projects[label] = project;
  }
  console.log(`\ninstalled CLI, wall time of ${RUNS} runs after one unmeasured run:`);
  for (const args of COMMANDS) {
    timeRun(projects.cli!, args);
    const times = Array.from({ length: RUNS }, () => timeRun(projects.cli!, args));
    const label = `payment-collection ${args.join(" ")}`;
    console.log(`  ${label.padEnd(36)} median ${median(times).toFixed(3)} s (fastest ${Math.min(...times).toFixed(3)}, slowest ${Math.max(...times).toFixed(3)})`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
