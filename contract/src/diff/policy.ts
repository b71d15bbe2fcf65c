/**
 * What the version allows. Versioning 1: family A changes incompatibly only under a new path
 * version, so a breaking change is allowed when its operation sits under a /vN prefix the
 * base did not have. Anything else needs a major version bump of the contract package.
 */
import { pathVersionOf } from "./engine.ts";
import type { Change } from "./types.ts";

export interface VersionPolicy {
  /** contract/package.json version of the base, when known. */
  baseVersion?: string;
  /** contract/package.json version of the head. */
  headVersion?: string;
  /** Path version prefixes (`/v1`) of family A's published operations. */
  publishedPathVersions?: ReadonlySet<string>;
  /** Families the gate protects (default: every family). */
  publishedFamilies?: ReadonlySet<string>;
}

export interface JudgedChange extends Change {
  /** For a breaking change: whether the version allows it. */
  allowed: boolean;
  /** Why a breaking change is allowed. */
  allowance?: string;
}

const major = (version: string | undefined): number | undefined => {
  const match = /^v?(\d+)\./.exec(version ?? "");
  return match ? Number(match[1]) : undefined;
};

/** Family A path versions of a document's operations. */
export function pathVersionsOf(document: unknown): Set<string> {
  const paths = (document as { paths?: Record<string, unknown> } | undefined)?.paths ?? {};
  return new Set(Object.keys(paths).map(pathVersionOf).filter((v): v is string => v !== undefined));
}

export function judge(changes: readonly Change[], policy: VersionPolicy = {}): JudgedChange[] {
  const baseMajor = major(policy.baseVersion);
  const headMajor = major(policy.headVersion);
  const bumped = baseMajor !== undefined && headMajor !== undefined && headMajor > baseMajor;
  return changes.map((change): JudgedChange => {
    if (change.verdict !== "breaking") return { ...change, allowed: true };
    if (policy.publishedFamilies && !policy.publishedFamilies.has(change.family)) return { ...change, allowed: true, allowance: `${change.family} is not published yet` };
    if (bumped) return { ...change, allowed: true, allowance: `major version bump ${policy.baseVersion} -> ${policy.headVersion}` };
    const path = change.operation?.split(" ")[1];
    const prefix = path ? pathVersionOf(path) : undefined;
    if (change.family === "family-a" && prefix && policy.publishedPathVersions && !policy.publishedPathVersions.has(prefix)) {
      return { ...change, allowed: true, allowance: `under the new path version ${prefix}` };
    }
    return { ...change, allowed: false };
  });
}
