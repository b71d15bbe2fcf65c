/**
 * The command line of `payment-collection`, in process: every subcommand answers --help and
 * --version without starting anything, and bad input gets one line, the usage and exit 2.
 * (The same commands from an installed package, through npx: test/install/.)
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "../src/main.ts";

const SUBCOMMANDS = ["conformance", "verify", "mock", "sandbox", "portal", "contract", "proxy", "traffic"];

/** Runs the CLI and captures what it printed; fails the test if it started a server. */
async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, "log").mockImplementation((...args) => void out.push(args.join(" ")));
  vi.spyOn(console, "error").mockImplementation((...args) => void err.push(args.join(" ")));
  const code = await main(argv);
  return { code, out: out.join("\n"), err: err.join("\n") };
}

afterEach(() => vi.restoreAllMocks());

describe("payment-collection", () => {
  it("lists its commands under --help and exits 0", async () => {
    const { code, out } = await run(["--help"]);
    expect(code).toBe(0);
    for (const name of SUBCOMMANDS) expect(out).toMatch(new RegExp(`^  ${name} `, "m"));
  });

  it("prints the versions of the CLI and of the products it runs", async () => {
    const { code, out } = await run(["--version"]);
    expect(code).toBe(0);
    expect(out).toMatch(/^payment-collection \d+\.\d+\.\d+ \(contract \d+\.\d+\.\d+, conformance \d+\.\d+\.\d+, sandbox \d+\.\d+\.\d+\)$/);
  });

  it("refuses an unknown command and a missing one with the usage and exit 2", async () => {
    for (const argv of [["lint"], []]) {
      const { code, err } = await run(argv);
      expect(code).toBe(2);
      expect(err).toMatch(/^payment-collection: (unknown command "lint"|a command is required)\n\nusage: payment-collection <command>/);
    }
  });

  for (const name of SUBCOMMANDS) {
    describe(name, () => {
      it("prints its usage for --help and -h, naming the command, and starts nothing", async () => {
        for (const flag of ["--help", "-h"]) {
          const { code, out } = await run([name, flag]);
          expect(code).toBe(0);
          expect(out).toContain(`usage: payment-collection ${name}`);
        }
      });

      it("prints the versions for --version", async () => {
        const { code, out } = await run([name, "--version"]);
        expect(code).toBe(0);
        expect(out).toMatch(/^payment-collection \d+\.\d+\.\d+ \(/);
      });

      it("refuses an unknown flag with one line, the usage and exit 2", async () => {
        const { code, err } = await run(name === "contract" ? [name, "path", "--bogus"] : [name, "--bogus"]);
        expect(code).toBe(2);
        expect(err).toMatch(/--bogus.*\n\nusage: payment-collection /);
      });
    });
  }
});
