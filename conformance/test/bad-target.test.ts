/**
 * What a user sees when a target file or its servers are wrong, through the command itself
 * (`payment-collection conformance`): every problem of the file at once with its path, one
 * clear line and exit 2 for an unreachable server or a refused key, a JUnit file that says why
 * even when the run stops early, a missing key that only makes its own checks not applicable,
 * and `--min-coverage`. The servers are a temporary sandbox (family A runs in about a second)
 * and small servers on loopback.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTemporarySandbox, type TemporarySandbox } from "@payment-collection/sandbox/harness/temporary-sandbox.ts";
import { conformanceCommand } from "../src/cli.ts";
import { preflight } from "../src/runner/preflight.ts";

const dir = mkdtempSync(join(tmpdir(), "conformance-bad-target-"));
let sandbox: TemporarySandbox;

beforeAll(async () => {
  sandbox = await startTemporarySandbox();
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

let files = 0;
function targetFile(content: unknown, extension = "json"): string {
  const path = join(dir, `target-${++files}.${extension}`);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return path;
}

/** Runs the command in this process and collects what it printed on stdout and stderr. */
async function conformance(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...parts: unknown[]) => void stdout.push(parts.join(" ")));
  const error = vi.spyOn(console, "error").mockImplementation((...parts: unknown[]) => void stderr.push(parts.join(" ")));
  const write = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => stderr.push(String(chunk)) > 0);
  try {
    const code = await conformanceCommand(argv);
    return { code, stdout: stdout.join("\n"), stderr: stderr.join("\n") };
  } finally {
    log.mockRestore();
    error.mockRestore();
    write.mockRestore();
  }
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe("the command line", () => {
  it("prints the usage for --help and does nothing else", async () => {
    const run = await conformance("--help");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^usage: payment-collection conformance --target FILE/);
    expect(run.stdout).toMatch(/^  --fail-fast +stop at the first failing check/m);
    expect(run.stderr).toBe("");
  });

  it("--fail-fast: stops at the first failure, exits 1, and the reports say the run stopped early", async () => {
    // A live family A server: accepts the key before the run, then answers every check wrongly.
    const server = createServer((_req, res) => void res.writeHead(200, { "content-type": "application/json" }).end("{}"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const json = join(dir, "fail-fast.json");
    const junit = join(dir, "fail-fast.xml");
    try {
      const target = { familyA: { baseUrl: url, environment: "live", keys: { primary: "sk_live_x" } } };
      const run = await conformance("--target", targetFile(target), "--fail-fast", "--no-exhaust", "--json", json, "--junit", junit, "--quiet");
      expect(run.code).toBe(1);
      const report = JSON.parse(readFileSync(json, "utf8")) as { results: Array<{ id: string; verdict: string }>; stoppedEarly: { after: string; notRun: number } };
      expect(report.results.filter((r) => r.verdict === "fail").map((r) => r.id)).toEqual([report.stoppedEarly.after]);
      expect(report.results.at(-1)!.id).toBe(report.stoppedEarly.after);
      expect(report.stoppedEarly.notRun).toBeGreaterThan(0);
      const line = `stopped after the first failure (${report.stoppedEarly.after}): ${report.stoppedEarly.notRun} checks and scenarios not run`;
      expect(run.stdout).toContain(line);
      expect(run.stdout).toMatch(/^RESULT: FAIL \(1 failing checks.*\) \(run stopped after the first failure/m);
      expect(readFileSync(junit, "utf8")).toContain(line);
    } finally {
      await close(server);
    }
  });

  it("refuses a --seed that is not a seed, and --signing-key without --bundle: one line, exit 2", async () => {
    const target = targetFile({ familyA: { baseUrl: "http://127.0.0.1:1" } });
    for (const [argv, line] of [
      [["--seed", "twelve"], "payment-collection conformance: --seed must be an integer from 0 to 2147483647, got twelve"],
      [["--seed", "1.5"], "payment-collection conformance: --seed must be an integer from 0 to 2147483647, got 1.5"],
      [["--signing-key", "key.pem"], "payment-collection conformance: --signing-key signs a bundle: give --bundle DIR too"],
    ] as const) {
      const run = await conformance("--target", target, ...argv);
      expect(run.code).toBe(2);
      expect(run.stderr.split("\n")[0]).toBe(line);
    }
  });

  it("answers an unknown option with one line that says where the options are, exit 2", async () => {
    const run = await conformance("--target", targetFile({ familyA: { baseUrl: "http://127.0.0.1:1" } }), "--frobnicate");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("payment-collection conformance: unknown option --frobnicate; payment-collection conformance --help lists the options");
  });
});

describe("a target file with mistakes", () => {
  it("a family without baseUrl: names the member, exit 2", async () => {
    const run = await conformance("--target", targetFile("familyB:\n  keys: { primary: sdk_test_x }\n", "yaml"));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("familyB.baseUrl: required, missing");
    expect(run.stderr).not.toMatch(/neither familyA nor familyB/);
  });

  it("an unset ${VAR} in baseUrl: names the variable and the path, exit 2", async () => {
    delete process.env.CONFORMANCE_TEST_UNSET_URL;
    const run = await conformance("--target", targetFile({ familyA: { baseUrl: "${CONFORMANCE_TEST_UNSET_URL}" } }));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("familyA.baseUrl: environment variable CONFORMANCE_TEST_UNSET_URL is not set");
  });

  it("a misspelt member: says which member was meant, exit 2", async () => {
    const run = await conformance("--target", targetFile({ familyA: { baseURL: "http://127.0.0.1:1" } }));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("familyA.baseURL: unknown member; did you mean `baseUrl`?");
    expect(run.stderr).not.toMatch(/neither familyA nor familyB|names no server/);
  });

  it("lists every problem at once, each with its path, and writes them to the JUnit file", async () => {
    const junit = join(dir, "problems.xml");
    const run = await conformance(
      "--target",
      targetFile({ famliyB: {}, familyA: { baseUrl: "ftp://example.test", environment: "production", keys: { primary: 42 } } }),
      "--junit",
      junit,
    );
    expect(run.code).toBe(2);
    for (const line of [
      "famliyB: unknown member; did you mean `familyB`?",
      "familyA.baseUrl: must be an http(s) URL",
      "familyA.environment: must be live or sandbox",
      "familyA.keys.primary: must be a string",
    ]) {
      expect(run.stderr).toContain(line);
    }
    expect(readFileSync(junit, "utf8")).toMatch(/<error message="[^"]*familyA\.environment: must be live or sandbox/);
  });
});

describe("servers that cannot be checked", () => {
  it("an unreachable host: one line naming the family and URL, exit 2, and a JUnit error case", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const junit = join(dir, "unreachable.xml");
    const run = await conformance("--target", targetFile({ familyB: { baseUrl: url, keys: { primary: "sdk_test_x" } } }), "--junit", junit);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`payment-collection conformance: family B: cannot reach ${url} (connection refused); start the server, or fix familyB.baseUrl in the target`);
    const xml = readFileSync(junit, "utf8");
    expect(xml).toMatch(/<testsuites [^>]*errors="1"/);
    expect(xml).toContain(`<error message="family B: cannot reach ${url} (connection refused); start the server, or fix familyB.baseUrl in the target"`);
  });

  it("a wrong key: says which key the server refused, exit 2", async () => {
    const target = { familyA: { ...sandbox.target.familyA, keys: { ...sandbox.target.familyA.keys, secondAccount: "sk_test_NoSuchKeyNoSuchKeyNoSuchKey00" } } };
    const run = await conformance("--target", targetFile(target), "--family", "family-a");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^payment-collection conformance: family A: key \`secondAccount\` was refused \\(401\\) by ${sandbox.url}/\\S+; give a key this server accepts in familyA\\.keys\\.secondAccount$`));
  });

  it("a live family A server refusing the test key is not a refused key: a live server must refuse it", async () => {
    // Accepts every key but sk_test_ ones, as a live server does.
    const server = createServer((req, res) => {
      const refused = String(req.headers["x-api-key"] ?? "").startsWith("sk_test_");
      res.writeHead(refused ? 401 : 200, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const keys = { primary: "sk_live_a", testKey: "sk_test_b" };
      expect(await preflight({ source: "t", warnings: [], familyA: { baseUrl, environment: "live", keys } }, { families: ["family-a"] })).toEqual([]);
      // Against a sandbox environment the same refusal is a refused key.
      expect(await preflight({ source: "t", warnings: [], familyA: { baseUrl, environment: "sandbox", keys } }, { families: ["family-a"] })).toEqual([
        `family A: key \`testKey\` was refused (401) by ${baseUrl}/v1/merchant; give a key this server accepts in familyA.keys.testKey`,
      ]);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it("a server that stops answering during the run: exit 2, the reason, and JUnit and HTML files with what ran", async () => {
    // Answers the key check before the run, then goes away.
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
      server.close();
      server.closeAllConnections();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const junit = join(dir, "stopped.xml");
    const html = join(dir, "stopped.html");
    const run = await conformance("--target", targetFile({ familyA: { baseUrl: url, keys: { primary: "sk_live_x" } } }), "--junit", junit, "--html", html);
    await close(server).catch(() => {});
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n").at(-1)).toBe(`payment-collection conformance: family A: ${url} stopped answering during the Dredd suite (connection refused)`);
    const xml = readFileSync(junit, "utf8");
    expect(xml).toContain(`<error message="family A: ${url} stopped answering`);
    expect(xml).toMatch(/<testcase classname="family-a\./);
    expect(readFileSync(html, "utf8")).toContain(`<span class="word">STOPPED</span><span class="why">family A: ${url} stopped answering`);
  });
});

describe("a target that runs few checks", () => {
  const fewKeys = () => ({
    familyA: { ...sandbox.target.familyA, keys: { primary: sandbox.target.familyA.keys.primary, secondAccount: "${CONFORMANCE_TEST_UNSET_KEY}" } },
  });

  it("a missing key: the run goes on, only the checks needing it are not applicable; progress goes to stderr", async () => {
    delete process.env.CONFORMANCE_TEST_UNSET_KEY;
    const json = join(dir, "missing-key.json");
    const run = await conformance("--target", targetFile(fewKeys()), "--family", "family-a", "--no-exhaust", "--json", json, "--progress");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("warning: familyA.keys.secondAccount: environment variable CONFORMANCE_TEST_UNSET_KEY is not set");
    expect(run.stdout).toContain("RESULT: PASS");
    expect(run.stderr).not.toMatch(/NotApplicable|\n\s+at /);
    expect(run.stderr).toMatch(/family A: Dredd suite \(\d+ checks\)/);
    expect(run.stdout).not.toMatch(/family A: Dredd suite \(/);
    const report = JSON.parse(readFileSync(json, "utf8")) as { results: Array<{ verdict: string; reasons: string[] }> };
    const needing = report.results.filter((r) => r.reasons.some((reason) => /no family A key "secondAccount"/.test(reason)));
    expect(needing.length).toBeGreaterThan(0);
    expect(needing.every((r) => r.verdict === "not-applicable")).toBe(true);
    expect(report.results.filter((r) => r.verdict === "pass").length).toBeGreaterThan(0);
  });

  it("--min-coverage above what ran: exit 1 with one line giving the figure, also in the JSON report", async () => {
    const json = join(dir, "coverage.json");
    const run = await conformance("--target", targetFile(fewKeys()), "--family", "family-a", "--no-exhaust", "--min-coverage", "95", "--json", json);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^payment-collection conformance: coverage \d+(\.\d)?% \(\d+ of 14 documented responses exercised\) is below --min-coverage 95%$/m);
    const figure = (JSON.parse(readFileSync(json, "utf8")) as { responseCoverage: { percent: number; documented: number; minimum: number; met: boolean } }).responseCoverage;
    expect(figure).toMatchObject({ documented: 14, minimum: 95, met: false });
    expect(figure.percent).toBeLessThan(95);
  });
});
