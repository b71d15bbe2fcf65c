/**
 * What `npm pack` of a workspace needs from the repository root: every tarball carries the
 * LICENSE and the CHANGELOG (the packages are versioned together, one changelog for all), and
 * the contract package carries the documents its model reads (generated/, the statement
 * catalogue, the interface description, the decision record), which live at the root so that
 * the build and every product share one copy. Copied by `prepack`, removed by `postpack`.
 * Plain JavaScript, run by node without a TypeScript loader: every pack runs it twice per
 * package, and the loader's start-up was most of its time.
 *
 *   node ../scripts/pack/pack-files.mjs copy|remove     (run in the workspace's folder)
 */
import { cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const EVERY_PACKAGE = ["LICENSE", "CHANGELOG.md"];
/** @type {Record<string, string[]>} */
const BY_PACKAGE = {
  "@payment-collection/contract": ["generated/openapi", "generated/types", "spec/statements.yaml", "spec/source", "docs/decisions.md"],
};

const USAGE = "usage: node scripts/pack/pack-files.mjs copy|remove   (in a workspace folder: copies or removes the root files its tarball carries; exit 1: one of them is there already, 2: bad arguments)";
const action = process.argv[2];
if (action === "--help" || action === "-h") {
  console.log(USAGE);
  process.exit(0);
}
if ((action !== "copy" && action !== "remove") || process.argv.length > 3) {
  console.error(USAGE);
  process.exit(2);
}
const workspace = process.cwd();
/** @type {{ name: string }} */
const { name } = JSON.parse(readFileSync(join(workspace, "package.json"), "utf8"));
const paths = [...EVERY_PACKAGE, ...(BY_PACKAGE[name] ?? [])];
// Top-level folders created by the copy, removed whole afterwards (generated/, spec/, docs/).
const created = [...new Set(paths.map((path) => path.split("/")[0]))];
if (action === "remove") {
  for (const top of created) rmSync(join(workspace, top), { recursive: true, force: true });
} else {
  for (const top of created) {
    if (existsSync(join(workspace, top))) {
      console.error(`pack-files: ${name}: ${top} already exists in the workspace; remove it (a previous pack was interrupted?)`);
      process.exit(1);
    }
  }
  for (const path of paths) cpSync(join(ROOT, path), join(workspace, path), { recursive: true });
}
