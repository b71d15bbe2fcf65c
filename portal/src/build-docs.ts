/**
 * `npm run docs`: builds the docs portal into docs-site/ (not committed) from the generated
 * OpenAPI and the project's own pages, then prints the build time and the weight of each page.
 *
 *   npm run docs                  build into docs-site/
 *   npm run docs -- --out DIR     build into DIR instead
 *
 * Open docs-site/index.html directly, or serve the folder with any static server.
 */
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildPortal } from "./site.ts";
import { CONTRACT_ROOT } from "@payment-collection/contract/model/layout.ts";
import { commandLine } from "@payment-collection/contract/build/command-line.ts";

const USAGE = `usage: npm run docs [-- --out DIR]

Builds the docs portal into docs-site/ (or DIR) from the generated OpenAPI and the project's
pages, then prints the build time and the weight of each page. Exit 0: built; 2: bad option.`;
const { values } = commandLine(USAGE, { out: { type: "string" } });

const ROOT = CONTRACT_ROOT;
const outDir = resolve(ROOT, values.out ?? "docs-site");

const report = await buildPortal({ root: ROOT, outDir });

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
const width = Math.max(...report.pages.map((page) => page.file.length));
console.log(`docs: built ${relative(ROOT, report.outDir) || "."}/ in ${report.milliseconds} ms (Redoc ${report.redoc})`);
console.log(`  ${"page".padEnd(width)}  ${"html".padStart(10)}  ${"with scripts+styles".padStart(20)}`);
for (const page of report.pages) {
  console.log(`  ${page.file.padEnd(width)}  ${kib(page.htmlBytes).padStart(10)}  ${kib(page.weightBytes).padStart(20)}`);
}
const htmlTotal = report.pages.reduce((sum, page) => sum + page.htmlBytes, 0);
console.log(`  ${"all pages (html)".padEnd(width)}  ${kib(htmlTotal).padStart(10)}`);
console.log(`  whole site, downloads included: ${kib(report.siteBytes)}; search index: ${report.searchEntries} entries`);
for (const reference of report.references) {
  console.log(`  ${reference.file}: ${reference.operations} operations, ${reference.codeSamples} code samples`);
}
for (const gap of report.missing) {
  console.warn(`  missing source for ${gap.file}: ${gap.sources.join(" or ")} (the page says so)`);
}
