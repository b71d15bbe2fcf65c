import { defineConfig } from "vitest/config";
import { sources } from "../contract/dev/vitest-sources.ts";
import { ShardsFirst } from "./test/self-test/shards-first.ts";

// Self-test of the conformance suites: every broken server in front of the sandbox must be
// caught, a server that decided differently passes seed and fails full, and the suites pace
// themselves under a small rate-limit plan. `npm run test:self-test` in this package.
export default defineConfig({
  resolve: sources.resolve,
  test: {
    env: sources.env,
    name: "conformance-self-test",
    // One module graph per worker, not per file (as in `npm test`): each file loaded the
    // contract model, the catalogue, ajv and Dredd again (58 s and 80 CPU-s alone, against 78 s
    // and 122). No test here mocks a module; the kill records are written per process.
    isolate: false,
    include: ["test/self-test/**/*.test.ts"],
    // Prints (and writes to reports/) which statements the broken servers break and which were killed.
    globalSetup: ["test/self-test/statement-kills-report.ts"],
    // Most of a broken server's run is waiting on loopback (the sandbox, webhooks, rate-limit
    // windows): three files at a time on two cores (78 s against 89 s with two, isolated, alone).
    maxWorkers: 3,
    sequence: { sequencer: ShardsFirst },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
