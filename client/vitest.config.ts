import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "client",
    include: ["test/**/*.test.ts"],
    // The benchmarks' exit tests run on their own: `npm run test:bench-exits` (root).
    exclude: [...configDefaults.exclude, "test/**/*-exits.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
