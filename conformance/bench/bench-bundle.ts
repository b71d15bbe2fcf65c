/**
 * Benchmark of the conformance bundle (`conformance --bundle DIR`, `verify DIR`):
 *
 * 1. what writing a bundle adds to a run: after a run that warms the process up (modules,
 *    compiled schemas), BENCH_ROUNDS rounds, each a run of the suites (BENCH_FAMILIES, profile
 *    BENCH_PROFILE, plan BENCH_PLAN) against a fresh sandbox without a bundle and one with, in
 *    turn (the order alternates from round to round); the wall and CPU time of each (the
 *    sandbox runs in this process: its CPU is counted too), and the time of the bundle's writing
 *    itself (target: under 10% of the run);
 * 2. the bundle's size, per file and in all, as written and deflated file by file as a zip
 *    archive stores them (target: under 5 MB zipped; as written, the request bodies padded to
 *    D39's size limit and past it are a megabyte each, whitespace kept as sent);
 * 3. verify's time: `payment-collection verify DIR` as a command, from this checkout's sources
 *    (so with the TypeScript loader's start-up), BENCH_VERIFY_RUNS times (target: under 5 s).
 *
 * Run: `npm run bench:bundle`. The machine's load changes every absolute figure; the figures of
 * one round are what to compare.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateRawSync } from "node:zlib";
import { isFamilyId, type FamilyId } from "@payment-collection/contract/model/index.ts";
import { startTemporarySandbox } from "@payment-collection/sandbox/harness/temporary-sandbox.ts";
import type { PlanName } from "@payment-collection/sandbox/plans.ts";
import { parseTarget } from "../src/core/target.ts";
import { BundleSession } from "../src/bundle/bundle-session.ts";
import { runAndReport } from "../src/runner/run-and-report.ts";

if (process.argv.includes("--help") || process.argv.includes("-h")) {
  console.log(`usage: npm run bench:bundle

Measures what a conformance bundle costs: the run's time without and with --bundle (and the
bundle's writing alone), the bundle's size as written and zipped, and verify's time.
Settings (environment): BENCH_ROUNDS (default 3), BENCH_FAMILIES (default family-a,family-b),
BENCH_PROFILE (default full), BENCH_PLAN (the sandbox's plan, default generous: no waits, so the
shortest run and the largest share),
BENCH_VERIFY_RUNS (default 3). Prints its figures and exits 0.`);
  process.exit(0);
}

const ROOT = new URL("../..", import.meta.url).pathname;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FAMILIES = (process.env.BENCH_FAMILIES ?? "family-a,family-b").split(",").filter(isFamilyId) as FamilyId[];
const PROFILE = process.env.BENCH_PROFILE === "seed" ? "seed" : "full";
const PLAN = (process.env.BENCH_PLAN ?? "generous") as PlanName;
const VERIFY_RUNS = Number(process.env.BENCH_VERIFY_RUNS ?? 3);

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// The time of the bundle's writing alone, from inside the run.
let writingMs = 0;
const finish = BundleSession.prototype.finish;
BundleSession.prototype.finish = async function (this: BundleSession, ...args: Parameters<typeof finish>) {
  const at = performance.now();
  try {
    return await finish.apply(this, args);
  } finally {
    writingMs = performance.now() - at;
  }
};

interface Run {
  wallMs: number;
  cpuMs: number;
  code: number;
}

/** One run of the suites against a fresh sandbox, its report kept off the terminal. */
async function run(bundle?: string): Promise<Run> {
  const sandbox = await startTemporarySandbox({ plan: PLAN });
  const log = console.log;
  console.log = () => {};
  try {
    const target = parseTarget(sandbox.target, `the sandbox at ${sandbox.url}`);
    const cpu = process.cpuUsage();
    const at = performance.now();
    const { code } = await runAndReport(target, {
      families: FAMILIES, profile: PROFILE, statements: false, coverage: false, exhaust: true, exhaustCap: 1000, quiet: true, ...(bundle ? { bundle } : {}),
    });
    const used = process.cpuUsage(cpu);
    return { wallMs: performance.now() - at, cpuMs: (used.user + used.system) / 1000, code };
  } finally {
    console.log = log;
    await sandbox.close();
  }
}

const work = mkdtempSync(join(tmpdir(), "bench-bundle-"));
const bundle = join(work, "bundle");
try {
  console.log(`Bundle benchmark: ${FAMILIES.join(" and ")}, profile ${PROFILE}, plan ${PLAN}, ${ROUNDS} round(s)`);
  await run();
  const added: number[] = [];
  const addedCpu: number[] = [];
  const writing: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? ["plain", "bundle"] : ["bundle", "plain"];
    const runs: Record<string, Run> = {};
    for (const kind of order) runs[kind] = await run(kind === "bundle" ? bundle : undefined);
    const plain = runs.plain!;
    const bundled = runs.bundle!;
    added.push(((bundled.wallMs - plain.wallMs) / plain.wallMs) * 100);
    addedCpu.push(((bundled.cpuMs - plain.cpuMs) / plain.cpuMs) * 100);
    writing.push((writingMs / bundled.wallMs) * 100);
    console.log(
      `round ${round}: without a bundle ${seconds(plain.wallMs)} (CPU ${seconds(plain.cpuMs)}), with ${seconds(bundled.wallMs)} (CPU ${seconds(bundled.cpuMs)}): ` +
        `${added.at(-1)!.toFixed(1)}% more; writing the bundle ${(writingMs / 1000).toFixed(2)} s, ${writing.at(-1)!.toFixed(1)}% of the run (exit codes ${plain.code}, ${bundled.code})`,
    );
  }
  const rounds = (values: number[]) => `median ${median(values).toFixed(1)}% (rounds: ${values.map((p) => `${p.toFixed(1)}%`).join(", ")})`;
  console.log(`added to the run: wall ${rounds(added)}, CPU ${rounds(addedCpu)}; the writing alone: ${rounds(writing)} of the run (target: under 10%)`);

  let raw = 0;
  let zipped = 0;
  const lines: string[] = [];
  for (const name of readdirSync(bundle).sort()) {
    const bytes = readFileSync(join(bundle, name));
    // A zip archive stores each file deflated, with a local header and a central directory entry.
    const stored = deflateRawSync(bytes, { level: 9 }).length + 2 * (46 + name.length);
    raw += bytes.length;
    zipped += stored;
    lines.push(`  ${name}: ${(bytes.length / 1024).toFixed(0)} KiB, zipped ${(stored / 1024).toFixed(0)} KiB`);
  }
  const entries = (JSON.parse(readFileSync(join(bundle, "exchanges.har"), "utf8")) as { log: { entries: unknown[] } }).log.entries.length;
  console.log(`bundle size: ${(raw / 1e6).toFixed(2)} MB as written, ${(zipped / 1e6).toFixed(2)} MB zipped (target: under 5 MB zipped); ${entries} exchanges\n${lines.join("\n")}`);

  const times: number[] = [];
  let verdict = "";
  for (let i = 0; i < VERIFY_RUNS; i++) {
    const at = performance.now();
    const verify = spawnSync(process.execPath, [join(ROOT, "cli/bin/payment-collection.js"), "verify", bundle], { encoding: "utf8" });
    times.push(performance.now() - at);
    verdict = `exit ${verify.status}: ${verify.stdout.trim().split("\n").at(-1) ?? ""}${verify.stderr ? ` ${verify.stderr.trim().split("\n")[0]}` : ""}`;
  }
  console.log(`verify: median ${seconds(median(times))} (runs: ${times.map((t) => seconds(t)).join(", ")}; target: under 5 s), ${verdict}`);
} finally {
  rmSync(work, { recursive: true, force: true });
  rmSync(`${bundle}.signing-key.pem`, { force: true });
}
process.exit(0);
