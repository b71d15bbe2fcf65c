/**
 * Install test: what a team gets from the registry. Packs every package of the repository,
 * installs the tarballs offline (the tarballs and the npm cache, nothing else) into an empty
 * project, and uses the products from there as a user would: `npx payment-collection` with
 * --help and --version of every subcommand, the sandbox started with npx writing a target
 * file, the conformance suites run against it with npx, the JUnit file they write, the mock's
 * message when its optional Prism is not installed, and the suites' when Dredd is not, the
 * contract's generated types compiled by a TypeScript consumer. The packages run as compiled
 * JavaScript: no TypeScript loader (tsx, esbuild) is installed. The tarballs are packed once by
 * the global setup; `client.test.ts` installs the client alone.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { readFileSync, existsSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ciExamples } from "./ci-examples.ts";
import { installOffline, NPM_ENV } from "./pack-and-install.ts";

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const WORKSPACES = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { workspaces: string[] }).workspaces;
const SUBCOMMANDS = ["conformance", "verify", "mock", "sandbox", "portal", "contract"];
const scratch = inject("packScratch");
const packed = inject("packed");
const project = join(scratch, "project");
const env = NPM_ENV;
let installSeconds = 0;
const started: ChildProcess[] = [];

/** `npx --no-install payment-collection ...` in the empty project: exit code, stdout, stderr. */
async function npx(args: string[], timeout = 60_000): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run("npx", ["--no-install", "payment-collection", ...args], { cwd: project, env, timeout, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

beforeAll(async () => {
  // Every package, and Dredd beside them: a team that runs the Dredd suites installs their
  // optional peer dependency, as docs/cli.md says.
  installSeconds = await installOffline({ repoRoot: REPO_ROOT, scratch, project, packed, direct: [...packed.map((p) => p.name), "dredd"] });
});

afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGTERM");
});

describe("every package", () => {
  it("packs one tarball per workspace with the LICENSE, a CHANGELOG, a README and publishing metadata", () => {
    expect(packed.map((p) => p.name).sort()).toEqual(WORKSPACES.map((w) => JSON.parse(readFileSync(join(REPO_ROOT, w, "package.json"), "utf8")).name).sort());
    for (const tarball of packed) {
      const paths = tarball.files.map((f) => f.path);
      expect(paths, tarball.name).toEqual(expect.arrayContaining(["LICENSE", "CHANGELOG.md", "README.md", "package.json"]));
      expect(paths.filter((p) => /(^|\/)test\/|\.test\.ts$/.test(p)), `${tarball.name} ships no tests`).toEqual([]);
      const manifest = JSON.parse(readFileSync(join(project, "node_modules", tarball.name, "package.json"), "utf8"));
      expect(manifest.repository?.url, tarball.name).toMatch(/^git\+https:\/\//);
      expect(manifest.homepage, tarball.name).toMatch(/^https:\/\//);
      expect(manifest.bugs?.url, tarball.name).toMatch(/^https:\/\//);
      expect(manifest.publishConfig?.access, tarball.name).toBe("public");
    }
    console.log(packed.map((p) => `${p.filename}: ${(p.size / 1024).toFixed(0)} KiB packed, ${(p.unpackedSize / 1024).toFixed(0)} KiB unpacked, ${p.files.length} files`).join("\n"));
    console.log(`offline install of all ${packed.length} tarballs into an empty project: ${installSeconds.toFixed(1)} s`);
  });

  it("holds every file its exports promise", () => {
    for (const tarball of packed) {
      const paths = tarball.files.map((f) => f.path);
      const manifest = JSON.parse(readFileSync(join(project, "node_modules", tarball.name, "package.json"), "utf8")) as { exports: Record<string, unknown>; types?: string; bin?: Record<string, string> };
      const targets = Object.values(manifest.exports).flatMap((t) => (typeof t === "string" ? [t] : Object.values(t as Record<string, string>)));
      for (const target of [...targets, ...(manifest.types ? [manifest.types] : []), ...Object.values(manifest.bin ?? {})]) {
        const path = target.replace(/^\.\//, "");
        if (path.includes("*")) {
          // A pattern promises a folder: it must be there with files in it.
          const folder = path.slice(0, path.indexOf("*"));
          expect(paths.some((p) => p.startsWith(folder)), `${tarball.name}: ${target}`).toBe(true);
        } else expect(paths, `${tarball.name}: ${target}`).toContain(path);
      }
    }
  });

  it("publishes compiled JavaScript: no TypeScript sources to load, no tsx or esbuild installed", async () => {
    for (const tarball of packed) {
      const paths = tarball.files.map((f) => f.path);
      expect(paths.filter((p) => p.startsWith("src/")), `${tarball.name} ships dist/, not src/`).toEqual([]);
      const manifest = JSON.parse(readFileSync(join(project, "node_modules", tarball.name, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
      expect(Object.keys(manifest.dependencies ?? {}), tarball.name).not.toContain("tsx");
    }
    const { stdout } = await run("npm", ["ls", "tsx", "esbuild", "--all", "--parseable"], { cwd: project, env }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
    expect(stdout.trim(), "npm ls tsx esbuild").toBe("");
    for (const loader of ["tsx", "esbuild"]) expect(existsSync(join(project, "node_modules", loader)), loader).toBe(false);
  });

  it("brings the contract's documents: contract path lists files that exist in the installed package, the same files as this repository's", async () => {
    const { code, stdout } = await npx(["contract", "path"]);
    expect(code).toBe(0);
    const files = stdout.trim().split("\n");
    expect(files).toHaveLength(12);
    for (const file of files) {
      expect(file.startsWith(join(project, "node_modules/@payment-collection/contract/generated/openapi/"))).toBe(true);
      expect(existsSync(file), file).toBe(true);
    }
    expect((await npx(["contract", "validate"])).code).toBe(0);
    // The documents are exported by path, as the contract's README shows.
    const probe = `import document from "@payment-collection/contract/openapi/3.1/family-a.json" with { type: "json" }; console.log(document.openapi);`;
    expect((await run(process.execPath, ["--input-type=module", "-e", probe], { cwd: project })).stdout.trim()).toBe("3.1.0");
    // The same contract as this repository's, file for file: a bundle written here verifies
    // with an installed CLI, and the other way round.
    const digest = (cwd: string, module: string, loader: string[]) =>
      run(process.execPath, [...loader, "--input-type=module", "-e", `import { contractDigest } from "${module}"; console.log(JSON.stringify(contractDigest().files));`], { cwd }).then(({ stdout }) => JSON.parse(stdout) as Record<string, string>);
    const [installed, repository] = await Promise.all([
      digest(project, "@payment-collection/conformance/bundle/contract-digest.ts", []),
      digest(REPO_ROOT, "./conformance/src/bundle/contract-digest.ts", ["--import", "tsx"]),
    ]);
    expect(installed).toEqual(repository);
  });
  it("publishes the contract's generated types as declarations: a strict consumer compiles against the .d.ts, a wrong member fails, the facts they carry import at run time", async () => {
    const types = "@payment-collection/contract/types";
    writeFileSync(
      join(project, "contract-types.ts"),
      [
        `import { contract, type components as A } from "${types}/family-a.ts";`,
        `import type { paths as B } from "${types}/family-b.ts";`,
        `export const status: A["schemas"]["Charge"]["status"] = "pending";`,
        `export type GetCustomer = B["/api/v1/sdk/customers/{id}"]["get"];`,
        `export const header: string = contract.apiKeyHeader;`,
      ].join("\n"),
    );
    writeFileSync(join(project, "contract-types-wrong.ts"), `import type { components as A } from "${types}/family-a.ts";\nexport const status: A["schemas"]["Charge"]["status"] = "refundedd";\n`);
    // TypeScript's own library files are not type-checked (skipDefaultLibCheck): the package's declarations are.
    const options = { module: "nodenext", moduleResolution: "nodenext", target: "es2022", lib: ["es2022"], types: [], strict: true, noEmit: true, skipDefaultLibCheck: true };
    for (const file of ["contract-types", "contract-types-wrong"]) writeFileSync(join(project, `tsconfig.${file}.json`), JSON.stringify({ compilerOptions: options, files: [`${file}.ts`] }));
    const tsc = (file: string) =>
      run(process.execPath, [join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-p", `tsconfig.${file}.json`, "--listFiles"], { cwd: project }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code?: number; stdout?: string }) => ({ code: error.code ?? -1, stdout: error.stdout ?? "" }),
      );
    const [right, wrong] = await Promise.all([tsc("contract-types"), tsc("contract-types-wrong")]);
    expect(right.code, right.stdout).toBe(0);
    const read = right.stdout.split("\n").filter((file) => file.includes("/node_modules/@payment-collection/contract/"));
    expect(read.map((file) => file.slice(file.indexOf("/node_modules/") + 1)).sort()).toEqual(["node_modules/@payment-collection/contract/dist/types/family-a.d.ts", "node_modules/@payment-collection/contract/dist/types/family-b.d.ts"]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stdout).toMatch(/contract-types-wrong\.ts.*"refundedd"/s);
    const probe = `import { contract } from "${types}/family-a.ts"; console.log(contract.apiKeyHeader);`;
    expect((await run(process.execPath, ["--input-type=module", "-e", probe], { cwd: project })).stdout.trim()).toBe("x-api-key");
  });
});

describe("npx payment-collection in an empty project", () => {
  it("answers --help of itself and of every subcommand with its usage, exit 0", async () => {
    const top = await npx(["--help"]);
    expect(top.code).toBe(0);
    for (const name of SUBCOMMANDS) expect(top.stdout).toContain(`  ${name} `);
    const answers = await Promise.all(SUBCOMMANDS.map((name) => npx([name, "--help"])));
    answers.forEach((answer, i) => {
      expect(answer.code, SUBCOMMANDS[i]).toBe(0);
      expect(answer.stdout, SUBCOMMANDS[i]).toContain(`usage: payment-collection ${SUBCOMMANDS[i]}`);
    });
  });

  it("answers --version everywhere with the installed versions", async () => {
    const answers = await Promise.all([[], ...SUBCOMMANDS.map((s) => [s])].map((prefix) => npx([...prefix, "--version"])));
    for (const answer of answers) {
      expect(answer.code).toBe(0);
      expect(answer.stdout.trim()).toMatch(/^payment-collection 0\.\d+\.\d+ \(contract 0\.\d+\.\d+, conformance 0\.\d+\.\d+, sandbox 0\.\d+\.\d+\)$/);
    }
  });

  it("mock and conformance --mock without its optional Prism: one line saying how to install it, exit 2", async () => {
    expect(existsSync(join(project, "node_modules/@stoplight/prism-cli")), "Prism is not installed with the CLI").toBe(false);
    const { peerDependencies } = JSON.parse(readFileSync(join(REPO_ROOT, "conformance/package.json"), "utf8")) as { peerDependencies: Record<string, string> };
    for (const [argv, prefix] of [[["mock"], "payment-collection mock: "], [["conformance", "--mock"], "payment-collection conformance: --mock needs Prism: "]] as const) {
      const answer = await npx([...argv]);
      expect(answer.code, argv.join(" ")).toBe(2);
      expect(answer.stdout).toBe("");
      expect(answer.stderr.trim().split("\n")).toEqual([expect.stringMatching(new RegExp(`^${prefix}.*npm install --save-dev @stoplight/prism-cli@${peerDependencies["@stoplight/prism-cli"]!.replace(/\./g, "\\.")}$`))]);
    }
  });

  it("conformance without its optional Dredd: one line saying how to install it or to run without it, exit 2", async () => {
    const { peerDependencies } = JSON.parse(readFileSync(join(REPO_ROOT, "conformance/package.json"), "utf8")) as { peerDependencies: Record<string, string> };
    const dredd = join(project, "node_modules/dredd");
    const away = join(project, "node_modules/.dredd-away");
    renameSync(dredd, away);
    try {
      const answer = await npx(["conformance", "--target", "target.json"]);
      expect(answer.code).toBe(2);
      expect(answer.stdout).toBe("");
      const install = `npm install --save-dev dredd@${peerDependencies.dredd!.replace(/\./g, "\\.")}`;
      expect(answer.stderr.trim().split("\n")).toEqual([expect.stringMatching(new RegExp(`^payment-collection conformance: Dredd is not installed .*${install}, or run the other suites with --no-dredd$`))]);
    } finally {
      renameSync(away, dredd);
    }
  });

  it("runs the CI examples of docs/cli.md: the suites against the sandbox, a JUnit report with no failure and the HTML report", async () => {
    const { github, gitlab } = ciExamples(readFileSync(join(REPO_ROOT, "docs/cli.md"), "utf8"));
    // The project is installed already: the examples' `npm ci` is the install above.
    const commands = github.filter((command) => command !== "npm ci");
    expect(gitlab.filter((command) => command !== "npm ci"), "both examples run the same commands").toEqual(commands);
    // One shell for all steps, as in a CI job; its own process group, so that the server it
    // left running in the background is stopped with it.
    const job = spawn("bash", ["-c", ["set -e", ...commands].join("\n")], { cwd: project, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    started.push(job);
    let output = "";
    job.stdout!.on("data", (chunk) => (output += chunk));
    job.stderr!.on("data", (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => job.once("exit", resolve));
    try {
      process.kill(-job.pid!, "SIGTERM");
    } catch {
      // the group is gone already
    }
    expect(code, output.slice(-3000)).toBe(0);
    const junit = readFileSync(join(project, "reports/conformance.xml"), "utf8");
    expect(junit).toMatch(/^<\?xml/);
    expect(junit).toMatch(/<testsuites[^>]* tests="[1-9]\d*"/);
    expect(junit).not.toMatch(/<failure|<error/);
    // The readable report of the same run, from the installed package.
    expect(readFileSync(join(project, "reports/conformance.html"), "utf8")).toContain('<span class="word">PASS</span>');
  });
});
