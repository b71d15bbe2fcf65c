/**
 * Package shape: `npm pack` of the client workspace holds what a consumer needs and nothing
 * else; the packed tarball installs offline (from the npm cache) into an empty project with
 * nothing but the client's own dependency tree (nothing native, no install scripts); and a
 * consumer project compiles a call of each family with `tsc --strict` (browser-like: DOM
 * lib, no Node types), then imports it at run time.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { writeOfflineProject } from "../../scripts/pack/offline-project.ts";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
/** The client workspace (client/), and the repository root that holds the lockfile and TypeScript. */
const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const REPO_ROOT = join(PACKAGE_DIR, "..");
const NAME = "@payment-collection/client";
const scratch = mkdtempSync(join(tmpdir(), "client-package-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: Array<{ path: string; size: number }>;
}

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, npm_config_update_notifier: "false" } });
}

function pack(extra: string[]): PackResult {
  const output = run(npm, ["pack", "--json", ...extra], PACKAGE_DIR);
  return (JSON.parse(output.slice(output.indexOf("["))) as PackResult[])[0]!;
}

/** What a consumer needs: the compiled client and generated types, README, package.json (LICENSE, CHANGELOG if present). */
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^CHANGELOG\.md$/,
  /^dist\/client\/src\/[a-z-]+\.(js|d\.ts)$/,
  /^dist\/generated\/types\/family-[ab]\.(js|d\.ts)$/,
];

const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as {
  version: string;
  exports: Record<string, string | Record<string, string>>;
  types: string;
  dependencies: Record<string, string>;
};

/**
 * The client's dependency tree as the repository's lockfile resolves it: its dependencies,
 * their dependencies, and so on (names only; a consumer's install may nest them differently).
 */
function dependencyTree(): Set<string> {
  const packages = JSON.parse(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8")).packages as Record<string, { dependencies?: Record<string, string> }>;
  const tree = new Set<string>();
  const pending = Object.keys(manifest.dependencies);
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (tree.has(name)) continue;
    tree.add(name);
    const entry = packages[`client/node_modules/${name}`] ?? packages[`node_modules/${name}`];
    if (!entry) throw new Error(`${name} is not in package-lock.json`);
    pending.push(...Object.keys(entry.dependencies ?? {}));
  }
  return tree;
}

/** Every package folder under a node_modules folder, nested ones included: [name, folder]. */
function installedPackages(nodeModules: string): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  if (!existsSync(nodeModules)) return found;
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith(".")) continue; // .package-lock.json, .bin
    const scoped = entry.startsWith("@") ? readdirSync(join(nodeModules, entry)).map((inner) => `${entry}/${inner}`) : [entry];
    for (const name of scoped) {
      const folder = join(nodeModules, name);
      found.push([name, folder], ...installedPackages(join(folder, "node_modules")));
    }
  }
  return found;
}

describe("npm package", () => {
  let tarball = "";

  /**
   * An empty ESM project with the packed client as its only dependency, installed offline with
   * `npm ci`: its lockfile pins the client's dependencies to this repository's lockfile, so npm
   * takes them from the cache by integrity (a plain `npm install --offline` of a tarball needs
   * registry documents an `npm ci` cache does not hold).
   */
  function installTarball(project: string): void {
    writeOfflineProject(project, REPO_ROOT, [{ name: NAME, version: manifest.version, path: tarball }]);
    run(npm, ["ci", "--offline", "--no-audit", "--no-fund"], project);
  }

  it("packs the compiled client and the generated types of each family, and nothing else", () => {
    const result = pack(["--dry-run"]);
    const paths = result.files.map((file) => file.path);
    const stray = paths.filter((path) => !ALLOWED.some((pattern) => pattern.test(path)));
    expect(stray).toEqual([]);
    // Every export target is in the package.
    const targets: string[] = [];
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (subpath.includes("*")) continue;
      targets.push(...(typeof target === "string" ? [target] : Object.values(target)));
    }
    for (const target of targets) expect(paths, target).toContain(target.replace(/^\.\//, ""));
    expect(paths).toContain("dist/client/src/index.js");
    expect(paths).toContain("README.md");
    expect(paths).toContain(manifest.types.replace(/^\.\//, ""));
    // The OpenAPI documents belong to the contract package.
    expect(paths.filter((path) => /openapi|\.ya?ml$/.test(path))).toEqual([]);
  });

  it("installs offline into an empty project with the client's dependency tree only, nothing native", () => {
    const packed = pack(["--pack-destination", scratch]);
    tarball = join(scratch, packed.filename);
    const project = join(scratch, "empty");
    const started = performance.now();
    // Install scripts allowed: nothing in the tree has one, so nothing may build.
    installTarball(project);
    const seconds = (performance.now() - started) / 1000;

    const installed = installedPackages(join(project, "node_modules"));
    const names = new Set(installed.map(([name]) => name));
    expect(names.has("better-sqlite3")).toBe(false);
    expect([...names].sort()).toEqual([NAME, ...dependencyTree()].sort());
    for (const [name, folder] of installed) {
      const { scripts = {} } = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { scripts?: Record<string, string> };
      expect(Object.keys(scripts).filter((script) => ["preinstall", "install", "postinstall"].includes(script)), name).toEqual([]);
      expect(existsSync(join(folder, "binding.gyp")), name).toBe(false);
    }
    console.log(
      `packed ${packed.filename}: ${(packed.size / 1024).toFixed(1)} KiB (${(packed.unpackedSize / 1024).toFixed(1)} KiB unpacked, ${packed.files.length} files); ` +
        `offline install into an empty project: ${seconds.toFixed(2)} s, ${names.size} packages (${[...names].sort().join(", ")})`,
    );
  }, 180_000);

  it("compiles a call of each family with tsc --strict against the installed package, and imports it at run time", () => {
    expect(tarball).not.toBe("");
    const consumer = join(scratch, "consumer");
    installTarball(consumer);
    writeFileSync(
      join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2022", "DOM"], types: [], strict: true, noEmit: true },
        include: ["*.ts"],
      }),
    );
    writeFileSync(
      join(consumer, "calls.ts"),
      [
        `import { createFamilyAClient, createFamilyBClient, isFamilyBError, FamilyAApiError } from "${NAME}";`,
        `import type { components as A } from "${NAME}/types/family-a";`,
        `import type { components as B } from "${NAME}/types/family-b";`,
        `const familyA = createFamilyAClient({ baseUrl: "https://api.example.com", apiKey: "sk_live_x" });`,
        `export async function createCharge(): Promise<A["schemas"]["Charge"]> {`,
        `  return familyA.unwrap(familyA.POST("/v1/charges", { body: { amount: 1990, method: "pix" } }));`,
        `}`,
        `const familyB = createFamilyBClient({ environment: "sandbox", apiKey: "pcs_test_x" });`,
        `export async function getCustomer(id: string): Promise<B["schemas"]["Customer"]> {`,
        `  return familyB.unwrap(familyB.GET("/api/v1/sdk/customers/{id}", { params: { path: { id } } }));`,
        `}`,
        `export function codeOf(error: unknown): string {`,
        `  if (error instanceof FamilyAApiError) return error.code;`,
        `  if (isFamilyBError(error)) { switch (error.code) { case "ODE002": return error.version; default: return error.code; } }`,
        `  return "unknown";`,
        `}`,
      ].join("\n"),
    );
    const tsc = join(REPO_ROOT, "node_modules/typescript/bin/tsc");
    expect(() => run(process.execPath, [tsc, "-p", consumer, "--strict"], consumer)).not.toThrow();

    // A wrong field name in the consumer fails to compile against the installed package.
    writeFileSync(join(consumer, "wrong.ts"), `import { createFamilyAClient } from "${NAME}";\nawait createFamilyAClient({ apiKey: "k" }).POST("/v1/charges", { body: { amount: 1, method: "pix", referense: "x" } });\n`);
    let failure = "";
    try {
      run(process.execPath, [tsc, "-p", consumer, "--strict"], consumer);
    } catch (error) {
      failure = String((error as { stdout?: string }).stdout);
    }
    expect(failure).toMatch(/wrong\.ts.*referense/s);

    // Run time: the ESM entry and the types subpath resolve from the installed package.
    const probe = `const m = await import("${NAME}"); const a = await import("${NAME}/types/family-a"); console.log(typeof m.createFamilyAClient, typeof m.createFamilyBClient, typeof m.verifyWebhook, typeof a.contract);`;
    expect(run(process.execPath, ["--input-type=module", "-e", probe], consumer).trim()).toBe("function function function object");
  }, 180_000);
});
