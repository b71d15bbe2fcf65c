/**
 * Part of the package build (`npm run build:dist`, after tsc): bundles the console's contract
 * check once, into dist/ beside the compiled module that serves it, so that the published
 * portal needs no bundler at run time.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { bundleContractCheck } from "../src/console/bundle.ts";

const target = fileURLToPath(new URL("../dist/console/contract-check.bundle.js", import.meta.url));
writeFileSync(target, await bundleContractCheck());
console.log(`bundle-console: wrote ${target}`);
