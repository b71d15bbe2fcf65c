/**
 * Compiles a workspace's sources into the JavaScript it publishes (dist/), run by `prepack`:
 * `tsc -b tsconfig.build*.json` (TypeScript's build mode first brings the packages it imports
 * up to date, whose declarations it reads), then the files of src/ that are not TypeScript
 * (Dredd's hook file, the portal's CSS and scripts) copied beside the compiled modules that
 * read them.
 *
 * Each build of the package (tsconfig.build.json; the contract's tsconfig.build.types.json too)
 * is emptied and compiled again unless TypeScript's build mode finds it, and every package it
 * imports, up to date with today's sources and options (the check `tsc -b` makes of the
 * packages it imports: a module added, changed or removed, or a changed option, is out of
 * date), so that a module removed from src/ leaves nothing behind; an asset copied by an
 * earlier build that src/ no longer has is removed. A package built already, by its own pack
 * or through a package that imports it (`npm pack -w @payment-collection/cli` builds every
 * package the CLI stands on), is not compiled twice.
 *
 * Plain JavaScript, run by node without a TypeScript loader, like pack-files.mjs: every pack
 * runs it once per package, and the loader's start-up was half of its time when the package
 * is up to date.
 *
 *   node ../scripts/pack/build-package.mjs     (run in the workspace's folder)
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

/**
 * Where tsc puts the compiled src/: outDir, then the path of src/ under rootDir.
 * @param {string} workspace
 * @returns {string}
 */
function compiledSourceFolder(workspace) {
  /** @type {{ config: { compilerOptions: { rootDir: string; outDir: string } } }} */
  const { config } = ts.parseConfigFileTextToJson("tsconfig.build.json", readFileSync(join(workspace, "tsconfig.build.json"), "utf8"));
  const { rootDir, outDir } = config.compilerOptions;
  return join(workspace, outDir, relative(resolve(workspace, rootDir), join(workspace, "src")));
}

/**
 * Every file under `folder` whose name does not end in .ts, relative to it.
 * @param {string} folder
 * @returns {string[]}
 */
function assets(folder) {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith(".ts"))
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)));
}

/**
 * Whether `tsc -b` would find the project and every project it references up to date (a dry build's statuses).
 * @param {ts.ParsedCommandLine & { path: string }} config
 * @returns {boolean}
 */
function upToDate(config) {
  /** @type {number[]} */
  const statuses = [];
  const host = ts.createSolutionBuilderHost(ts.sys, undefined, () => {}, (status) => statuses.push(status.code));
  ts.createSolutionBuilder(host, [config.path], { dry: true }).build();
  // 6361: "Project '{0}' is up to date"; anything else (would build, would update timestamps) is not.
  return statuses.length > 0 && statuses.every((code) => code === 6361);
}

/**
 * A build configuration of the workspace, read as tsc reads it.
 * @param {string} path
 * @returns {ts.ParsedCommandLine & { path: string }}
 */
function buildConfig(path) {
  const parsed = ts.getParsedCommandLineOfConfigFile(path, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!parsed?.options.outDir) throw new Error(`build-package: ${path} has no outDir`);
  return Object.assign(parsed, { path });
}

const USAGE = "usage: node scripts/pack/build-package.mjs   (in a workspace folder: compiles its sources into dist/ unless up to date, and copies the assets of src/; exit 1: tsc failed)";
if (process.argv[2] === "--help" || process.argv[2] === "-h") {
  console.log(USAGE);
  process.exit(0);
}
if (process.argv.length > 2) {
  console.error(`build-package: no argument expected, got ${process.argv.slice(2).join(" ")}\n${USAGE}`);
  process.exit(2);
}
const workspace = process.cwd();
const dist = join(workspace, "dist");
// The package's builds: tsconfig.build.json, and the contract's generated types (tsconfig.build.types.json, into dist/types).
const builds = readdirSync(workspace)
  .filter((name) => /^tsconfig\.build(\..+)?\.json$/.test(name))
  .sort()
  .map((name) => buildConfig(join(workspace, name)));
// Each build's output folder emptied when it is out of date (the statuses first: emptying dist/ empties dist/types).
const stale = builds.filter((build) => !upToDate(build));
if (stale.length > 0) {
  for (const build of stale) rmSync(/** @type {string} */ (build.options.outDir), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  try {
    execFileSync(process.execPath, [tsc, "-b", ...builds.map((build) => build.path)], { cwd: workspace, stdio: "inherit" });
  } catch {
    console.error(`build-package: tsc failed in ${workspace}`);
    process.exit(1);
  }
}
const target = compiledSourceFolder(workspace);
const source = join(workspace, "src");
// The assets this build copies, noted in dist/ so that the next build removes one src/ no longer has.
const copied = assets(source);
const noted = join(dist, ".build-assets");
if (existsSync(noted)) for (const file of readFileSync(noted, "utf8").split("\n").filter((f) => f !== "" && !copied.includes(f))) rmSync(join(target, file), { force: true });
for (const file of copied) cpSync(join(source, file), join(target, file));
writeFileSync(noted, copied.map((file) => `${file}\n`).join(""));
// The build-mode bookkeeping stays in dist/ (removing dist/ forces a rebuild) but is not published.
writeFileSync(join(dist, ".npmignore"), "*.tsbuildinfo\n.build-assets\n");
