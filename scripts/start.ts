/**
 * `npm start`, the main job on embedded defaults: builds the contract, checks it (lint,
 * validity, statement catalogue, decision markings) and prints a summary. Exits non-zero
 * when anything is wrong.
 */
import { buildContract } from "./lib/contract-build.ts";
import { reportContract } from "./lib/contract-report.ts";

const started = performance.now();
const written = await buildContract("generated");
console.log(`build: ${written.length} files under generated/`);

const contract = await reportContract();
for (const line of contract.lines) console.log(line);

console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(contract.ok ? 0 : 1);
