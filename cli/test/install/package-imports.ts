/**
 * What a workspace publishes and what it imports, read from its files as TypeScript reads them:
 * the files its `tsconfig.build.json` compiles into `dist/` (what a tarball carries), the
 * packages their import and export declarations, `import()` and `require()` name, and the
 * projects the build references. Also the rest of the workspace (tests, benchmarks, build
 * tools), which runs in the repository only.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { dirname, join, relative } from "node:path";
import ts from "typescript";

export interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

export interface Workspace {
  /** Folder under the repository root: `contract`, `client`, ... */
  folder: string;
  manifest: Manifest;
}

export function workspaces(repoRoot: string): Workspace[] {
  const { workspaces: folders } = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { workspaces: string[] };
  return folders.map((folder) => ({ folder, manifest: JSON.parse(readFileSync(join(repoRoot, folder, "package.json"), "utf8")) as Manifest }));
}

/** The package a module specifier names (`@scope/name` or `name`), or undefined for a relative path or a Node built-in. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/") || isBuiltin(specifier)) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The packages each file imports: package name -> the files (relative to `base`) that import it. */
export function importsOf(files: string[], base: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    for (const { fileName } of importedFiles) {
      const name = packageOf(fileName);
      if (name === undefined) continue;
      const importers = found.get(name) ?? [];
      if (!importers.includes(relative(base, file))) importers.push(relative(base, file));
      found.set(name, importers);
    }
  }
  return found;
}

/** Whether a string literal of the files names the package (`"@stoplight/prism-cli"`, `"redoc/package.json"`): a package found by name at run time. */
export function namedIn(files: string[], name: string): boolean {
  const literal = new RegExp(`["'\`]${name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}(/[^"'\`]*)?["'\`]`);
  return files.some((file) => literal.test(readFileSync(file, "utf8")));
}

/**
 * The workspace's build: the files it publishes (those it compiles, and the scripts of src/
 * that `prepack` copies beside them, such as Dredd's hook file) and the folders of the
 * projects it references, relative to the repository root.
 */
export function buildConfig(repoRoot: string, folder: string): { files: string[]; references: string[] } {
  const configFile = join(repoRoot, folder, "tsconfig.build.json");
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    },
  });
  if (!parsed) throw new Error(`${configFile}: cannot be read`);
  const references = (parsed.projectReferences ?? []).map((reference) => relative(repoRoot, reference.path.endsWith(".json") ? dirname(reference.path) : reference.path));
  const scripts = listed(repoRoot, `${folder}/src`).filter((path) => /\.(js|mjs|cjs)$/.test(path));
  return { files: [...parsed.fileNames, ...scripts], references };
}

/** The workspace's other files (tests, benchmarks, scripts, build tools): TypeScript or JavaScript, outside what it publishes. */
export function otherFiles(repoRoot: string, folder: string, published: string[]): string[] {
  const publishedSet = new Set(published);
  return listed(repoRoot, folder).filter((path) => /\.(ts|mts|cts|js|mjs|cjs)$/.test(path) && !publishedSet.has(path));
}

/** Files under `folder` that git tracks, or would add (not ignored), and that exist: absolute paths. */
function listed(repoRoot: string, folder: string): string[] {
  const output = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", folder], { cwd: repoRoot, encoding: "utf8" });
  return output
    .split("\0")
    .filter((path) => path !== "")
    .map((path) => join(repoRoot, path))
    .filter((path) => existsSync(path));
}
