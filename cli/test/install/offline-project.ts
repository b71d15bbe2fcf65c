/**
 * An empty project that installs the packed tarballs with no network: its package-lock.json
 * pins every dependency to the exact version and integrity the repository's own lockfile
 * resolved, so `npm ci --offline` takes each one from the npm cache by its integrity (what
 * this repository's `npm ci` put there), and the products from the tarballs.
 *
 * A plain `npm install <tarballs> --offline` would have to resolve version ranges, which needs
 * the registry's package documents; an `npm ci` cache holds the tarballs only.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  dev?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  bin?: Record<string, string>;
  [key: string]: unknown;
}

export interface PackedTarball {
  name: string;
  version: string;
  /** Absolute path of the .tgz. */
  path: string;
}

/** Writes package.json and package-lock.json of a project depending on every tarball. */
export function writeOfflineProject(project: string, repoRoot: string, tarballs: PackedTarball[], extra: Record<string, unknown> = {}): void {
  mkdirSync(project, { recursive: true });
  const lock = JSON.parse(readFileSync(join(repoRoot, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
  const dependencies = Object.fromEntries(tarballs.map((t) => [t.name, `file:${relative(project, t.path)}`]));
  const packages: Record<string, LockEntry> = { "": { name: "empty-project", dependencies, ...extra } as LockEntry };
  // Third-party packages the products need at run time, placed as the repository placed them.
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path.startsWith("node_modules/") || entry.link || entry.dev) continue;
    if (tarballs.some((t) => path === `node_modules/${t.name}`)) continue;
    packages[path] = entry;
  }
  // The products, from their tarballs, with the dependencies their manifests declare.
  for (const tarball of tarballs) {
    const workspace = Object.values(lock.packages).find((entry) => (entry as { name?: string }).name === tarball.name)!;
    packages[`node_modules/${tarball.name}`] = {
      version: tarball.version,
      resolved: `file:${relative(project, tarball.path)}`,
      integrity: `sha512-${createHash("sha512").update(readFileSync(tarball.path)).digest("base64")}`,
      ...(workspace.dependencies ? { dependencies: workspace.dependencies } : {}),
      ...(workspace.optionalDependencies ? { optionalDependencies: workspace.optionalDependencies } : {}),
      ...(workspace.bin ? { bin: workspace.bin } : {}),
    };
  }
  writeFileSync(join(project, "package.json"), `${JSON.stringify({ name: "empty-project", private: true, type: "module", dependencies, ...extra }, null, 2)}\n`);
  writeFileSync(join(project, "package-lock.json"), `${JSON.stringify({ name: "empty-project", lockfileVersion: 3, requires: true, packages }, null, 2)}\n`);
}
