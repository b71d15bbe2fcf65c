import { defineConfig } from "vitest/config";
import { sources } from "../scripts/vitest-sources.ts";

export default defineConfig({
  resolve: sources.resolve,
  test: {
    env: sources.env,
    name: "sandbox",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
