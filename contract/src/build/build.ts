/**
 * `npm run build`: compiles the TypeSpec contract and writes everything under generated/.
 * generated/ is only ever written by this script; CI fails when it drifts from a fresh build.
 *
 *   npm run build                 write into generated/
 *   npm run build -- --out DIR    write into DIR instead (used by the drift test)
 */
import { buildContract } from "./contract-build.ts";
import { commandLine } from "./command-line.ts";

const USAGE = `usage: npm run build [-- --out DIR]

Compiles spec/main.tsp and writes the OpenAPI documents and TypeScript types under generated/
(or DIR, relative to the repository root). Exit 0 when built; 2 on a bad option.`;
const outDir = commandLine(USAGE, { out: { type: "string", default: "generated" } }).values.out as string;

const started = performance.now();
const written = await buildContract(outDir);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`build: wrote ${written.length} files under ${outDir}/ in ${seconds} s`);
