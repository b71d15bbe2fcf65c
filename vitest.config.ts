import { defineConfig } from "vitest/config";

// `npm test`: every product's own suite (each package's vitest.config.ts), in one run.
export default defineConfig({
  test: {
    projects: ["contract", "client", "conformance", "sandbox", "portal"],
  },
});
