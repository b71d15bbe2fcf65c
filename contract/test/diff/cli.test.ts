/**
 * End to end through the command: a copy of generated/openapi/3.1 in a temp folder is the
 * base, the working tree is the head. The copy is changed the other way round, so that the
 * working tree shows the real change (a new optional response field; a response enum value
 * removed). Also the gate on a scratch git repository with a release tag.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { main, runDiff, textReport } from "../../src/diff/cli.ts";
import { BadInput } from "../../src/diff/sources.ts";
import { runGate } from "../../src/diff/gate.ts";
import { OPENAPI_31_DIR } from "./support.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const CLI = fileURLToPath(new URL("../../src/diff/cli.ts", import.meta.url));
const TSX = join(ROOT, "node_modules/tsx/dist/cli.mjs");
const scratch = mkdtempSync(join(tmpdir(), "contract-diff-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [TSX, CLI, ...args], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** main() in this process, its output captured. */
function inProcess(args: string[]): { status: number; stdout: string; stderr: string } {
  const out = { stdout: "", stderr: "" };
  const stdout = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((out.stdout += String(chunk)), true));
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((out.stderr += String(chunk)), true));
  const error = vi.spyOn(console, "error").mockImplementation((...parts) => void (out.stderr += `${parts.join(" ")}\n`));
  try {
    return { status: main(args), ...out };
  } finally {
    for (const spy of [stdout, stderr, error]) spy.mockRestore();
  }
}

/** A copy of generated/openapi/3.1 with one change to family A's document. */
function baseCopy(name: string, change: (doc: any) => void): string {
  const dir = join(scratch, name);
  cpSync(OPENAPI_31_DIR, dir, { recursive: true });
  const file = join(dir, "family-a.json");
  const doc = JSON.parse(readFileSync(file, "utf8"));
  change(doc);
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return dir;
}

describe("contract diff command", () => {
  it("a new optional response field is compatible: exit 0", () => {
    // The working tree has Charge.pix; a base without it means the head added an optional response field.
    const base = baseCopy("added-field", (doc) => {
      const charge = doc.components.schemas.Charge;
      delete charge.properties.pix;
      charge.required = charge.required.filter((name: string) => name !== "pix");
    });
    const run = inProcess(["--base", base]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/compatible\s+family-a\s+POST \/v1\/charges\s+response-property-added: response 201 body, `pix`: new response field/);
    expect(run.stdout).toMatch(/^contract diff .* -> working tree: 0 breaking \(0 not allowed by the version\), \d+ compatible, 0 informational, in \d+\.\d\d s$/m);
  });

  it("a response enum value removed is breaking: exit 1, in text, JSON and Markdown", () => {
    // A base that also listed `refunded` means the head removed it.
    const base = baseCopy("removed-enum", (doc) => doc.components.schemas.ChargeStatus.enum.push("refunded"));
    const text = inProcess(["--base", base]);
    expect(text.status).toBe(1);
    expect(text.stdout).toMatch(/BREAKING\s+family-a\s+GET \/v1\/charges\/\{id\}\s+response-enum-value-removed: response 200 body, `status`: enum value `refunded` removed/);
    expect(text.stdout).toContain("at /paths/~1v1~1charges~1{id}/get/responses/200/content/application~1json/schema/properties/status");

    const json = inProcess(["--base", base, "--json"]);
    expect(json.status).toBe(1);
    const body = JSON.parse(json.stdout);
    expect(body.summary.notAllowed).toBeGreaterThan(0);
    expect(body.changes.find((c: any) => c.operation === "GET /v1/charges/{id}")).toMatchObject({ rule: "response-enum-value-removed", verdict: "breaking", family: "family-a", allowed: false });
    expect(json.stderr).toMatch(/^contract diff .* in \d+\.\d\d s\n$/);

    const markdown = inProcess(["--base", base, "--markdown"]);
    expect(markdown.status).toBe(1);
    expect(markdown.stdout).toMatch(/^## Contract changes since .*\n\n### Family A \(v1\)\n\n#### Breaking changes \(\d+\)\n\n- `POST \/v1\/charges`: response 201 body, `status`: enum value `refunded` removed — `response-enum-value-removed`/);
  });

  it("bad input: one line, exit 2, no stack trace", () => {
    // Every case through main() in this process, as in the tests above (a spawned tsx costs
    // seconds, tens of them on a loaded CI machine); the process's own exit code and stderr
    // once, below: the only spawned run of this file.
    writeFileSync(join(scratch, "empty-file.json"), "not json");
    for (const args of [["--base", "no-such-ref-or-path"], [], ["--bogus"], ["--base", join(scratch, "empty-file.json")], ["--base", scratch]]) {
      const { status, stdout, stderr } = inProcess(args);
      expect(status, args.join(" ")).toBe(2);
      expect(stdout).toBe("");
      expect(stderr.trim().split("\n")).toHaveLength(1);
      expect(stderr).toMatch(/^payment-collection contract diff: /);
      expect(stderr).not.toMatch(/\bat .*\.ts:\d+/);
    }
    const run = cli("--base", "no-such-ref-or-path");
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^payment-collection contract diff: [^\n]*\n$/);
  });

  it("--help explains the exit codes", () => {
    const run = inProcess(["--help"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("Exit codes: 0");
  });
});

describe("what contract diff compares", () => {
  const OPENAPI_30_DIR = join(OPENAPI_31_DIR, "../3.0");

  it("a lone document on either side compares its family only, and says so", () => {
    const run = runDiff(OPENAPI_31_DIR, join(OPENAPI_31_DIR, "family-a.json"), ROOT);
    expect(run.changes.filter((c) => c.family === "family-b")).toEqual([]);
    expect(run.changes).toEqual([]);
    expect(run.notes).toEqual(["family-a only: --head is one document of that family"]);
    expect(textReport(run).split("\n").at(-2)).toBe("note: family-a only: --head is one document of that family");
    // The other way round, as before: a lone base document.
    expect(runDiff(join(OPENAPI_31_DIR, "family-b.json"), OPENAPI_31_DIR, ROOT).changes).toEqual([]);
  });

  it("a 3.0 document against the same contract's 3.1 document shows no change, and the note names both versions", () => {
    for (const family of ["family-a", "family-b"]) {
      const run = runDiff(join(OPENAPI_30_DIR, `${family}.json`), join(OPENAPI_31_DIR, `${family}.json`), ROOT);
      expect(run.changes.map((c) => `${c.rule}: ${c.message}`), family).toEqual([]);
      expect(run.notes).toContain(`${family}: the base is OpenAPI 3.0.0 and the head 3.1.0; compared as one contract (schemas in either form; a 3.0 document's x-webhooks as its webhooks)`);
    }
  });

  it("a webhook removed from a 3.0 base's x-webhooks is still seen against a 3.1 head", () => {
    const base = JSON.parse(readFileSync(join(OPENAPI_30_DIR, "family-a.json"), "utf8"));
    base["x-webhooks"]["charge.refunded"] = base["x-webhooks"]["charge.paid"];
    const file = join(scratch, "family-a-3.0-extra-webhook.json");
    writeFileSync(file, JSON.stringify(base));
    const run = runDiff(file, join(OPENAPI_31_DIR, "family-a.json"), ROOT);
    expect(run.changes.map((c) => c.rule)).toEqual(["webhook-removed"]);
  });

  it("two lone documents of different families are bad input (the command: one line, exit 2)", () => {
    expect(() => runDiff(join(OPENAPI_31_DIR, "family-b.json"), join(OPENAPI_31_DIR, "family-a.json"), ROOT)).toThrow(
      new BadInput("--base is a family-b document and --head a family-a one: give two documents of one family"),
    );
  });
});

describe("contract gate", () => {
  const git = (cwd: string, ...args: string[]): void => {
    const run = spawnSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" } });
    if (run.status !== 0) throw new Error(run.stderr);
  };
  /** A scratch repository: generated/openapi/3.1 and contract/package.json, committed and tagged v0.2.0. */
  function repo(name: string): { dir: string; generated: string; packageJson: string } {
    const dir = join(scratch, name);
    mkdirSync(join(dir, "generated", "openapi"), { recursive: true });
    mkdirSync(join(dir, "contract"), { recursive: true });
    cpSync(OPENAPI_31_DIR, join(dir, "generated", "openapi", "3.1"), { recursive: true });
    writeFileSync(join(dir, "contract", "package.json"), JSON.stringify({ name: "c", version: "0.2.0" }));
    git(dir, "init", "-q");
    return { dir, generated: join(dir, "generated"), packageJson: join(dir, "contract", "package.json") };
  }
  const edit = (file: string, change: (doc: any) => void): void => {
    const doc = JSON.parse(readFileSync(file, "utf8"));
    change(doc);
    writeFileSync(file, JSON.stringify(doc));
  };

  it("passes without a release tag, and says so", () => {
    const r = repo("gate-untagged");
    git(r.dir, "add", "-A");
    git(r.dir, "commit", "-q", "-m", "c");
    const result = runGate({ env: {}, generatedDir: r.generated, packageJson: r.packageJson });
    expect(result.exitCode).toBe(0);
    expect(result.lines.join("\n")).toContain("no release tag");
  });

  it("fails on a breaking change to a published family, passes with a major bump", () => {
    const r = repo("gate-tagged");
    git(r.dir, "add", "-A");
    git(r.dir, "commit", "-q", "-m", "release");
    git(r.dir, "tag", "v0.2.0");
    edit(join(r.generated, "openapi", "3.1", "family-b.json"), (doc) => {
      doc.components.schemas.BoletoCancelRequest.properties.reason.maxLength = 100;
    });
    const failed = runGate({ env: {}, generatedDir: r.generated, packageJson: r.packageJson });
    expect(failed.exitCode).toBe(1);
    expect(failed.lines.join("\n")).toMatch(/NOT ALLOWED: family-b DELETE \/api\/v1\/sdk\/boleto\/\{boletoId\}\/cancel request-bound-narrowed/);

    edit(r.packageJson, (pkg) => {
      pkg.version = "1.0.0";
    });
    const bumped = runGate({ env: {}, generatedDir: r.generated, packageJson: r.packageJson });
    expect(bumped.exitCode).toBe(0);
    expect(bumped.lines.join("\n")).toContain("allowed (major version bump 0.2.0 -> 1.0.0)");
  });

  it("on a pull request also compares with the target branch; a missing branch is exit 2", () => {
    const r = repo("gate-pr");
    git(r.dir, "add", "-A");
    git(r.dir, "commit", "-q", "-m", "release");
    git(r.dir, "tag", "v0.2.0");
    git(r.dir, "branch", "-M", "main");
    const ok = runGate({ env: { GITHUB_BASE_REF: "main" }, generatedDir: r.generated, packageJson: r.packageJson });
    expect(ok.exitCode).toBe(0);
    expect(ok.comparisons.map((c) => c.base)).toEqual(["release v0.2.0", "target branch main"]);
    const missing = runGate({ env: { CI_MERGE_REQUEST_TARGET_BRANCH_NAME: "develop" }, generatedDir: r.generated, packageJson: r.packageJson });
    expect(missing.exitCode).toBe(2);
  });
  it("family A: a breaking change under an unreleased path version (/v2) is allowed, under /v1 it is not", () => {
    const r = repo("gate-v2");
    git(r.dir, "add", "-A");
    git(r.dir, "commit", "-q", "-m", "release");
    git(r.dir, "tag", "v0.2.0");
    git(r.dir, "branch", "-M", "main");
    const familyA = join(r.generated, "openapi", "3.1", "family-a.json");
    edit(familyA, (doc) => {
      doc.paths["/v2/charges"] = { post: { ...structuredClone(doc.paths["/v1/charges"].post), operationId: "createChargeV2" } };
    });
    git(r.dir, "commit", "-q", "-am", "v2 in progress");
    edit(familyA, (doc) => {
      const responses = doc.paths["/v2/charges"].post.responses;
      responses["200"] = responses["201"];
      delete responses["201"];
    });
    const allowed = runGate({ env: { GITHUB_BASE_REF: "main" }, generatedDir: r.generated, packageJson: r.packageJson });
    expect(allowed.lines.join("\n")).toContain("allowed (under the new path version /v2): family-a POST /v2/charges response-status-removed");
    expect(allowed.exitCode).toBe(0);
    edit(familyA, (doc) => {
      const responses = doc.paths["/v1/charges"].post.responses;
      responses["200"] = responses["201"];
      delete responses["201"];
    });
    const refused = runGate({ env: { GITHUB_BASE_REF: "main" }, generatedDir: r.generated, packageJson: r.packageJson });
    expect(refused.exitCode).toBe(1);
    expect(refused.lines.join("\n")).toContain("NOT ALLOWED: family-a POST /v1/charges response-status-removed");
  });
});
