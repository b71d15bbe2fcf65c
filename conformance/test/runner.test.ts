/**
 * The runner's pieces a user relies on: the target file (keys from the environment, missing
 * keys and fixtures), pacing against rate limits, the statement mapping and JUnit output.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "@payment-collection/sandbox/server.ts";
import { loadFamilyContract } from "@payment-collection/contract/model/index.ts";
import { FAMILY_CHECKS } from "../src/checks/index.ts";
import { toJunitXml } from "../src/runner/junit.ts";
import { formatReport } from "../src/runner/report.ts";
import { SCENARIOS } from "../src/scenarios/index.ts";
import { Pacer } from "../src/core/pacing.ts";
import { failed } from "../src/core/results.ts";
import { runConformance } from "../src/runner/run.ts";
import type { Scenario } from "../src/core/scenario.ts";
import { loadCatalogue, statementsFor } from "../src/core/statement-map.ts";
import { loadTarget, parseTarget, TargetError } from "../src/core/target.ts";
import { gavelSchema } from "../src/dredd/run-dredd.ts";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "conformance-runner-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("target file", () => {
  it("reads YAML and takes keys from environment variables", () => {
    const file = join(tempDir(), "target.yaml");
    writeFileSync(
      file,
      [
        "familyA:",
        "  baseUrl: https://api.example.test/",
        "  environment: live",
        "  keys: { primary: '${A_PRIMARY}', noMerchantRead: '${A_NO_SCOPE}' }",
        "familyB:",
        "  baseUrl: http://127.0.0.1:4010",
        "  keys: { primary: '${B_PRIMARY}' }",
        "  pathPrefix: { pix: /v2/, transactions: '' }",
        "  fixtures: { registeredBoletoIds: [b1, '${B_BOLETO}'] }",
      ].join("\n"),
    );
    const target = loadTarget(file, { A_PRIMARY: "sk_live_from_env", B_PRIMARY: "sdk_live_x" });
    expect(target.familyA?.baseUrl).toBe("https://api.example.test");
    expect(target.familyA?.keys.primary).toBe("sk_live_from_env");
    expect(target.familyA?.keys.noMerchantRead).toBeUndefined();
    expect(target.familyB?.pathPrefix).toEqual({ pix: "/v2", transactions: "" });
    expect(target.familyB?.fixtures.registeredBoletoIds).toEqual(["b1"]);
    expect(target.warnings.join("\n")).toMatch(/A_NO_SCOPE is not set/);
  });

  it("reads JSON and refuses a target without a usable server", () => {
    const file = join(tempDir(), "target.json");
    writeFileSync(file, JSON.stringify({ familyA: { baseUrl: "not a url", keys: {} } }));
    expect(() => loadTarget(file, {})).toThrow(TargetError);
    expect(() => parseTarget({}, "empty")).toThrow(/the target names no server: add familyA, familyB or both/);
  });
});

describe("a run against a target that lacks keys and fixtures", () => {
  it("reports the checks needing them not applicable, with the reason, and still runs the rest and the scenarios", { timeout: 120_000 }, async () => {
    const dataDir = tempDir();
    const sandbox = await startSandbox({ port: 0, dataDir, plan: "generous" });
    cleanups.push(() => sandbox.close());
    const target = parseTarget(
      {
        familyA: { baseUrl: sandbox.url, environment: "sandbox", keys: { primary: sandbox.keys.familyA.primary } },
        familyB: { baseUrl: sandbox.url, keys: { primary: sandbox.keys.familyB.primary } },
      },
      "sandbox without fixtures",
    );
    // A behaviour scenario plugs into the same run and report.
    const scenario: Scenario = {
      id: "family-b/health/reports-v1",
      family: "family-b",
      title: "the health check reports version v1",
      profile: "seed",
      statements: ["B-VERSION-VERSIONING-health-v1"],
      covers: [{ operationId: "getHealth", status: "200" }],
      async run(ctx, check) {
        const response = await ctx.send("getHealth", { checkId: "family-b/health/reports-v1" });
        if (check.response("getHealth", "200", response)) check.that(JSON.parse(response.body).data.version === "v1", "version is not v1");
      },
    };
    const needsSecondAccount: Scenario = {
      ...scenario,
      id: "family-b/isolation/needs-second-account",
      async run(ctx) {
        ctx.keyValue("secondAccount");
      },
    };
    const report = await runConformance({ target, exhaust: false, scenarios: [scenario, needsSecondAccount] });
    expect(report.results.find((r) => r.id === "family-b/health/reports-v1")).toMatchObject({
      source: "scenario",
      verdict: "pass",
      statements: ["B-VERSION-VERSIONING-health-v1"],
    });
    expect(report.results.find((r) => r.id === "family-b/isolation/needs-second-account")).toMatchObject({ verdict: "not-applicable" });
    expect(failed(report).map((r) => `${r.id}: ${r.reasons.join("; ")}`)).toEqual([]);
    const scope = report.results.find((r) => r.id === "family-a/getMerchant/403/key-without-scope")!;
    expect(scope.verdict).toBe("not-applicable");
    expect(scope.reasons[0]).toMatch(/no family A key "noMerchantRead"/);
    const cancel = report.results.find((r) => r.id === "family-b/cancelBoleto/200/registered-boleto")!;
    expect(cancel.verdict).toBe("not-applicable");
    expect(cancel.reasons[0]).toMatch(/registeredBoletoIds/);
    expect(report.results.find((r) => r.id === "family-b/getHealth/200/primary-key")!.verdict).toBe("pass");
  });
});

/** A family B target whose server answers every request 500 text (stopped after the test). */
async function brokenServerTarget() {
  const server = createServer((_req, res) => {
    res.writeHead(500, { "content-type": "text/plain" });
    res.end("broken");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return parseTarget({ familyB: { baseUrl: url, keys: { primary: "sdk_test_key" } } }, "a broken server");
}

describe("a run told to stop at the first failure", () => {
  it("stops there, returns what ran, and its reports say how much did not run", { timeout: 60_000 }, async () => {
    // A server that fails every check: the first result of the Dredd suite is a failure.
    const target = await brokenServerTarget();
    const report = await runConformance({ target, families: ["family-b"], exhaust: false, stopWhen: (r) => r.verdict === "fail" });

    // The failure is the last result (before it, only checks the target cannot run): the rest
    // is absent, neither passed nor not applicable.
    const last = report.results.at(-1)!;
    expect(last.verdict).toBe("fail");
    expect(report.results.slice(0, -1).map((r) => r.verdict)).toEqual(report.results.slice(0, -1).map(() => "not-applicable"));
    const planned = FAMILY_CHECKS["family-b"].length + SCENARIOS.filter((s) => s.family === "family-b").length;
    const notRun = planned - report.results.length;
    expect(notRun).toBeGreaterThan(100);
    expect(report.stoppedEarly).toEqual({ after: last.id, notRun });
    const notice = `stopped after the first failure (${last.id}): ${notRun} checks and scenarios not run`;
    expect(formatReport(report)).toContain(notice);
    expect(toJunitXml(report)).toContain(notice);
    expect(JSON.parse(JSON.stringify(report)).stoppedEarly.after).toBe(last.id);
  });
});

describe("a run without the Dredd suites (--no-dredd, where Dredd is not installed)", () => {
  it("runs the probes and leaves the checks Dredd runs not applicable, with the option as the reason", { timeout: 60_000 }, async () => {
    const target = await brokenServerTarget();
    const report = await runConformance({ target, families: ["family-b"], exhaust: false, dredd: false, derived: false, scenarios: [] });

    const bySource = (source: string) => report.results.filter((r) => r.source === source);
    // The rate-limit stage's checks are left out by --no-exhaust, before any suite.
    const dredd = bySource("dredd").filter((r) => !r.reasons.join().includes("--no-exhaust"));
    expect(dredd.length).toBeGreaterThan(0);
    expect(dredd.filter((r) => r.reasons.join() !== "the Dredd suite did not run (--no-dredd)").map((r) => r.id)).toEqual([]);
    expect(bySource("probe").filter((r) => r.verdict === "fail").length).toBeGreaterThan(0);
    expect(report.timings.map((t) => t.suite)).not.toContain("dredd");
  });
});

describe("pacing", () => {
  it("waits Retry-After and sends again when a request meets a 429 it did not ask for", { timeout: 20_000 }, async () => {
    let calls = 0;
    const server = createServer((_req, res) => {
      calls += 1;
      if (calls === 1) {
        res.writeHead(429, { "retry-after": "1", "content-type": "application/json" });
        res.end("{}");
      } else {
        res.writeHead(200, { "content-type": "application/json", "x-ratelimit-remaining": "5" });
        res.end('{"ok":true}');
      }
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    const pacer = new Pacer();
    const response = await pacer.send({ method: "GET", url, headers: {}, bucket: "account" });
    expect(response.status).toBe(200);
    expect(calls).toBe(2);
    expect(pacer.exchanges.at(-1)?.retries).toBe(1);
    // A check that wants the 429 gets it as it is.
    calls = 0;
    const wanted = await pacer.send({ method: "GET", url, headers: {}, bucket: "other", expectRateLimited: true });
    expect(wanted.status).toBe(429);
  });
});

describe("statement mapping", () => {
  const catalogue = loadCatalogue();
  const a = loadFamilyContract("family-a");
  const b = loadFamilyContract("family-b");

  it("names the statements a check enforces, from the catalogue's encodings", () => {
    expect(catalogue.problems).toEqual([]);
    const missingKey = statementsFor(catalogue, a, { family: "family-a", operationId: "createCharge", status: "400", errorCode: "IDEMPOTENCY_KEY_REQUIRED" });
    expect(missingKey).toContain("A-IDEM-ERROR-key-required");
    const charge = statementsFor(catalogue, a, { family: "family-a", operationId: "createCharge", status: "201" });
    expect(charge).toEqual(expect.arrayContaining(["A-CHARGE-FIELD-amount", "A-CHARGE-FIELD-pix"]));
    expect(charge).not.toContain("A-IDEM-ERROR-key-required");
    const ode002 = statementsFor(catalogue, b, { family: "family-b", operationId: "cancelBoleto", status: "409", errorCode: "ODE002" });
    expect(ode002).toContain("B-ERRORS-ERROR-ODE002");
  });
});

describe("report outputs", () => {
  it("writes JUnit XML with failures, skipped checks and the statements of each check", () => {
    const xml = toJunitXml({
      target: "t",
      profile: "seed",
      startedAt: new Date(0).toISOString(),
      durationMs: 10,
      families: ["family-a"],
      documented: [],
      timings: [],
      warnings: [],
      results: [
        { id: "family-a/x/200/ok", source: "dredd", family: "family-a", title: "ok", profile: "seed", statements: ["A-1"], decisions: [], covers: [], verdict: "pass", reasons: [], durationMs: 1 },
        { id: "family-a/x/400/bad", source: "dredd", family: "family-a", title: "bad <&>", profile: "seed", statements: [], decisions: [], covers: [], verdict: "fail", reasons: ["status 200, expected 400"], durationMs: 1 },
        { id: "family-a/x/404/na", source: "probe", family: "family-a", title: "na", profile: "seed", statements: [], decisions: [], covers: [], verdict: "not-applicable", reasons: ["no key"], durationMs: 0 },
      ],
    });
    expect(xml).toMatch(/<testsuites [^>]*tests="3" failures="1" errors="0" skipped="1"/);
    expect(xml).toContain('<failure message="status 200, expected 400">');
    expect(xml).toContain('<skipped message="not applicable: no key"/>');
    expect(xml).toContain('<property name="statements" value="A-1"/>');
    expect(xml).toContain("bad &lt;&amp;&gt;");
  });

  it("gives Dredd's validator only formats it knows", () => {
    const schema = gavelSchema({ type: "object", properties: { n: { type: "integer", format: "int64" }, at: { type: "string", format: "date-time" } } });
    expect(schema).toEqual({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { n: { type: "integer" }, at: { type: "string", format: "date-time" } },
    });
  });
});
