/**
 * `npm run build:check` (CI): builds the contract into a scratch folder and compares it with
 * the committed generated/ folder byte for byte. Exits non-zero and lists the drifted files
 * when someone edited spec/ without rebuilding, or edited generated/ by hand.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { buildContract, ROOT } from "./contract-build.ts";
import { commandLine } from "./command-line.ts";

export const GENERATED_DIR = join(ROOT, "generated");

export interface ChangedFile {
  file: string;
  /** A short unified-diff style excerpt around the first differing line. */
  hint: string;
}

export interface TreeComparison {
  /** Produced by the build but absent from the committed folder. */
  missing: string[];
  /** In the committed folder but not produced by the build. */
  extra: string[];
  changed: ChangedFile[];
  /** Files present in both and identical. */
  identical: number;
}

/** Every file under `dir`, as sorted paths relative to it (`/` separated). */
export function listFiles(dir: string): string[] {
  const files: string[] = [];
  const visit = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) visit(full);
      else files.push(relative(dir, full).split("\\").join("/"));
    }
  };
  visit(dir);
  return files.sort();
}

/**
 * An excerpt in unified-diff style around the first line where `committed` and `fresh` differ:
 * `-` lines are the committed file, `+` lines the fresh build.
 */
export function firstDifferenceHint(committed: Buffer, fresh: Buffer, context = 2, shown = 4): string {
  const a = committed.toString("utf8").split("\n");
  const b = fresh.toString("utf8").split("\n");
  let first = 0;
  while (first < a.length && first < b.length && a[first] === b[first]) first++;
  if (first === a.length && first === b.length) return "  (same lines; bytes differ, e.g. line endings or encoding)";
  // The differing region ends where the common tail of both files begins.
  let tail = 0;
  while (tail < a.length - first && tail < b.length - first && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const removed = a.slice(first, a.length - tail);
  const added = b.slice(first, b.length - tail);
  const lines = [`  @@ -${first + 1},${removed.length} +${first + 1},${added.length} @@ (committed -, fresh build +)`];
  for (let i = Math.max(0, first - context); i < first; i++) lines.push(`   ${a[i]}`);
  for (const line of removed.slice(0, shown)) lines.push(`  -${line}`);
  if (removed.length > shown) lines.push(`  ... ${removed.length - shown} more removed line(s)`);
  for (const line of added.slice(0, shown)) lines.push(`  +${line}`);
  if (added.length > shown) lines.push(`  ... ${added.length - shown} more added line(s)`);
  return lines.map((line) => (line.length > 160 ? `${line.slice(0, 157)}...` : line)).join("\n");
}

/** Compares a committed folder with a fresh build of it, file by file, byte for byte. */
export function compareTrees(committedDir: string, freshDir: string): TreeComparison {
  const committed = listFiles(committedDir);
  const fresh = listFiles(freshDir);
  const committedSet = new Set(committed);
  const freshSet = new Set(fresh);
  const result: TreeComparison = {
    missing: fresh.filter((file) => !committedSet.has(file)),
    extra: committed.filter((file) => !freshSet.has(file)),
    changed: [],
    identical: 0,
  };
  for (const file of fresh.filter((f) => committedSet.has(f))) {
    const before = readFileSync(join(committedDir, file));
    const after = readFileSync(join(freshDir, file));
    if (before.equals(after)) result.identical += 1;
    else result.changed.push({ file, hint: firstDifferenceHint(before, after) });
  }
  return result;
}

export function hasDrift(comparison: TreeComparison): boolean {
  return comparison.missing.length + comparison.extra.length + comparison.changed.length > 0;
}

/** A readable account of the differences, one file per line (plus hints for changed files). */
export function describeDrift(comparison: TreeComparison, label = "generated"): string {
  const lines: string[] = [];
  for (const file of comparison.missing) lines.push(`missing  ${label}/${file} (the build writes it; it is not committed)`);
  for (const file of comparison.extra) lines.push(`extra    ${label}/${file} (committed; the build no longer writes it)`);
  for (const { file, hint } of comparison.changed) lines.push(`changed  ${label}/${file}`, hint);
  return lines.join("\n");
}

/** Builds into a scratch folder (removed afterwards) and returns the comparison with generated/. */
export async function checkDrift(committedDir = GENERATED_DIR): Promise<TreeComparison> {
  const scratch = mkdtempSync(join(tmpdir(), "contract-drift-"));
  try {
    await buildContract(scratch);
    return compareTrees(committedDir, scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const comparison = await checkDrift();
  if (hasDrift(comparison)) {
    console.error(describeDrift(comparison));
    const count = comparison.missing.length + comparison.extra.length + comparison.changed.length;
    console.error(`build:check: ${count} file(s) of generated/ differ from a fresh build; run \`npm run build\` and commit the result`);
    process.exitCode = 1;
  } else {
    console.log(`build:check: generated/ matches a fresh build (${comparison.identical} files)`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  commandLine(
    "usage: npm run build:check\n\nBuilds the contract into a scratch folder and fails (exit 1) when generated/ differs from it:\na changed, missing or extra file. Exit 2 on a bad option.",
    {},
  );
  await main();
}
