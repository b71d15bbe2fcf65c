/**
 * Compiles the client (src/) and the generated types of both families (../generated/types)
 * into dist/, the published code; run by `npm run build` and by `npm pack` (prepack). The
 * compile goes to a scratch folder that then replaces dist/ in one rename, so a concurrent
 * `npm pack` never sees a half-empty dist/.
 */
import { execFileSync } from "node:child_process";
import { renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));

export function compileClient(): void {
  const dist = join(PACKAGE_DIR, "dist");
  const scratch = join(PACKAGE_DIR, ".tmp", `dist-${process.pid}-${Date.now()}`);
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", join(PACKAGE_DIR, "tsconfig.build.json"), "--outDir", scratch], { cwd: PACKAGE_DIR, stdio: "inherit" });
  for (let attempt = 0; ; attempt += 1) {
    rmSync(dist, { recursive: true, force: true });
    try {
      renameSync(scratch, dist);
      rmSync(join(PACKAGE_DIR, ".tmp"), { recursive: true, force: true });
      return;
    } catch (error) {
      if (attempt >= 2) throw error; // another build put a dist/ back in between: replace it again
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) compileClient();
