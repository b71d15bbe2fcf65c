/**
 * Packs every workspace once for the install test's files (each `prepack` compiles its package
 * into dist/), into a scratch folder they share: `install.test.ts` installs them all, and
 * `client.test.ts` the client alone. Removed when the run ends.
 *
 * INSTALL_TEST_PACKED names a folder where the workspaces were packed already, with the output
 * of `npm pack --workspaces --json` in packed.json: CI packs while the sandbox's native binding
 * builds (.ci/run), and the test installs those tarballs instead of packing again.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { packWorkspaces, parsePackOutput, type Packed } from "./pack-and-install.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Folder holding the tarballs (and the test files' own scratch folders). */
    packScratch: string;
    packed: Packed[];
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const scratch = mkdtempSync(join(tmpdir(), "install-test-"));
  const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
  project.provide("packScratch", scratch);
  project.provide("packed", await packedTarballs(repoRoot, scratch));
  return () => rmSync(scratch, { recursive: true, force: true });
}

/** The tarballs, in `scratch`: copied from INSTALL_TEST_PACKED when set, else packed now. */
async function packedTarballs(repoRoot: string, scratch: string): Promise<Packed[]> {
  const prepacked = process.env.INSTALL_TEST_PACKED;
  if (!prepacked) return packWorkspaces(repoRoot, scratch);
  const tarballs = parsePackOutput(readFileSync(join(prepacked, "packed.json"), "utf8"));
  for (const tarball of tarballs) cpSync(join(prepacked, tarball.filename), join(scratch, tarball.filename));
  return tarballs;
}
