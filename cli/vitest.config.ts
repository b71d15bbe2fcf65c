import { defineConfig } from "vitest/config";
import { sources } from "../scripts/vitest-sources.ts";

// The CLI's command line, in this repository. The install test (packs and installs every
// package) has its own configuration: vitest.install.config.ts, `npm run test:install`.
export default defineConfig({
  resolve: sources.resolve,
  test: {
    env: sources.env,
    name: "cli",
    include: ["test/**/*.test.ts"],
    exclude: ["test/install/**"],
    testTimeout: 60_000,
  },
});
