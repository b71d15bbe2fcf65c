/**
 * `npm run sandbox`, the documented way to start the sandbox from this repository, is
 * `payment-collection sandbox`, which runs the sandbox in a child node process with the
 * sandbox's node options (node-flags.ts; the benchmark uses the same ones, so the figures it
 * prints are those of the sandbox as users start it). The test runs the command as a user
 * does, checks that the sandbox answers, that its node process carries those options, and that
 * SIGINT stops all of it.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { SANDBOX_NODE_FLAGS } from "@payment-collection/sandbox/node-flags.ts";
import { ROOT } from "@payment-collection/contract/build/contract-build.ts";

// In this repository the command runs the sandbox from its TypeScript source.
const SANDBOX_ENTRY = join(ROOT, "sandbox/src/cli.ts");
const dataDir = mkdtempSync(join(tmpdir(), "sandbox-cli-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

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
  it("is payment-collection sandbox", () => {
    const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(root.scripts.sandbox).toBe("payment-collection sandbox");
  });

  it.runIf(process.platform === "linux")("starts the sandbox in a node process with the sandbox's node options, stopped by SIGINT", async () => {
    const child = spawn("npm", ["run", "--silent", "sandbox", "--", "--port", "0", "--data-dir", dataDir, "--json"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
      detached: true, // its own process group, stopped as a whole below
    });
    let exited: Promise<unknown> | undefined;
    try {
      const banner = await new Promise<{ url: string; keys: { familyA: { primary: string } } }>((resolve, reject) => {
        child.once("exit", (code) => reject(new Error(`npm run sandbox exited with ${code}`)));
        createInterface({ input: child.stdout! }).once("line", (line) => resolve(JSON.parse(line)));
      });
      const merchant = await fetch(`${banner.url}/v1/merchant`, { headers: { "x-api-key": banner.keys.familyA.primary } });
      expect(merchant.status).toBe(200);
      // The sandbox's own node process (npm's and the CLI's are node too, but run other files).
      const started = processesWith(dataDir).filter(({ args }) => basename(args[0]!).startsWith("node") && args.includes(SANDBOX_ENTRY));
      expect(started, JSON.stringify(processesWith(dataDir))).toHaveLength(1);
      const [node] = started;
      for (const flag of SANDBOX_NODE_FLAGS) expect(node!.args.slice(0, node!.args.indexOf(SANDBOX_ENTRY))).toContain(flag);
      expect(node!.args.slice(node!.args.indexOf(SANDBOX_ENTRY) + 1)).toEqual(["--port", "0", "--data-dir", dataDir, "--json"]);
    } finally {
      child.removeAllListeners("exit");
      exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid!, "SIGINT");
    }
    await exited;
    // Ctrl-C reaches the whole foreground group: nothing of the sandbox outlives it (it may
    // take a moment to close its store after npm has gone).
    for (let i = 0; i < 50 && processesWith(dataDir).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(processesWith(dataDir)).toEqual([]);
  });
});
