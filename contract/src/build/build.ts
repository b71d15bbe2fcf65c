/**
 * `npm run build`: compiles the TypeSpec contract and writes everything under generated/.
 * generated/ is only ever written by this script; CI fails when it drifts from a fresh build.
 *
 *   npm run build                 write into generated/
 *   npm run build -- --out DIR    write into DIR instead (used by the drift test)
 */
import { buildContract } from "./contract-build.ts";

const outIndex = process.argv.indexOf("--out");
const outDir = outIndex > 0 ? process.argv[outIndex + 1] : "generated";

const started = performance.now();
const written = await buildContract(outDir);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`build: wrote ${written.length} files under ${outDir}/ in ${seconds} s`);
