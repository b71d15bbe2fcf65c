import { configDefaults, defineConfig } from "vitest/config";
import { sources } from "../scripts/vitest-sources.ts";

// The fast tests (runner, profiles, scenarios, mock) and one end-to-end run of the suites against
// the sandbox. The self-test against broken servers (test/self-test/) runs on its own:
// `npm run test:self-test` (vitest.self-test.config.ts).
export default defineConfig({
  resolve: sources.resolve,
  test: {
    env: sources.env,
    name: "conformance",
    include: ["test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, "test/self-test/**"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
