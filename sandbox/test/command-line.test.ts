/**
 * `payment-collection sandbox` on a port someone else listens on: one line naming the option
 * that picks another, exit 2, nothing left running. (Bad options: cli/test/command-line.test.ts.)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import { sandboxCommand } from "../src/cli.ts";

afterEach(() => vi.restoreAllMocks());

it("a port in use: one line, which option picks another, exit 2", async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  const port = (taken.address() as AddressInfo).port;
  const dataDir = mkdtempSync(join(tmpdir(), "sandbox-port-in-use-"));
  const lines: string[] = [];
  vi.spyOn(console, "error").mockImplementation((...parts: unknown[]) => void lines.push(parts.join(" ")));
  try {
    expect(await sandboxCommand(["--port", String(port), "--data-dir", dataDir], {})).toBe(2);
    expect(lines).toEqual([`payment-collection sandbox: port ${port} on 127.0.0.1 is in use; pick another with --port (0: any free port)`]);
  } finally {
    await new Promise((resolve) => taken.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
});
