/**
 * The client as a browser or Node team installs it, alone: its tarball holds the compiled
 * client and the generated types of each family and nothing else; it installs offline into an
 * empty project with nothing but its own dependency tree (nothing native, no install script);
 * a consumer compiles a call of each family with `tsc --strict` (browser-like: DOM lib, no Node
 * types) under the common `moduleResolution` settings, a wrong member name fails to compile,
 * and the entry points import at run time: the route client/README.md gives from a checkout
 * (`npm pack -w @payment-collection/client`, the tarball installed, its `app.mjs` run). The
 * tarball comes from the global setup's packing (pack-alone.test.ts packs it alone too).
 */
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { writeOfflineProject } from "../../../contract/dev/pack/offline-project.ts";
import { NPM_ENV } from "./pack-and-install.ts";

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const NAME = "@payment-collection/client";
const TSC = join(REPO_ROOT, "node_modules/typescript/bin/tsc");
const scratch = inject("packScratch");
const tarball = inject("packed").find((p) => p.name === NAME)!;
const project = join(scratch, "client-alone");
const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "client/package.json"), "utf8")) as {
  version: string;
  exports: Record<string, string | Record<string, string>>;
  types: string;
  dependencies: Record<string, string>;
};

/** What a consumer needs: the compiled client and generated types, README, package.json, LICENSE, CHANGELOG. */
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^CHANGELOG\.md$/,
  /^dist\/client\/src\/[a-z-]+\.(js|d\.ts)$/,
  /^dist\/generated\/types\/family-[ab]\.(js|d\.ts)$/,
];

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

/** `tsc` in the project with `args`: its exit code and output. */
function tsc(args: string[]): Promise<{ code: number; output: string }> {
  return run(process.execPath, [TSC, ...args], { cwd: project }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code?: number; stdout?: string }) => ({ code: typeof error.code === "number" ? error.code : -1, output: error.stdout ?? String(error) }),
  );
}

let installSeconds = 0;
beforeAll(async () => {
  // An empty ESM project with the packed client as its only dependency, installed offline
  // with `npm ci` (install scripts allowed: nothing in the tree has one, so nothing may build).
  writeOfflineProject(project, REPO_ROOT, [{ name: NAME, version: tarball.version, path: join(scratch, tarball.filename) }]);
  const began = performance.now();
  await run("npm", ["ci", "--offline"], { cwd: project, env: NPM_ENV });
  installSeconds = (performance.now() - began) / 1000;
});

describe("the client's tarball, installed alone", () => {
  it("holds the compiled client and the generated types of each family, and nothing else", () => {
    const paths = tarball.files.map((file) => file.path);
    expect(paths.filter((path) => !ALLOWED.some((pattern) => pattern.test(path)))).toEqual([]);
    expect(paths).toContain("dist/client/src/index.js");
    expect(paths).toContain(manifest.types.replace(/^\.\//, ""));
    // The OpenAPI documents belong to the contract package.
    expect(paths.filter((path) => /openapi|\.ya?ml$/.test(path))).toEqual([]);
  });

  it("installs offline with the client's dependency tree only, nothing native and no install script", () => {
    const installed = installedPackages(join(project, "node_modules"));
    const names = new Set(installed.map(([name]) => name));
    expect([...names].sort()).toEqual([NAME, ...dependencyTree()].sort());
    for (const [name, folder] of installed) {
      const { scripts = {} } = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { scripts?: Record<string, string> };
      expect(Object.keys(scripts).filter((script) => ["preinstall", "install", "postinstall"].includes(script)), name).toEqual([]);
      expect(existsSync(join(folder, "binding.gyp")), name).toBe(false);
    }
    console.log(`${tarball.filename}: offline install into an empty project ${installSeconds.toFixed(2)} s, ${names.size} packages (${[...names].sort().join(", ")})`);
  });

  it("compiles a call of each family with tsc --strict under node10, node16, nodenext and bundler resolution; a wrong member fails", async () => {
    writeFileSync(
      join(project, "calls.ts"),
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
    writeFileSync(join(project, "wrong.ts"), `import { createFamilyAClient } from "${NAME}";\nexport const call = createFamilyAClient({ apiKey: "k" }).POST("/v1/charges", { body: { amount: 1, method: "pix", referense: "x" } });\n`);
    const settings = [
      { module: "commonjs", moduleResolution: "node10" },
      { module: "node16", moduleResolution: "node16" },
      { module: "nodenext", moduleResolution: "nodenext" },
      { module: "esnext", moduleResolution: "bundler" },
    ];
    // TypeScript's own library files are not type-checked (skipDefaultLibCheck): they are
    // TypeScript's; everything the client's tarball brings is.
    const options = { target: "es2022", lib: ["es2022", "dom"], types: [], strict: true, noEmit: true, skipDefaultLibCheck: true };
    for (const setting of settings) writeFileSync(join(project, `tsconfig.${setting.moduleResolution}.json`), JSON.stringify({ compilerOptions: { ...setting, ...options }, files: ["calls.ts"] }));
    writeFileSync(join(project, "tsconfig.wrong.json"), JSON.stringify({ compilerOptions: { module: "nodenext", moduleResolution: "nodenext", ...options }, files: ["wrong.ts"] }));
    // The four settings in one `tsc -b` (one process reads the libraries once; --verbose names
    // the project each error belongs to), the wrong call beside it.
    const [right, wrong] = await Promise.all([tsc(["-b", "--verbose", ...settings.map((s) => `tsconfig.${s.moduleResolution}.json`)]), tsc(["-p", "tsconfig.wrong.json"])]);
    expect(right.output.split("\n").filter((line) => /error TS\d+/.test(line)), right.output).toEqual([]);
    expect(right.code, right.output).toBe(0);
    for (const setting of settings) expect(right.output, setting.moduleResolution).toMatch(new RegExp(`Building project '[^']*/tsconfig\\.${setting.moduleResolution}\\.json'`));
    expect(wrong.code).not.toBe(0);
    expect(wrong.output).toMatch(/wrong\.ts.*referense/s);
  });

  it("runs the app.mjs of the README's \"From a checkout\" against a family A server, and every entry point imports at run time", async () => {
    const readme = readFileSync(join(REPO_ROOT, "client/README.md"), "utf8");
    const app = /```js\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf("### From a checkout")))?.[1];
    expect(app, 'client/README.md: the js block under "### From a checkout"').toBeDefined();
    writeFileSync(join(project, "app.mjs"), app!);
    // A family A server answering GET /v1/merchant; it notes the key each request carried.
    const keys: string[] = [];
    const server = createServer((request, response) => {
      keys.push(String(request.headers["x-api-key"]));
      response.writeHead(request.url === "/v1/merchant" ? 200 : 404, { "content-type": "application/json" }).end(JSON.stringify({ id: "mer_app", object: "merchant", name: "Loja do App" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const { stdout } = await run(process.execPath, ["app.mjs"], { cwd: project, env: { ...process.env, FAMILY_A_BASE_URL: `http://127.0.0.1:${port}`, FAMILY_A_KEY: "sk_test_app" } });
      expect(stdout.trim()).toBe("mer_app Loja do App");
      expect(keys).toEqual(["sk_test_app"]);
    } finally {
      server.close();
    }
    const probe = `const m = await import("${NAME}"); const a = await import("${NAME}/types/family-a"); console.log(typeof m.createFamilyAClient, typeof m.createFamilyBClient, typeof m.verifyWebhook, typeof a.contract);`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", probe], { cwd: project });
    expect(stdout.trim()).toBe("function function function object");
  });
});
