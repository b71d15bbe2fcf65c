/**
 * An empty project that installs packed tarballs with no network: its package-lock.json
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

/** Where Node finds `name` from the package at `from` (a lock path): its own node_modules, then each parent's. */
function locate(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let base = from; ; ) {
    const candidate = `${base ? `${base}/` : ""}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return undefined;
    const parent = base.lastIndexOf("/node_modules/");
    base = parent === -1 ? "" : base.slice(0, parent);
  }
}

/** What npm installs for a package: its dependencies, optional ones, and the peers it does not mark optional. */
function requires(entry: LockEntry): string[] {
  const optionalPeers = entry.peerDependenciesMeta as Record<string, { optional?: boolean }> | undefined;
  const peers = Object.keys((entry.peerDependencies as Record<string, string> | undefined) ?? {}).filter((name) => !optionalPeers?.[name]?.optional);
  return [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...peers];
}

/**
 * Writes package.json and package-lock.json of a project that depends on the packages named in
 * `direct` (default: every tarball): tarballs, or packages of the repository's own install. The lock holds what npm would install for them, no more:
 * the tarballs they need and the third-party packages those reach, placed as the repository
 * placed them (a package the products do not reach, such as an optional peer, is left out).
 */
export function writeOfflineProject(project: string, repoRoot: string, tarballs: PackedTarball[], extra: Record<string, unknown> = {}, direct = tarballs.map((t) => t.name)): void {
  mkdirSync(project, { recursive: true });
  const lock = JSON.parse(readFileSync(join(repoRoot, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
  // Every placed package of the repository, with the products taken from their tarballs.
  const available: Record<string, LockEntry> = {};
  for (const [path, entry] of Object.entries(lock.packages)) if (path.startsWith("node_modules/") && !entry.link) available[path] = entry;
  // A product by its tarball; a third-party package (an optional peer, say) by the version the repository installed.
  const dependencies = Object.fromEntries(
    direct.map((name) => {
      const tarball = tarballs.find((t) => t.name === name);
      return [name, tarball ? `file:${relative(project, tarball.path)}` : available[`node_modules/${name}`]!.version!];
    }),
  );
  for (const tarball of tarballs) {
    const workspace = Object.values(lock.packages).find((entry) => (entry as { name?: string }).name === tarball.name)!;
    available[`node_modules/${tarball.name}`] = {
      version: tarball.version,
      resolved: `file:${relative(project, tarball.path)}`,
      integrity: `sha512-${createHash("sha512").update(readFileSync(tarball.path)).digest("base64")}`,
      ...(workspace.dependencies ? { dependencies: workspace.dependencies } : {}),
      ...(workspace.optionalDependencies ? { optionalDependencies: workspace.optionalDependencies } : {}),
      ...(workspace.peerDependencies ? { peerDependencies: workspace.peerDependencies } : {}),
      ...(workspace.peerDependenciesMeta ? { peerDependenciesMeta: workspace.peerDependenciesMeta } : {}),
      ...(workspace.bin ? { bin: workspace.bin } : {}),
    };
  }
  const packages: Record<string, LockEntry> = { "": { name: "empty-project", dependencies, ...extra } as LockEntry };
  const pending = Object.keys(dependencies).map((name) => `node_modules/${name}`);
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (packages[path]) continue;
    const entry = available[path]!;
    packages[path] = entry;
    for (const name of requires(entry)) {
      const found = locate(available, path, name);
      if (found && !packages[found]) pending.push(found);
    }
  }
  writeFileSync(join(project, "package.json"), `${JSON.stringify({ name: "empty-project", private: true, type: "module", dependencies, ...extra }, null, 2)}\n`);
  writeFileSync(join(project, "package-lock.json"), `${JSON.stringify({ name: "empty-project", lockfileVersion: 3, requires: true, packages }, null, 2)}\n`);
}
