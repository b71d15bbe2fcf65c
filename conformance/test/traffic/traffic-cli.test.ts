/**
 * `payment-collection traffic check` end to end, in process: exit codes, the reports it writes
 * (JUnit, JSON, HTML) and what never appears in them (keys), the one line of a bad file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startTemporarySandbox, type TemporarySandbox } from "@payment-collection/sandbox/harness/temporary-sandbox.ts";
import { trafficCommand } from "../../src/traffic/traffic-cli.ts";
import { recordClientSession, writeHar, type Har } from "./har-fixture.ts";

let sandbox: TemporarySandbox;
let dir: string;
let har: Har;

beforeAll(async () => {
  sandbox = await startTemporarySandbox({ plan: "generous" });
  dir = mkdtempSync(join(tmpdir(), "traffic-cli-"));
  har = await recordClientSession(sandbox);
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => vi.restoreAllMocks());

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, "log").mockImplementation((...args) => void out.push(args.join(" ")));
  vi.spyOn(console, "error").mockImplementation((...args) => void err.push(args.join(" ")));
  const code = await trafficCommand(argv);
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const bases = () => ["--family-a-base-url", sandbox.url, "--family-b-base-url", sandbox.url];

describe("payment-collection traffic check", () => {
  it("exits 0 on a clean recording and writes JUnit, JSON and HTML with the coverage", async () => {
    const file = writeHar(join(dir, "clean.har"), har);
    const reports = { junit: join(dir, "out/clean.xml"), json: join(dir, "out/clean.json"), html: join(dir, "out/clean.html") };
    const { code, out } = await run(["check", file, ...bases(), "--consumer", "--junit", reports.junit, "--json", reports.json, "--html", reports.html]);
    expect(code, out).toBe(0);
    expect(out).toMatch(/exchanges: 8 \(other hosts skipped: 1/);
    expect(out).toMatch(/peak memory \(RSS\): \d+\.\d MiB/);
    const junit = readFileSync(reports.junit, "utf8");
    expect(junit).toContain('<testcase classname="family-a.createCharge" name="createCharge 201">');
    expect(junit).not.toContain("<failure");
    const json = JSON.parse(readFileSync(reports.json, "utf8"));
    expect(json.coverage.responses.seen).toBe(7);
    expect(json.failed).toEqual([]);
    const html = readFileSync(reports.html, "utf8");
    expect(html).toContain("PASS");
    expect(html).toMatch(/documented responses seen<\/th><td>7 of \d+/);
  });

  it("exits 1 on a violation, with a line on stderr naming the statement, and the failure in each report; no key anywhere", async () => {
    const edited: Har = structuredClone(har);
    const customer = edited.log.entries[5]!;
    const body = JSON.parse(customer.response.content.text!);
    body.data.phoneNumber = "+5511999990000";
    customer.response.content.text = JSON.stringify(body);
    const file = writeHar(join(dir, "phone.har"), edited);
    const reports = { junit: join(dir, "out/phone.xml"), json: join(dir, "out/phone.json"), html: join(dir, "out/phone.html") };
    const { code, err, out } = await run(["check", file, ...bases(), "--junit", reports.junit, "--json", reports.json, "--html", reports.html]);
    expect(code).toBe(1);
    expect(err).toMatch(/^violation #6 family-b getCustomer 200 \[statement B-CUSTOMER-RULE-no-phoneNumber\]: expected data without phoneNumber; seen phoneNumber present \| curl -i -X GET '.*' -H "X-API-Key: \$API_KEY" .*# API_KEY: the key key#[0-9a-f]{8}$/m);
    expect(out).toContain("B-CUSTOMER-RULE-no-phoneNumber: 1");
    expect(readFileSync(reports.junit, "utf8")).toMatch(/<testcase classname="family-b.getCustomer" name="getCustomer 200">[\s\S]*<failure message="B-CUSTOMER-RULE-no-phoneNumber/);
    expect(readFileSync(reports.html, "utf8")).toContain("B-CUSTOMER-RULE-no-phoneNumber: “");
    for (const text of [err, out, ...Object.values(reports).map((p) => readFileSync(p, "utf8"))]) {
      for (const key of [sandbox.target.familyA.keys.primary!, sandbox.target.familyB.keys.primary!]) expect(text).not.toContain(key);
    }
  });

  it("exits 1 with --consumer on what the client sent outside the contract, 0 without it", async () => {
    const edited: Har = structuredClone(har);
    edited.log.entries[1]!.request.url += "?expand=payer";
    const file = writeHar(join(dir, "query.har"), edited);
    expect((await run(["check", file, ...bases()])).code).toBe(0);
    const { code, err } = await run(["check", file, ...bases(), "--consumer"]);
    expect(code).toBe(1);
    expect(err).toMatch(/^consumer #2 family-a getCharge 200 \[statement A-CHARGES-ENDPOINT-get\]: expected only the query parameters the operation defines \(none\); seen expand=payer/m);
  });

  it("exits 1 below --min-coverage", async () => {
    const { code, out } = await run(["check", writeHar(join(dir, "cov.har"), har), ...bases(), "--min-coverage", "90"]);
    expect(code).toBe(1);
    expect(out).toMatch(/below --min-coverage 90%/);
  });

  it("exits 2 with one line on a truncated or non-JSON file, and on bad options", async () => {
    const truncated = join(dir, "truncated.har");
    writeFileSync(truncated, JSON.stringify(har).slice(0, 2000));
    const cut = await run(["check", truncated]);
    expect(cut.code).toBe(2);
    expect(cut.err).toMatch(/^payment-collection traffic: check .*truncated\.har: truncated HAR file: it ends inside entry \d+ \(byte 2000\)$/);
    const notJson = join(dir, "page.har");
    writeFileSync(notJson, "hello");
    const bad = await run(["check", notJson]);
    expect(bad.code).toBe(2);
    expect(bad.err.split("\n")).toHaveLength(1);
    const lines: Array<[string[], string]> = [
      [["check"], "a HAR file is required: traffic check FILE.har"],
      [["check", notJson, "--profile", "strict"], '--profile must be seed or full, not "strict"'],
      [["inspect", notJson], 'unknown subcommand "inspect"; the one subcommand is check (traffic check FILE.har)'],
      [["check", notJson, "--family-a-base-url", "ftp://x"], '--family-a-base-url must be an http(s) URL, not "ftp://x"'],
    ];
    for (const [argv, line] of lines) {
      const { code, err } = await run(argv);
      expect(code).toBe(2);
      expect(err).toBe(`payment-collection traffic: ${line}`);
    }
  });
});
