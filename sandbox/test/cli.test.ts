/**
 * `npm run sandbox`, the documented way to start the sandbox: from the repository root it runs
 * `npm start -w @payment-collection/sandbox`, whose script (sandbox/package.json) starts node
 * on src/cli.ts. The test runs that command as a user does, checks that the sandbox answers,
 * and that its node process is the one the package's start script describes, with the
 * sandbox's node options (node-flags.ts), which the benchmark also uses, so the figures it
 * prints are those of the sandbox as users start it.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { SANDBOX_NODE_FLAGS } from "../src/node-flags.ts";
import { ROOT } from "@payment-collection/contract/build/contract-build.ts";

const PACKAGE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
const dataDir = mkdtempSync(join(tmpdir(), "sandbox-cli-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The package's start script, as words: `node`, its options, the entry file. */
function startScript(): string[] {
  const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as { scripts: { start: string } };
  return manifest.scripts.start.trim().split(/\s+/);
}

interface ProcessInfo {
  args: string[];
  cwd: string;
}

/** The running processes whose arguments include `marker` (Linux /proc). */
function processesWith(marker: string): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
      if (args.includes(marker)) found.push({ args, cwd: readlinkSync(`/proc/${pid}/cwd`) });
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

describe("npm run sandbox", () => {
  it("is the package's start script, which runs node with the sandbox's node options", () => {
    const [command, ...args] = startScript();
    expect(command).toBe("node");
    for (const flag of SANDBOX_NODE_FLAGS) expect(args).toContain(flag);
    expect(args.at(-1)).toBe("src/cli.ts");
    const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(root.scripts.sandbox).toMatch(/^npm start -w @payment-collection\/sandbox\b/);
  });

  it.runIf(process.platform === "linux")("starts the sandbox in a node process with the sandbox's node options", async () => {
    const child = spawn("npm", ["run", "--silent", "sandbox", "--", "--port", "0", "--data-dir", dataDir, "--json"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
      detached: true, // its own process group, stopped as a whole below
    });
    try {
      const banner = await new Promise<{ url: string; keys: { familyA: { primary: string } } }>((resolve, reject) => {
        child.once("exit", (code) => reject(new Error(`npm run sandbox exited with ${code}`)));
        createInterface({ input: child.stdout! }).once("line", (line) => resolve(JSON.parse(line)));
      });
      const merchant = await fetch(`${banner.url}/v1/merchant`, { headers: { "x-api-key": banner.keys.familyA.primary } });
      expect(merchant.status).toBe(200);
      // The node process the start script launched: node, then the script's words, then ours
      // (npm's own processes are node too, but run npm's entry file).
      const [, ...scriptArgs] = startScript();
      const started = processesWith(dataDir).filter(
        ({ args }) => basename(args[0]).startsWith("node") && scriptArgs.every((word, i) => args[1 + i] === word),
      );
      expect(started, JSON.stringify(processesWith(dataDir))).toHaveLength(1);
      const [node] = started;
      expect(node.cwd).toBe(PACKAGE_DIR);
      for (const flag of SANDBOX_NODE_FLAGS) expect(node.args).toContain(flag);
      expect(node.args.slice(1 + scriptArgs.length)).toEqual(["--port", "0", "--data-dir", dataDir, "--json"]);
    } finally {
      child.removeAllListeners("exit");
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid!, "SIGINT");
      await exited;
    }
  });
});
