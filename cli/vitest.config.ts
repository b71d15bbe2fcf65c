import { defineConfig } from "vitest/config";
import { sources } from "../contract/dev/vitest-sources.ts";

// The CLI's command line, in this repository. The install test (packs and installs every
// package) has its own configuration: vitest.install.config.ts, `npm run test:install`.
export default defineConfig({
  resolve: sources.resolve,
  test: {
    env: sources.env,
    name: "cli",
    // One module graph per worker, not per file: most of the suite's import time was the same
    // modules (the contract model, ajv, Dredd, Prism) loaded again for every file. No test
    // here mocks a module or changes a global another file reads.
    isolate: false,
    include: ["test/**/*.test.ts"],
    exclude: ["test/install/**"],
    testTimeout: 60_000,
  },
});
