import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

/** The workspaces of package.json: each has its own suite (its vitest.config.ts). */
const { workspaces } = JSON.parse(readFileSync(new URL("package.json", import.meta.url), "utf8")) as { workspaces: string[] };

// `npx vitest run --project <package>`: one package's suite. `npm test` runs them all in one
// project (vitest.npm-test.config.ts), its workers sharing their module graphs.
export default defineConfig({
  test: {
    projects: workspaces,
    maxWorkers: 3,
  },
});
