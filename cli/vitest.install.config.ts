import { defineConfig } from "vitest/config";

// `npm run test:install` (a CI step of its own, outside `npm test`): packs every package once
// (global setup), installs the tarballs offline into empty projects (all of them, and the
// client alone) and uses them from there as a team would.
export default defineConfig({
  test: {
    name: "cli-install",
    root: import.meta.dirname,
    include: ["test/install/**/*.test.ts"],
    globalSetup: ["test/install/global-setup.ts"],
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
