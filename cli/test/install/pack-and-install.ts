/**
 * What the install test, CI's packing (scripts/pack/pack-fresh.ts) and the startup benchmark
 * share: pack every workspace (each `prepack` compiles its package into dist/), in the
 * repository or as a fresh clone packs it, then install tarballs offline into an empty
 * project, as a team installs them from the registry.
 *
 * The sandbox's SQLite binding (better-sqlite3) is native. Its install script builds it from
 * source where no prebuilt binary can be downloaded (here: about two minutes); the install
 * gives prebuild-install the binary this repository's own install already built, through its
 * documented local-prebuilds folder, so that it checks the packaging and not the C compiler.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { writeOfflineProject } from "../../../contract/dev/pack/offline-project.ts";
import { freshCopy } from "./fresh-copy.ts";
import { workspaces } from "./package-imports.ts";

const run = promisify(execFile);
const BUFFER = 64 * 1024 * 1024;

/** npm's environment for the packing and the installs: no update notice, no funding or audit requests. */
export const NPM_ENV: NodeJS.ProcessEnv = (() => {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false", CI: "true" };
  delete env.INIT_CWD;
  // The repository's tsx settings must not reach the installed products.
  delete env.TSX_TSCONFIG_PATH;
  return env;
})();

/** One tarball of `npm pack --json`. */
export interface Packed {
  name: string;
  version: string;
  filename: string;
  size: number;
  unpackedSize: number;
  files: Array<{ path: string }>;
}

/** The tarballs listed by `npm pack --json`, whose output may begin with what the prepack scripts printed. */
export function parsePackOutput(stdout: string): Packed[] {
  return JSON.parse(stdout.slice(stdout.indexOf("["))) as Packed[];
}

/** Packs every workspace of the repository into `destination`. */
export async function packWorkspaces(repoRoot: string, destination: string): Promise<Packed[]> {
  const { stdout } = await run("npm", ["pack", "--workspaces", "--json", "--pack-destination", destination], { cwd: repoRoot, env: NPM_ENV, maxBuffer: BUFFER });
  return parsePackOutput(stdout);
}

/** The packages packed alone, first, in a fresh copy: the CLI (which stands on every other package but the client) and the client. */
export const PACKED_ALONE = ["@payment-collection/cli", "@payment-collection/client"];

/**
 * Packs every workspace as it packs in a fresh clone: in a copy of the repository with no
 * dist/ anywhere (fresh-copy.ts, made at `copy`), first the CLI alone, whose build brings up
 * every package it stands on through its references, then the client alone, then every
 * workspace (`npm pack --workspaces`: a package built already is not compiled again, see
 * scripts/pack/build-package.mjs). The tarballs of the last pack go to `destination`, its list
 * to `destination/packed.json` and the list of the packs alone to `destination/alone.json`
 * (the install test compares them). Resolves with both lists and the seconds it took.
 */
export async function packFreshCopy(repoRoot: string, copy: string, destination: string): Promise<{ together: Packed[]; alone: Packed[]; seconds: number }> {
  const began = performance.now();
  freshCopy(repoRoot, copy, workspaces(repoRoot));
  const pack = (args: string[], into: string) =>
    run("npm", ["pack", ...args, "--json", "--pack-destination", into], { cwd: copy, env: NPM_ENV, maxBuffer: BUFFER }).then(
      ({ stdout }) => parsePackOutput(stdout),
      (error: { stdout?: string; stderr?: string }) => {
        throw new Error(`npm pack ${args.join(" ")} in a fresh copy failed:\n${(error.stdout ?? "").slice(-3000)}\n${(error.stderr ?? "").slice(-3000)}`);
      },
    );
  const aloneFolder = join(destination, "alone");
  mkdirSync(aloneFolder, { recursive: true });
  const alone: Packed[] = [];
  for (const name of PACKED_ALONE) alone.push(...(await pack(["-w", name], aloneFolder)));
  const together = await pack(["--workspaces"], destination);
  writeFileSync(join(destination, "packed.json"), JSON.stringify(together));
  writeFileSync(join(destination, "alone.json"), JSON.stringify(alone));
  return { together, alone, seconds: (performance.now() - began) / 1000 };
}

/** prebuild-install's local-prebuilds folder holding the binding built by this repository's install. */
async function localPrebuilds(repoRoot: string, scratch: string): Promise<string> {
  const moduleDir = join(repoRoot, "node_modules/better-sqlite3");
  const { version } = JSON.parse(readFileSync(join(moduleDir, "package.json"), "utf8")) as { version: string };
  const folder = join(scratch, "prebuilds");
  mkdirSync(folder, { recursive: true });
  // prebuild-install's file name: {name}-v{version}-node-v{abi}-{platform}-{arch}.tar.gz
  const file = join(folder, `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`);
  await run("tar", ["-czf", file, "-C", moduleDir, "build/Release/better_sqlite3.node"]);
  return folder;
}

/**
 * Installs the tarballs named in `direct` (default: all) offline into `project` (a new folder
 * under `scratch`, which holds the tarballs) with `npm ci`; resolves with the seconds it took.
 */
export async function installOffline(options: { repoRoot: string; scratch: string; project: string; packed: Packed[]; direct?: string[] }): Promise<number> {
  const { repoRoot, scratch, project, packed } = options;
  const tarballs = packed.map((p) => ({ name: p.name, version: p.version, path: join(scratch, p.filename) }));
  // npm 11 runs a dependency's install script only when the project allows it (the README says so).
  writeOfflineProject(project, repoRoot, tarballs, { allowScripts: { "better-sqlite3": true } }, options.direct);
  const prebuilds = await localPrebuilds(repoRoot, scratch);
  const began = performance.now();
  await run("npm", ["ci", "--offline"], { cwd: project, env: { ...NPM_ENV, npm_config_better_sqlite3_local_prebuilds: prebuilds }, maxBuffer: BUFFER });
  return (performance.now() - began) / 1000;
}
