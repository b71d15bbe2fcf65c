import { configDefaults, defineConfig } from "vitest/config";
import { sources } from "../scripts/vitest-sources.ts";

export default defineConfig({
  resolve: sources.resolve,
  test: {
    env: sources.env,
    name: "sandbox",
    include: ["test/**/*.test.ts"],
    // The benchmarks' exit tests run on their own: `npm run test:bench-exits` (root).
    exclude: [...configDefaults.exclude, "test/**/*-exits.test.ts"],
    // A local PostgreSQL for test/postgres/ where Debian's is installed (see the file).
    globalSetup: ["test/postgres/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
