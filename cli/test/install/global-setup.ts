/**
 * Packs every workspace once for the install test's files, as a fresh clone packs them
 * (pack-and-install.ts, packFreshCopy: the CLI alone and the client alone in a copy of the
 * repository with no dist/, then every workspace), into a scratch folder they share:
 * `install.test.ts` installs them all, `client.test.ts` the client alone, and
 * `pack-alone.test.ts` compares the packs alone with the packs together. Removed when the run
 * ends.
 *
 * INSTALL_TEST_PACKED names a folder where the workspaces were packed so already, with
 * packed.json and alone.json: CI packs while the sandbox's native binding builds
 * (`tsx scripts/pack/pack-fresh.ts DIR`, .ci/run), and the test installs those tarballs
 * instead of packing again.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { packFreshCopy, parsePackOutput, type Packed } from "./pack-and-install.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Folder holding the tarballs (and the test files' own scratch folders). */
    packScratch: string;
    /** The tarballs of every workspace, packed together. */
    packed: Packed[];
    /** The CLI and the client, each packed alone first in the fresh copy. */
    packedAlone: Packed[];
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const scratch = mkdtempSync(join(tmpdir(), "install-test-"));
  const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
  const { together, alone } = await packedTarballs(repoRoot, scratch);
  project.provide("packScratch", scratch);
  project.provide("packed", together);
  project.provide("packedAlone", alone);
  return () => rmSync(scratch, { recursive: true, force: true });
}

/** The tarballs, in `scratch`: copied from INSTALL_TEST_PACKED when set, else packed now. */
async function packedTarballs(repoRoot: string, scratch: string): Promise<{ together: Packed[]; alone: Packed[] }> {
  const prepacked = process.env.INSTALL_TEST_PACKED;
  if (!prepacked) {
    const copy = join(scratch, "fresh-copy");
    const packs = await packFreshCopy(repoRoot, copy, scratch);
    rmSync(copy, { recursive: true, force: true });
    console.log(`fresh copy, the CLI and the client packed alone, then every workspace: ${packs.seconds.toFixed(1)} s`);
    return packs;
  }
  const read = (file: string) => parsePackOutput(readFileSync(join(prepacked, file), "utf8"));
  const together = read("packed.json");
  for (const tarball of together) cpSync(join(prepacked, tarball.filename), join(scratch, tarball.filename));
  return { together, alone: read("alone.json") };
}
