/**
 * Compiles a workspace's sources into the JavaScript it publishes (dist/), run by `prepack`:
 * `tsc -b tsconfig.build.json` (TypeScript's build mode first brings the packages it imports
 * up to date, whose declarations it reads), then the files of src/ that are not TypeScript
 * (Dredd's hook file, the portal's CSS and scripts) copied beside the compiled modules that
 * read them. dist/ is emptied first, so that a module removed from src/ leaves nothing behind.
 *
 *   tsx ../scripts/pack/build-package.ts     (run in the workspace's folder)
 */
import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

/** Where tsc puts the compiled src/: outDir, then the path of src/ under rootDir. */
function compiledSourceFolder(workspace: string): string {
  const { config } = ts.parseConfigFileTextToJson("tsconfig.build.json", readFileSync(join(workspace, "tsconfig.build.json"), "utf8")) as {
    config: { compilerOptions: { rootDir: string; outDir: string } };
  };
  const { rootDir, outDir } = config.compilerOptions;
  return join(workspace, outDir, relative(resolve(workspace, rootDir), join(workspace, "src")));
}

/** Every file under `folder` whose name does not end in .ts, relative to it. */
function assets(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith(".ts"))
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)));
}

const workspace = process.cwd();
const dist = join(workspace, "dist");
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
try {
  execFileSync(process.execPath, [tsc, "-b", join(workspace, "tsconfig.build.json")], { cwd: workspace, stdio: "inherit" });
} catch {
  console.error(`build-package: tsc failed in ${workspace}`);
  process.exit(1);
}
const target = compiledSourceFolder(workspace);
const source = join(workspace, "src");
for (const file of assets(source)) cpSync(join(source, file), join(target, file));
// The build-mode bookkeeping stays in dist/ (removing dist/ forces a rebuild) but is not published.
writeFileSync(join(dist, ".npmignore"), "*.tsbuildinfo\n");
