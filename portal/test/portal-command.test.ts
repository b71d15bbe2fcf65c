/**
 * `payment-collection portal`: its options (bad input is one line and exit 2, never a start),
 * the origins a sandbox it starts must grant, and the console's configuration it serves.
 */
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { consoleConfigScript, type ConsoleConfig } from "../src/console/config.ts";
import { portalCommand, portalOptions, portalOrigins, startPortal } from "../src/portal-command.ts";

// What the build writes is portal.build.test.ts's; here a build leaves the two files that mark a built portal.
vi.mock("../src/site.ts", () => ({
  async buildPortal({ outDir, console }: { outDir: string; console?: ConsoleConfig }) {
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(join(outDir, "assets"), { recursive: true });
    writeFileSync(join(outDir, "index.html"), "<!doctype html><title>portal</title>");
    writeFileSync(join(outDir, "assets", "console-config.js"), consoleConfigScript(console ?? {}));
    return { outDir, pages: [{ file: "index.html" }], siteBytes: 2 * 1024 * 1024 };
  },
}));

afterEach(() => vi.restoreAllMocks());

function refused(argv: string[]): { code: number | object; lines: string[] } {
  const lines: string[] = [];
  vi.spyOn(console, "error").mockImplementation((...args) => void lines.push(args.join(" ")));
  return { code: portalOptions(argv), lines };
}

describe("payment-collection portal options", () => {
  it("defaults to port 4000 on the loopback with a sandbox on a free port", () => {
    expect(portalOptions([])).toEqual({ host: "127.0.0.1", port: 4000, sandboxPort: 0, server: undefined, dir: undefined, out: undefined, json: false });
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

describe("payment-collection portal --out DIR", () => {
  const consoleConfig = (dir: string) => readFileSync(join(dir, "assets", "console-config.js"), "utf8");

  it("builds a static portal whose console names --server, and exits 0 without serving", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "portal-out-")), "site");
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((...args) => void lines.push(args.join(" ")));
    try {
      expect(await portalCommand(["--out", out, "--server", "https://sandbox.example.com/", "--json"])).toBe(0);
      expect(JSON.parse(lines[0]!)).toEqual({ built: out, pages: 1, siteBytes: 2 * 1024 * 1024, server: "https://sandbox.example.com" });
      expect(consoleConfig(out)).toContain('"sandbox":"https://sandbox.example.com"');
      // A folder it built is built again in place.
      expect(await portalCommand(["--out", out])).toBe(0);
      expect(lines[1]).toContain(`built into ${out}: 1 pages, 2.0 MiB`);
      expect(consoleConfig(out)).not.toContain("example.com");
    } finally {
      rmSync(join(out, ".."), { recursive: true, force: true });
    }
  });

  it("refuses a folder of other files, keeping them, and the serving options (exit 2)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "portal-out-"));
    writeFileSync(join(dir, "notes.txt"), "mine");
    try {
      const foreign = refused(["--out", dir]);
      expect(foreign.code).toBe(2);
      expect(foreign.lines).toEqual([`payment-collection portal: --out ${dir} holds other files, which the build would remove; give a new or empty folder, or one --out built before`]);
      expect(existsSync(join(dir, "notes.txt"))).toBe(true);
      expect(refused(["--out", join(dir, "notes.txt")]).lines).toEqual([`payment-collection portal: --out ${join(dir, "notes.txt")} is a file; give a new or empty folder`]);
      expect(refused(["--out", join(dir, "new"), "--port", "0", "--dir", dir]).lines).toEqual(["payment-collection portal: --out builds and exits, serving nothing: leave out --dir, --port"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
