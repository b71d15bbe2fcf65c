#!/usr/bin/env node
// The packages ship TypeScript sources; tsx compiles them as they load (Node 20 cannot strip
// types). Registered here, before anything of the project is imported.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main.ts");
// Exit with the command's code: a finished run may leave sockets or timers of the checked
// servers open, and nothing the command started must outlive it.
process.exit(await main(process.argv.slice(2)));
