/**
 * Each package builds by itself, as `npm pack -w <package>` in a fresh clone builds it: what its
 * compiled files import is exactly what its package.json declares, and its `tsconfig.build.json`
 * references exactly the workspace packages it depends on, so that `tsc -b` (run by `prepack`)
 * builds them first. And in a fresh copy of the repository with no `dist/` anywhere, the CLI
 * (which stands on every other package but the client) and the client packed alone hold the
 * same files as packed together: the global setup packs them there, alone first
 * (pack-and-install.ts, packFreshCopy), and every workspace after them.
 *
 * Why that is enough for the others: `tsc -b` of the CLI builds each package of its closure
 * in turn, after the packages that package references; a package that imported one it does
 * not reference would be caught by the reference check, so each of them compiled with what
 * its own pack would have, no more. Packing each of them alone in its own copy would compile
 * the contract five times over, for nothing more.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";
import { buildConfig, importsOf, namedIn, otherFiles, workspaces, type Manifest } from "./package-imports.ts";
import { PACKED_ALONE } from "./pack-and-install.ts";

const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const WORKSPACES = workspaces(REPO_ROOT);
const WORKSPACE_NAMES = new Set(WORKSPACES.map((w) => w.manifest.name));
const ROOT_DEV = Object.keys((JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as Manifest).devDependencies ?? {});

/**
 * Imports of a published file that no dependency answers, each with the one file allowed to
 * make it and why. Dredd gives the hook files it loads a module named `hooks`. The portal
 * bundles its console's contract check with esbuild when no bundle was built beside it, which
 * happens in this repository only: a tarball carries the bundle its `prepack` made.
 */
const NOT_DEPENDENCIES: Record<string, Record<string, string>> = {
  "@payment-collection/conformance": { hooks: "src/dredd/hooks.cjs" },
  "@payment-collection/portal": { esbuild: "src/console/bundle.ts" },
};

/** What npm installs with the package: its dependencies, optional ones and peers. */
function declared(manifest: Manifest): string[] {
  return [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})];
}

const byName = (name: string) => WORKSPACES.find((w) => w.manifest.name === name);

describe("each package's manifest and build", () => {
  it.each(WORKSPACES.map((w) => [w.manifest.name, w] as const))("%s: its compiled files import exactly the packages it declares, and reference exactly its workspace dependencies", (name, { folder, manifest }) => {
    const base = join(REPO_ROOT, folder);
    const { files, references } = buildConfig(REPO_ROOT, folder);
    const imports = importsOf(files, base);
    for (const [dependency, file] of Object.entries(NOT_DEPENDENCIES[name] ?? {})) {
      expect(imports.get(dependency), `${name}: ${dependency} from ${file} only`).toEqual([file]);
      imports.delete(dependency);
    }
    imports.delete(name);
    // A declared package is used when imported, named at run time (Prism, resolved by name), or
    // a peer of a workspace dependency, declared again so that the installing project sees it.
    const passedOn = declared(manifest).filter((d) => WORKSPACE_NAMES.has(d)).flatMap((d) => Object.keys(byName(d)!.manifest.peerDependencies ?? {}));
    const used = new Set([...imports.keys(), ...declared(manifest).filter((d) => namedIn(files, d) || passedOn.includes(d))]);
    expect([...used].sort(), `${name}: what ${folder}/tsconfig.build.json compiles uses (left) and package.json declares (right)`).toEqual([...new Set(declared(manifest))].sort());

    const referenced = references.filter((r) => r !== folder).map((r) => WORKSPACES.find((w) => w.folder === r)?.manifest.name ?? r);
    const workspaceDependencies = declared(manifest).filter((d) => WORKSPACE_NAMES.has(d));
    expect(referenced.sort(), `${name}: the references of ${folder}/tsconfig.build.json`).toEqual(workspaceDependencies.sort());
  });

  it("tests, benchmarks and tools of each workspace import only what the workspace or the root declares", () => {
    const undeclared: string[] = [];
    for (const { folder, manifest } of WORKSPACES) {
      const known = new Set([manifest.name, ...declared(manifest), ...Object.keys(manifest.devDependencies ?? {}), ...ROOT_DEV]);
      const files = otherFiles(REPO_ROOT, folder, buildConfig(REPO_ROOT, folder).files);
      for (const [dependency, importers] of importsOf(files, REPO_ROOT)) if (!known.has(dependency)) undeclared.push(`${dependency} (${importers.join(", ")})`);
    }
    expect(undeclared).toEqual([]);
  });
});

describe("a fresh copy of the repository, no dist/ anywhere", () => {
  it("packs the CLI alone (every package it stands on built through the references) and the client alone, the same files as packed together", () => {
    // Packed there by the global setup (or by CI's packing), before every workspace together.
    const alone = inject("packedAlone");
    const together = inject("packed");
    expect(alone.map((tarball) => tarball.name)).toEqual(PACKED_ALONE);
    const paths = (files: Array<{ path: string }>) => files.map((f) => f.path).sort();
    for (const tarball of alone) expect(paths(tarball.files), tarball.name).toEqual(paths(together.find((p) => p.name === tarball.name)!.files));
  });
});
