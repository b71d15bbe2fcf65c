/**
 * CI's packing: every workspace packed as a fresh clone packs it (packFreshCopy of
 * cli/test/install/pack-and-install.ts: in a copy of the repository with no dist/, the CLI
 * alone and the client alone first, then every workspace), the tarballs into DIR with
 * DIR/packed.json and DIR/alone.json, which the install test (INSTALL_TEST_PACKED=DIR) and the
 * Node lines (`scripts/node-lines.ts run ... --packed DIR`) read. The copy is removed after.
 *
 *   tsx scripts/pack/pack-fresh.ts DIR
 *
 * Exit 0: packed; 1: a pack failed (npm's output is printed); 2: bad arguments.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { commandLine } from "@payment-collection/contract/build/command-line.ts";
import { packFreshCopy } from "../../cli/test/install/pack-and-install.ts";

const USAGE = `usage: tsx scripts/pack/pack-fresh.ts DIR

Packs every workspace as a fresh clone packs it: in a copy of the repository with no dist/,
the CLI alone and the client alone first, then every workspace; the tarballs go to DIR, their
lists to DIR/packed.json (every workspace) and DIR/alone.json (the packs alone).
Exit 0: packed; 1: a pack failed; 2: bad arguments.`;

const { positionals } = commandLine(USAGE, {}, true);
if (positionals.length !== 1) {
  console.error(`pack-fresh: give one folder, not ${positionals.length}\n\n${USAGE}`);
  process.exit(2);
}
const destination = positionals[0]!;
mkdirSync(destination, { recursive: true });
const scratch = mkdtempSync(join(destination, "fresh-copy-"));
try {
  const { together, alone, seconds } = await packFreshCopy(fileURLToPath(new URL("../..", import.meta.url)), join(scratch, "copy"), destination);
  for (const tarball of together) console.log(`${tarball.filename}: ${(tarball.size / 1024).toFixed(0)} KiB packed, ${tarball.files.length} files`);
  console.log(`fresh copy, ${alone.map((tarball) => tarball.name).join(" and ")} packed alone, then every workspace: ${seconds.toFixed(1)} s`);
} catch (error) {
  console.error(`pack-fresh: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
