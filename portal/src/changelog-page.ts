/**
 * The portal's "Contract changes" page: the contract diff (issue #18) between the last release
 * tag (or, before the first release, the first commit that has generated/openapi/3.1) and the
 * working tree, rendered from the same Markdown as `npm run contract:diff -- --markdown`.
 * Never breaks the build: without git history or generated documents the page says so.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { diffFamilies, judge, pathVersionsOf, renderChangelog } from "@payment-collection/contract/diff/index.ts";
import { gitTopLevel, loadFolder, loadGitRef } from "@payment-collection/contract/diff/sources.ts";
import type { NavEntry } from "./layout.ts";

export const CONTRACT_CHANGES_PAGE: NavEntry = { file: "contract-changes.html", label: "Contract changes", group: "Project record" };

export interface ContractChangesMarkdown {
  markdown: string;
  /** The ref compared with, when there was one. */
  base?: string;
}

function git(cwd: string, args: string[]): string | undefined {
  try {
    return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The Markdown of the page for a package root (where generated/ and contract/ live). */
export function contractChangesMarkdown(root: string): ContractChangesMarkdown {
  const title = "# Contract changes";
  const generated = join(root, "generated");
  if (!existsSync(join(generated, "openapi", "3.1"))) {
    return { markdown: `${title}\n\nThe generated documents (\`generated/openapi/3.1\`) are missing: build the contract to see its changes.\n` };
  }
  const top = gitTopLevel(generated);
  if (!top) return { markdown: `${title}\n\nThis package is not a git checkout: there is no earlier version of the contract to compare with.\n` };
  const folder = relative(top, join(generated, "openapi", "3.1")).split("\\").join("/");
  const tag = git(top, ["describe", "--tags", "--abbrev=0", "--match", "v*"]);
  const first = tag ? undefined : git(top, ["log", "--reverse", "--format=%h", "--", folder])?.split("\n")[0];
  const base = tag ?? first;
  if (!base) return { markdown: `${title}\n\nNo commit has \`${folder}\` yet: nothing to compare with.\n` };
  try {
    const before = loadGitRef(base, top, generated, join(root, "contract", "package.json"));
    const after = loadFolder(generated, "working tree");
    const changes = judge(diffFamilies(before.documents, after.documents), { publishedPathVersions: pathVersionsOf(before.documents.get("family-a")) });
    const since = tag ? `the last release tag \`${tag}\`` : `the first commit with generated documents (\`${base}\`; no release tag yet)`;
    const intro = `Changes to the generated OpenAPI 3.1 documents of both families since ${since}, classified by the rules of the contract's "Breaking changes" section (contract/README.md). The same text comes out of \`npm run contract:diff -- --base ${base} --markdown\`.`;
    return { markdown: `${title}\n\n${intro}\n\n${renderChangelog(changes, { level: 2 })}`, base };
  } catch (error) {
    return { markdown: `${title}\n\nThe contract diff could not run: ${(error as Error).message.split("\n")[0]}\n` };
  }
}
