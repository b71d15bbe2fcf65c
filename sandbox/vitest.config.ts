import { configDefaults, defineConfig } from "vitest/config";
import { sources } from "../contract/dev/vitest-sources.ts";

export default defineConfig({
  resolve: sources.resolve,
  test: {
    env: sources.env,
    name: "sandbox",
    // One module graph per worker, not per file, as in the other packages: no test here mocks a
    // module or changes a global another file reads (name resolution is passed in, not mocked).
    isolate: false,
    include: ["test/**/*.test.ts"],
    // The benchmarks' exit tests run on their own: `npm run test:bench-exits` (root).
    exclude: [...configDefaults.exclude, "test/**/*-exits.test.ts"],
    // A local PostgreSQL for test/postgres/ where Debian's is installed (see the file).
    globalSetup: ["test/postgres/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
