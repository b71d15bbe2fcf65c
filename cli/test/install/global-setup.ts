/**
 * Packs every workspace once for the install test's files (each `prepack` compiles its package
 * into dist/), into a scratch folder they share: `install.test.ts` installs them all, and
 * `client.test.ts` the client alone. Removed when the run ends.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { packWorkspaces, type Packed } from "./pack-and-install.ts";

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
  project.provide("packed", await packWorkspaces(repoRoot, scratch));
  return () => rmSync(scratch, { recursive: true, force: true });
}
