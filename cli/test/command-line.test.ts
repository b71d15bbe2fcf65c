/**
 * The command line of `payment-collection`, in process: every subcommand answers --help and
 * --version without starting anything, and bad input gets one line in one style,
 * `payment-collection <command>: <what is wrong>; <what to do>`, and exit 2.
 * (The same commands from an installed package, through npx: test/install/.)
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
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

  it("refuses an unknown command and a missing one with one line that says what to do, exit 2", async () => {
    const cases: Array<[string[], string]> = [
      [["conformace"], 'payment-collection: unknown command "conformace"; did you mean conformance?'],
      [["lint"], 'payment-collection: unknown command "lint"; the commands are conformance, mock, verify, proxy, traffic, sandbox, portal, contract (payment-collection --help says what each does)'],
      [["--verbose"], "payment-collection: unknown option --verbose; give a command first: payment-collection <command> --verbose (payment-collection --help lists the commands)"],
      [[], "payment-collection: a command is required: conformance, mock, verify, proxy, traffic, sandbox, portal, contract (payment-collection --help says what each does)"],
    ];
    for (const [argv, line] of cases) {
      const { code, err } = await run(argv);
      expect(code, argv.join(" ")).toBe(2);
      expect(err).toBe(line);
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

      it("refuses an unknown flag with one line naming the command and where the options are, exit 2", async () => {
        const command = name === "contract" ? "contract path" : name;
        const { code, err } = await run([...command.split(" "), "--bogus"]);
        expect(code).toBe(2);
        expect(err).toBe(`payment-collection ${command}: unknown option --bogus; payment-collection ${command} --help lists the options`);
      });
    });
  }
});

/** A folder and a file for the path checks, and a port someone holds. */
const scratch = mkdtempSync(join(tmpdir(), "cli-messages-"));
const aFile = join(scratch, "a-file.txt");
writeFileSync(aFile, "not a folder\n");
const notYaml = join(scratch, "target.yaml");
writeFileSync(notYaml, "familyA: [\n");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("bad input, one line per command", () => {
  // Every message a user met in the issue, and its kin in each command.
  const cases: Array<[string, string[], string]> = [
    ["conformance", ["--targte", "t.json"], "unknown option --targte; did you mean --target?"],
    ["conformance", ["--target"], "--target needs a value; payment-collection conformance --help lists the options"],
    ["conformance", ["--quiet=yes"], "--quiet takes no value; payment-collection conformance --help lists the options"],
    ["conformance", ["extra"], 'unexpected argument "extra"; payment-collection conformance --help lists the options'],
    ["conformance", [], "--target FILE or --mock is required: the servers to check (payment-collection sandbox --write-target FILE writes a target for the sandbox)"],
    ["conformance", ["--mock", "--target", "t.json"], "--mock and --target exclude each other: --mock checks the mock it starts"],
    ["conformance", ["--target", scratch], `${scratch}: a folder, not a target file; give the target file (JSON or YAML) in it (\`payment-collection sandbox --write-target FILE\` writes one for the sandbox)`],
    ["conformance", ["--target", notYaml], `${notYaml}: not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1`],
    ["conformance", ["--target", "t.json", "--junit", scratch], `--junit ${scratch} is a folder; give a file path (--junit ${scratch}/conformance.xml)`],
    ["conformance", ["--target", "t.json", "--json", join(aFile, "report.json")], `--json ${join(aFile, "report.json")}: ${aFile} is a file, not a folder`],
    ["mock", ["--port-family-a", "-5"], "--port-family-a must be a port number from 0 to 65535 (0: any free port), not -5"],
    ["mock", ["--dinamic"], "unknown option --dinamic; did you mean --dynamic?"],
    ["portal", ["--port", "-1"], "--port must be a port number from 0 to 65535 (0: any free port), not -1"],
    ["portal", ["--dir", aFile], `--dir ${aFile} is a file; give the folder of a built portal (--out DIR builds one)`],
    ["portal", ["--dir", scratch], `--dir ${scratch} holds no index.html: not a built portal (--out DIR builds one)`],
    ["proxy", ["--prot", "8080"], "unknown option --prot; did you mean --port?"],
    ["proxy", ["--family-a-upstream", "http://127.0.0.1:1", "--port", "65536"], "--port must be a port number from 0 to 65535 (0: any free port), not 65536"],
    ["proxy", ["--family-a-upstream", "http://127.0.0.1:1", "--target", scratch], `--target ${scratch} is a folder; give a file in it (--target ${scratch}/target.json)`],
    ["proxy", ["--family-a-upstream", "http://127.0.0.1:1", "--html", scratch], `--html ${scratch} is a folder; give a file path (--html ${scratch}/traffic.html)`],
    ["traffic", ["chek", "x.har"], 'unknown subcommand "chek"; did you mean check?'],
    ["traffic", ["check", scratch], `check ${scratch} is a folder; give a file in it (check ${scratch}/session.har)`],
    ["traffic", ["check", join(scratch, "none.har")], `check ${join(scratch, "none.har")}: no such file`],
    ["sandbox", ["--port", "-1"], "--port must be a port number from 0 to 65535 (0: any free port), not -1"],
    ["sandbox", ["--allow-private-webhook"], "unknown option --allow-private-webhook; did you mean --allow-private-webhooks?"],
    ["sandbox", ["--data-dir", aFile], `--data-dir ${aFile} is a file; give a folder (created when missing)`],
    ["sandbox", ["--write-target", scratch], `--write-target ${scratch} is a folder; give a file path (--write-target ${scratch}/target.json)`],
    ["contract", ["pth"], 'unknown subcommand "pth"; did you mean path?'],
    ["contract", [], "a subcommand is required: path, validate or diff (payment-collection contract --help says what each does)"],
    ["contract validate", [scratch], `${scratch} is a folder; give the OpenAPI documents in it (YAML or JSON files)`],
    ["contract diff", ["--bse", "HEAD"], "unknown option --bse; did you mean --base?"],
    ["verify", ["--signr", "x"], "unknown option --signr; did you mean --signer?"],
    ["verify", [], "the bundle's folder DIR is required (payment-collection verify reports/bundle); payment-collection verify --help lists the options"],
    ["verify", [join(scratch, "none")], `${join(scratch, "none")}: no such folder; give the folder \`payment-collection conformance --bundle DIR\` wrote`],
    ["verify", [aFile], `${aFile}: a file, not a bundle's folder; give the folder \`payment-collection conformance --bundle DIR\` wrote`],
    ["conformance", ["--target", "t.json", "--seed", "twelve"], "--seed must be an integer from 0 to 2147483647, got twelve"],
    ["contract diff", [], "--base <git ref | folder | file> is required: the version to compare with (HEAD, a release tag, a folder or one document)"],
  ];
  for (const [command, argv, message] of cases) {
    it(`${command} ${argv.join(" ")}`.trim(), async () => {
      const { code, out, err } = await run([...command.split(" "), ...argv]);
      expect(code).toBe(2);
      expect(out).toBe("");
      expect(err).toBe(`payment-collection ${command}: ${message}`);
    });
  }

  it("a port in use: the proxy and the portal say which option picks another", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = String((taken.address() as AddressInfo).port);
    const portal = mkdtempSync(join(scratch, "portal-"));
    writeFileSync(join(portal, "index.html"), "<!doctype html>");
    try {
      const proxy = await run(["proxy", "--family-a-upstream", "http://127.0.0.1:1", "--port", port]);
      expect(proxy).toEqual({ code: 2, out: "", err: `payment-collection proxy: port ${port} on 127.0.0.1 is in use; pick another with --port (0: any free port)` });
      const site = await run(["portal", "--dir", portal, "--server", "http://127.0.0.1:4010", "--port", port]);
      expect(site).toEqual({ code: 2, out: "", err: `payment-collection portal: port ${port} on 127.0.0.1 is in use; pick another with --port (0: any free port)` });
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
