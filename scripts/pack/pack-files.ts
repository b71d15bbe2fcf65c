/**
 * What `npm pack` of a workspace needs from the repository root: every tarball carries the
 * LICENSE and the CHANGELOG (the packages are versioned together, one changelog for all), and
 * the contract package carries the documents its model reads (generated/, the statement
 * catalogue, the interface description, the decision record), which live at the root so that
 * the build and every product share one copy. Copied by `prepack`, removed by `postpack`.
 *
 *   tsx ../scripts/pack/pack-files.ts copy|remove     (run in the workspace's folder)
 */
import { cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const EVERY_PACKAGE = ["LICENSE", "CHANGELOG.md"];
const BY_PACKAGE: Record<string, string[]> = {
  "@payment-collection/contract": ["generated/openapi", "generated/types", "spec/statements.yaml", "spec/source", "docs/decisions.md"],
};

const action = process.argv[2];
if (action !== "copy" && action !== "remove") {
  console.error("usage: tsx scripts/pack/pack-files.ts copy|remove   (in a workspace folder)");
  process.exit(2);
}
const workspace = process.cwd();
const { name } = JSON.parse(readFileSync(join(workspace, "package.json"), "utf8")) as { name: string };
const paths = [...EVERY_PACKAGE, ...(BY_PACKAGE[name] ?? [])];
// Top-level folders created by the copy, removed whole afterwards (generated/, spec/, docs/).
const created = [...new Set(paths.map((path) => path.split("/")[0]!))];
if (action === "remove") {
  for (const top of created) rmSync(join(workspace, top), { recursive: true, force: true });
} else {
  for (const top of created) {
    if (existsSync(join(workspace, top))) throw new Error(`${name}: ${top} already exists in the workspace; remove it (a previous pack was interrupted?)`);
  }
  for (const path of paths) cpSync(join(ROOT, path), join(workspace, path), { recursive: true });
}
