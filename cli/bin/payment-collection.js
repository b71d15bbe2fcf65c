#!/usr/bin/env node
// Runs the compiled CLI (dist/, what the package publishes): no TypeScript loader at run time.
// In this repository's checkout, where src/ sits beside bin/ (src/ is not published), the
// TypeScript sources run through tsx, a dev dependency of the repository, so that a change
// needs no build; the repository's tsconfig maps the packages' specifiers to their sources.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const source = new URL("../src/main.ts", import.meta.url);
let main;
if (existsSync(source)) {
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: fileURLToPath(new URL("../../tsconfig.json", import.meta.url)) });
  ({ main } = await import(source.href));
} else {
  ({ main } = await import("../dist/main.js"));
}
// Exit with the command's code: a finished run may leave sockets or timers of the checked
// servers open, and nothing the command started must outlive it.
process.exit(await main(process.argv.slice(2)));
