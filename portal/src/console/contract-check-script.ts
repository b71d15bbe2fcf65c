/**
 * The console's contract check as a browser script. A published portal carries the bundle made
 * when the package was built (`npm run build:dist` writes it beside this module), so an install
 * needs no bundler; in the repository, where no bundle was made, it is bundled now with esbuild
 * (a development dependency).
 */
import { existsSync, readFileSync } from "node:fs";

/** Where the package build writes the bundle: beside this module in dist/. */
export const PREBUILT_BUNDLE = new URL("./contract-check.bundle.js", import.meta.url);

export async function contractCheckScript(): Promise<string> {
  if (existsSync(PREBUILT_BUNDLE)) return readFileSync(PREBUILT_BUNDLE, "utf8");
  const { bundleContractCheck } = await import("./bundle.ts");
  return bundleContractCheck();
}
