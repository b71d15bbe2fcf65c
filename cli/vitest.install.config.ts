import { defineConfig } from "vitest/config";

// `npm run test:install` (a CI step of its own, outside `npm test`): packs every package,
// installs the tarballs offline into an empty project and runs the CLI from there with npx.
export default defineConfig({
  test: {
    name: "cli-install",
    root: import.meta.dirname,
    include: ["test/install/**/*.test.ts"],
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
