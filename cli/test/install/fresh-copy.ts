/**
 * A copy of the repository as a fresh clone has it: the files git tracks, and the new ones it
 * does not ignore (what the next commit would hold), so no `dist/`, no build output, no
 * tarball. Its node_modules is the repository's install, linked entry by entry, except the
 * workspaces' own links, which point at the copy's folders: a package built in the copy reads
 * the packages it imports from the copy, never a `dist/` left in the repository.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Workspace } from "./package-imports.ts";

export function freshCopy(repoRoot: string, destination: string, members: Workspace[]): void {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: repoRoot, encoding: "utf8" });
  // A tracked file deleted in the working tree is not part of the next commit.
  const files = listed.split("\0").filter((path) => path !== "" && existsSync(join(repoRoot, path)));
  mkdirSync(destination, { recursive: true });
  execFileSync("bash", ["-c", 'tar --null -T - -cf - | tar -xf - -C "$1"', "copy", destination], { cwd: repoRoot, input: files.join("\0") });
  const nodeModules = join(destination, "node_modules");
  const names = new Set(members.map((member) => member.manifest.name));
  const scopes = new Set([...names].map((name) => name.split("/")[0]!));
  mkdirSync(nodeModules);
  for (const entry of readdirSync(join(repoRoot, "node_modules"))) {
    if (scopes.has(entry)) {
      // The workspaces' scope: its other packages linked, the workspaces to the copy.
      for (const inner of readdirSync(join(repoRoot, "node_modules", entry))) {
        if (!names.has(`${entry}/${inner}`)) linkInto(join(repoRoot, "node_modules", entry, inner), join(nodeModules, entry, inner));
      }
    } else linkInto(join(repoRoot, "node_modules", entry), join(nodeModules, entry));
  }
  for (const member of members) linkInto(join(destination, member.folder), join(nodeModules, member.manifest.name));
}

function linkInto(target: string, link: string): void {
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(target, link);
}
