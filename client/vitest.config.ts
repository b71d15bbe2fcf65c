import { configDefaults, defineConfig } from "vitest/config";
import { sources } from "../contract/dev/vitest-sources.ts";

export default defineConfig({
  resolve: sources.resolve,
  test: {
    env: sources.env,
    name: "client",
    // One module graph per worker, not per file: most of the suite's import time was the same
    // modules (the contract model, ajv, Dredd, Prism) loaded again for every file. No test
    // here mocks a module or changes a global another file reads.
    isolate: false,
    include: ["test/**/*.test.ts"],
    // The benchmarks' exit tests run on their own: `npm run test:bench-exits` (root).
    exclude: [...configDefaults.exclude, "test/**/*-exits.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
