/**
 * CI gate (`npm run contract:gate`): fails when a published family changed incompatibly and
 * the version does not say so.
 *
 * - Published = the families of the last release tag (`git describe --tags --abbrev=0 --match 'v*'`).
 *   No tag: nothing is published yet; the gate says so and passes.
 * - Compared with the tag, and on a pull/merge request also with its target branch
 *   (GITHUB_BASE_REF or CI_MERGE_REQUEST_TARGET_BRANCH_NAME; origin/<branch> when present).
 * - A breaking change is allowed for family A only under a path version (/vN) the tag does not
 *   have (Versioning 1), and for anything when contract/package.json's major version is above
 *   the tag's.
 * Exit codes: 0 pass, 1 a breaking change the version does not allow, 2 cannot run (bad ref).
 */
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { countByVerdict, diffFamilies, judge, pathVersionsOf, type JudgedChange } from "./index.ts";
import { BadInput, gitTopLevel, isGitRef, loadGitRef, loadWorkingTree, type LoadedSide } from "./sources.ts";
import { commandLine } from "../build/command-line.ts";

export interface GateComparison {
  base: string;
  changes: JudgedChange[];
  blocking: JudgedChange[];
}

export interface GateResult {
  tag?: string;
  comparisons: GateComparison[];
  lines: string[];
  exitCode: 0 | 1 | 2;
}

function lastReleaseTag(top: string): string | undefined {
  try {
    return execFileSync("git", ["describe", "--tags", "--abbrev=0", "--match", "v*"], { cwd: top, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

export interface GateOptions {
  env?: NodeJS.ProcessEnv;
  /** The generated/ folder of the head (default: this checkout's). */
  generatedDir?: string;
  /** The contract package.json of the head (default: this checkout's). */
  packageJson?: string;
}

export function runGate(options: GateOptions = {}): GateResult {
  const env = options.env ?? process.env;
  const started = performance.now();
  const lines: string[] = [];
  const top = gitTopLevel(options.generatedDir);
  if (!top) return { comparisons: [], lines: ["contract gate: not in a git work tree; cannot find the published contract"], exitCode: 2 };
  const tag = lastReleaseTag(top);
  if (!tag) {
    return { comparisons: [], lines: ["contract gate: no release tag (v*) yet: no published contract to protect; passing"], exitCode: 0 };
  }
  const head = loadWorkingTree(options.generatedDir, options.packageJson);
  let published: LoadedSide;
  try {
    published = loadGitRef(tag, top, options.generatedDir, options.packageJson);
  } catch (error) {
    if (error instanceof BadInput) return { tag, comparisons: [], lines: [`contract gate: release tag ${tag}: ${error.message}; nothing published to protect; passing`], exitCode: 0 };
    throw error;
  }
  const policy = {
    baseVersion: published.packageVersion,
    headVersion: head.packageVersion,
    publishedPathVersions: pathVersionsOf(published.documents.get("family-a")),
    publishedFamilies: new Set([...published.documents].filter(([, doc]) => doc !== undefined).map(([family]) => family)),
  };
  const bases: Array<{ label: string; side: LoadedSide }> = [{ label: `release ${tag}`, side: published }];
  const target = env.GITHUB_BASE_REF || env.CI_MERGE_REQUEST_TARGET_BRANCH_NAME;
  if (target) {
    const ref = [`origin/${target}`, target].find((candidate) => isGitRef(candidate, top));
    if (!ref) return { tag, comparisons: [], lines: [`contract gate: target branch ${target} is not fetched (neither origin/${target} nor ${target} resolves); fetch it first`], exitCode: 2 };
    bases.push({ label: `target branch ${ref}`, side: loadGitRef(ref, top, options.generatedDir, options.packageJson) });
  }
  const comparisons: GateComparison[] = [];
  for (const { label, side } of bases) {
    const changes = judge(diffFamilies(side.documents, head.documents), policy);
    const blocking = changes.filter((c) => !c.allowed);
    comparisons.push({ base: label, changes, blocking });
    const counts = countByVerdict(changes);
    lines.push(`contract gate vs ${label}: ${counts.breaking} breaking (${blocking.length} not allowed), ${counts.compatible} compatible, ${counts.informational} informational`);
    for (const change of changes.filter((c) => c.verdict === "breaking")) {
      lines.push(`  ${change.allowed ? `allowed (${change.allowance})` : "NOT ALLOWED"}: ${change.family} ${change.operation ?? "(document)"} ${change.rule}: ${change.message}`);
    }
  }
  const failed = comparisons.some((c) => c.blocking.length > 0);
  lines.push(
    failed
      ? `contract gate: FAIL in ${((performance.now() - started) / 1000).toFixed(2)} s: publish the change under a new /vN path (family A) or raise the major version of contract/package.json (published ${policy.baseVersion ?? "?"}, now ${policy.headVersion ?? "?"})`
      : `contract gate: pass in ${((performance.now() - started) / 1000).toFixed(2)} s`,
  );
  return { tag, comparisons, lines, exitCode: failed ? 1 : 0 };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  commandLine(
    "usage: npm run contract:gate -w @payment-collection/contract\n\nFails (exit 1) on a breaking change to a published family since the last v* release tag (and,\non a pull request, the target branch) unless family A moved to a new path version or the\npackage's major version went up. Passes when there is no tag yet. Exit 2 on bad input.",
    {},
  );
  try {
    const result = runGate();
    process.stdout.write(`${result.lines.join("\n")}\n`);
    process.exitCode = result.exitCode;
  } catch (error) {
    process.stderr.write(`contract gate: ${error instanceof BadInput ? error.message : `unexpected error: ${(error as Error)?.message}`}\n`);
    process.exitCode = 2;
  }
}
