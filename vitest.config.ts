import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

/** The workspaces of package.json: each has its own suite (its vitest.config.ts). */
const { workspaces } = JSON.parse(readFileSync(new URL("package.json", import.meta.url), "utf8")) as { workspaces: string[] };

// `npm test`: every product's own suite, in one run.
export default defineConfig({
  test: {
    projects: workspaces,
    // Three test files at a time on two cores: many tests wait on servers, browsers, child
    // processes and webhook retries rather than compute (166 s with two, alone on the machine).
    maxWorkers: 3,
  },
});
