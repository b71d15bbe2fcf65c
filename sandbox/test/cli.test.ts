/**
 * `npm run sandbox`, the documented way to start the sandbox: it starts, answers, and its
 * node process runs with the sandbox's node options (node-flags.ts), which the benchmark also
 * uses, so the figures it prints are those of the sandbox as users start it.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { SANDBOX_NODE_FLAGS } from "../src/node-flags.ts";
import { ROOT } from "@payment-collection/contract/build/contract-build.ts";

const dataDir = mkdtempSync(join(tmpdir(), "sandbox-cli-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Command lines of the running processes whose arguments include `marker` (Linux /proc). */
function commandLinesWith(marker: string): string[][] {
  const found: string[][] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
      if (args.includes(marker)) found.push(args);
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

describe("npm run sandbox", () => {
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
      const node = commandLinesWith(dataDir).find((args) => args.some((arg) => arg.endsWith("sandbox/src/cli.ts")) && !args.includes("run"));
      expect(node).toBeDefined();
      for (const flag of SANDBOX_NODE_FLAGS) expect(node).toContain(flag);
    } finally {
      child.removeAllListeners("exit");
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid!, "SIGINT");
      await exited;
    }
  });
});
