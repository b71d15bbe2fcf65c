import { defineConfig } from "vitest/config";

// `npm test`: every product's own suite (each package's vitest.config.ts), in one run.
export default defineConfig({
  test: {
    projects: ["contract", "client", "conformance", "sandbox", "portal", "cli"],
    // Two test files at a time on two cores: many tests wait on servers, browsers and child
    // processes rather than compute.
    maxWorkers: 2,
  },
});
