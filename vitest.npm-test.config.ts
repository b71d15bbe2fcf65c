import { readFileSync } from "node:fs";
import { defineConfig, type ViteUserConfig } from "vitest/config";
import { sources } from "./contract/dev/vitest-sources.ts";
import cli from "./cli/vitest.config.ts";
import client from "./client/vitest.config.ts";
import conformance from "./conformance/vitest.config.ts";
import contract from "./contract/vitest.config.ts";
import portal from "./portal/vitest.config.ts";
import sandbox from "./sandbox/vitest.config.ts";

/**
 * `npm test`: every package's suite, as its own vitest.config.ts selects it, in one project, so
 * that a worker keeps one module graph for whatever files it runs (one project per package
 * gave each package's workers their own: the contract model, ajv, Prism and Dredd loaded again,
 * and each source transformed once per package). Every package's tests already run without
 * isolation; none mocks a module or changes a global another file reads. vitest.config.ts keeps
 * the projects for `npx vitest run --project <package>`.
 */
const PACKAGES: Record<string, ViteUserConfig> = { contract, client, conformance, sandbox, portal, cli };
const { workspaces } = JSON.parse(readFileSync(new URL("package.json", import.meta.url), "utf8")) as { workspaces: string[] };
if (workspaces.join() !== Object.keys(PACKAGES).join()) throw new Error(`vitest.npm-test.config.ts names the packages ${Object.keys(PACKAGES).join(", ")}; package.json's workspaces are ${workspaces.join(", ")}`);

const inPackage = (name: string, patterns: readonly string[] | string | undefined) => [patterns ?? []].flat().map((pattern) => `${name}/${pattern}`);
const each = (pick: (test: NonNullable<ViteUserConfig["test"]>) => readonly string[] | string | undefined) =>
  Object.entries(PACKAGES).flatMap(([name, config]) => inPackage(name, pick(config.test ?? {})));
const longest = (pick: (test: NonNullable<ViteUserConfig["test"]>) => number | undefined) => Math.max(...Object.values(PACKAGES).map((config) => pick(config.test ?? {}) ?? 0));

export default defineConfig({
  resolve: sources.resolve,
  test: {
    env: sources.env,
    isolate: false,
    include: each((test) => test.include),
    exclude: each((test) => test.exclude ?? ["**/node_modules/**", "**/.git/**"]),
    globalSetup: each((test) => test.globalSetup),
    testTimeout: longest((test) => test.testTimeout),
    hookTimeout: longest((test) => test.hookTimeout),
    // Three test files at a time on two cores: many tests wait on servers, browsers, child
    // processes and webhook retries rather than compute (166 s with two, alone on the machine).
    maxWorkers: 3,
  },
});
