/**
 * `payment-collection portal`: its options (bad input is one line and exit 2, never a start),
 * the origins a sandbox it starts must grant, and the console's configuration it serves.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { portalOptions, portalOrigins, startPortal } from "../src/portal-command.ts";

afterEach(() => vi.restoreAllMocks());

function refused(argv: string[]): { code: number | object; lines: string[] } {
  const lines: string[] = [];
  vi.spyOn(console, "error").mockImplementation((...args) => void lines.push(args.join(" ")));
  return { code: portalOptions(argv), lines };
}

describe("payment-collection portal options", () => {
  it("defaults to port 4000 on the loopback with a sandbox on a free port", () => {
    expect(portalOptions([])).toEqual({ host: "127.0.0.1", port: 4000, sandboxPort: 0, server: undefined, dir: undefined, json: false });
    expect(portalOptions(["--server", "http://127.0.0.1:4010/", "--port", "0"])).toMatchObject({ server: "http://127.0.0.1:4010", port: 0 });
  });

  it("refuses bad values with one line and exit 2", () => {
    for (const argv of [["--port", "70000"], ["--sandbox-port", "x"], ["--server", "not a url"], ["--server", "ftp://host"], ["--server", "http://a", "--sandbox-port", "1"]]) {
      const { code, lines } = refused(argv);
      expect(code, argv.join(" ")).toBe(2);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^payment-collection portal: /);
      expect(lines[0]).not.toContain("\n");
    }
  });

  it("grants both loopback names of the portal's origin", () => {
    expect(portalOrigins("127.0.0.1", 4000)).toEqual(expect.arrayContaining(["http://127.0.0.1:4000", "http://localhost:4000"]));
    expect(portalOrigins("192.0.2.10", 8080)).toEqual(["http://192.0.2.10:8080"]);
  });
});

describe("startPortal with --server", () => {
  it("serves the built folder and tells the console the given server, with no key", async () => {
    const dir = mkdtempSync(join(tmpdir(), "portal-command-"));
    mkdirSync(join(dir, "assets"));
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>portal</title>");
    writeFileSync(join(dir, "assets", "console-config.js"), "window.PORTAL_CONSOLE_CONFIG = {};\n");
    const portal = await startPortal({ host: "127.0.0.1", port: 0, sandboxPort: 0, server: "http://127.0.0.1:4999", dir, json: false });
    try {
      expect(portal.startedSandbox).toBe(false);
      expect(await (await fetch(portal.url)).text()).toContain("<title>portal</title>");
      const config = await (await fetch(`${portal.url}assets/console-config.js`)).text();
      const parsed = JSON.parse(config.replace(/^window\.PORTAL_CONSOLE_CONFIG = /, "").replace(/;\s*$/, "")) as Record<string, unknown>;
      expect(parsed).toEqual({ sandbox: "http://127.0.0.1:4999" });
    } finally {
      await portal.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
