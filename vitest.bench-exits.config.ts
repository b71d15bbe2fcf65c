import { defineConfig } from "vitest/config";
import { sources } from "./contract/dev/vitest-sources.ts";

// `npm run test:bench-exits`: every benchmark script, started with tiny settings, must exit 0
// by itself and leave no process behind. Kept out of `npm test` (each file runs servers under
// load for tens of seconds); CI runs it beside npm test, at lower priority. The benchmarks run from the
// sources, as the repository's other tests do (no dist/ needed).
export default defineConfig({
  resolve: sources.resolve,
  test: {
    env: sources.env,
    include: ["*/test/**/*-exits.test.ts"],
    // The sandbox's global setup gives bench:stores its PostgreSQL where Debian's is installed.
    globalSetup: ["sandbox/test/postgres/global-setup.ts"],
    maxWorkers: 2,
  },
});
