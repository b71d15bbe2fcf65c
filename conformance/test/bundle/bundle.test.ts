/**
 * `conformance --bundle DIR` and `verify DIR`, end to end: one run of family A's suites under
 * `seed` against a broken server in front of a fresh sandbox (the merchant's document with a wrong
 * check digit), through the command, then the bundle it wrote, checked and tampered with in
 * every way a verifier must notice.
 */
import { createPrivateKey, generateKeyPairSync } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startTemporarySandbox } from "@payment-collection/sandbox/harness/temporary-sandbox.ts";
import { CONTRACT_ROOT } from "@payment-collection/contract/model/index.ts";
import { conformanceCommand } from "../../src/cli.ts";
import { verifyCommand } from "../../src/bundle/verify-cli.ts";
import { contractDigest } from "../../src/bundle/contract-digest.ts";
import { BUNDLE_FILES, PREDICATE_TYPE, STATEMENT_TYPE } from "../../src/bundle/layout.ts";
import type { Manifest } from "../../src/bundle/manifest.ts";
import { generateSigningKey, loadSigningKey, signEnvelope, type SigningKey } from "../../src/bundle/signing.ts";
import { sealBundle, writeBundleFiles } from "../../src/bundle/write-bundle.ts";
import type { CheckResult, RunReport } from "../../src/core/results.ts";
import { MUTATIONS, startMutant } from "../self-test/mutants.ts";

const work = mkdtempSync(join(tmpdir(), "bundle-test-"));
const bundle = join(work, "bundle");
const cleanups: Array<() => Promise<void>> = [];
let targetFile: string;
let secrets: string[];
let run: Output;

interface Output {
  code: number;
  out: string;
  err: string;
}

/** Runs a command in process, capturing what it prints. */
async function capture(command: () => Promise<number>): Promise<Output> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...args) => void out.push(args.join(" ")));
  const error = vi.spyOn(console, "error").mockImplementation((...args) => void err.push(args.join(" ")));
  try {
    return { code: await command(), out: out.join("\n"), err: err.join("\n") };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

const verify = (dir: string, ...options: string[]) => capture(() => verifyCommand([dir, ...options]));
const read = (dir: string, name: string) => readFileSync(join(dir, name), "utf8");
const json = <T>(dir: string, name: string) => JSON.parse(read(dir, name)) as T;

/** A copy of the bundle to tamper with. */
function copy(): string {
  const dir = mkdtempSync(join(work, "copy-"));
  cpSync(bundle, dir, { recursive: true });
  return dir;
}

/**
 * Seals a bundle's files again with another key, as whoever edited them would: every digest,
 * the manifest and the signature made anew. `edit` changes the files (and the manifest's
 * description of the run) first.
 */
function resign(dir: string, key: SigningKey, edit: (files: Map<string, string>, manifest: Manifest) => void): void {
  const files = new Map(readdirSync(dir).filter((n) => n !== BUNDLE_FILES.manifest && n !== BUNDLE_FILES.envelope).map((n) => [n, read(dir, n)]));
  const manifest = json<Manifest>(dir, BUNDLE_FILES.manifest);
  edit(files, manifest);
  const { files: _, signer: __, ...description } = manifest;
  writeBundleFiles(dir, sealBundle(files, description, key));
}

/** The HAR's entries, one per line of the file, and a way to write them back. */
function harLines(text: string): { head: string; entries: string[]; tail: string } {
  const lines = text.split("\n");
  return { head: lines[0]!, entries: lines.slice(1, -2).map((line) => line.replace(/,$/, "")), tail: lines.slice(-2).join("\n") };
}
const harText = (head: string, entries: string[], tail: string) => `${head}\n${entries.join(",\n")}\n${tail}`;

beforeAll(async () => {
  const sandbox = await startTemporarySandbox({ plan: "generous", useRateLimitAccount: true });
  cleanups.push(sandbox.close);
  const mutation = MUTATIONS.find((m) => m.name === "merchant-document-wrong-check-digit")!;
  const mutant = await startMutant(sandbox.url, mutation, sandbox.keys);
  cleanups.push(mutant.close);
  const target = { ...sandbox.target, familyA: { ...sandbox.target.familyA, baseUrl: mutant.url }, familyB: { ...sandbox.target.familyB, baseUrl: mutant.url } };
  targetFile = join(work, "target.json");
  writeFileSync(targetFile, JSON.stringify(target));
  secrets = [...Object.values(target.familyA.keys), ...Object.values(target.familyB.keys), target.familyA.webhookSecret].filter((v): v is string => typeof v === "string");
  run = await capture(() => conformanceCommand(["--target", targetFile, "--family", "family-a", "--profile", "seed", "--seed", "7", "--bundle", bundle, "--quiet"]));
}, 240_000);

afterAll(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
  rmSync(work, { recursive: true, force: true });
  rmSync(`${bundle}.signing-key.pem`, { force: true });
});

afterEach(() => vi.restoreAllMocks());

describe("conformance --bundle DIR", () => {
  it("writes the bundle's files, signs them with a key made for the run, written beside it, and prints the signer", () => {
    expect(run.code, run.err).toBe(1);
    expect(readdirSync(bundle).sort()).toEqual([BUNDLE_FILES.exchanges, BUNDLE_FILES.junit, BUNDLE_FILES.manifest, BUNDLE_FILES.publicKey, BUNDLE_FILES.report, BUNDLE_FILES.envelope, BUNDLE_FILES.html].sort());
    const manifest = json<Manifest>(bundle, BUNDLE_FILES.manifest);
    expect(run.out).toContain(`signed by ${manifest.signer.fingerprint}`);
    expect(run.out).toContain(`payment-collection verify ${bundle} --signer ${manifest.signer.fingerprint}`);
    const key = `${bundle}.signing-key.pem`;
    expect(statSync(key).mode & 0o777).toBe(0o600);
    expect(loadSigningKey(key).fingerprint).toBe(manifest.signer.fingerprint);
  });

  it("names the seed in the report and prints the line that reruns a failing run", () => {
    expect(json<{ seed: number }>(bundle, BUNDLE_FILES.report).seed).toBe(7);
    expect(run.out).toMatch(/· --seed 7$/m);
    expect(run.err).toContain(`rerun with the same generated values: payment-collection conformance --target ${targetFile} --family family-a --profile seed --bundle ${bundle} --quiet --seed 7`);
  });

  it("describes the run, the contract, the target and every file in the manifest", () => {
    const manifest = json<Manifest>(bundle, BUNDLE_FILES.manifest);
    expect(manifest.run).toMatchObject({ profile: "seed", families: ["family-a"], seed: 7, verdict: "fail", options: { exhaust: true, failFast: false } });
    expect(manifest.run.counts.fail).toBeGreaterThan(0);
    expect(manifest.tool.engines.dredd).toMatch(/^\d+\./);
    expect(manifest.contract.sha256).toBe(contractDigest().sha256);
    expect(Object.keys(manifest.contract.files)).toEqual(expect.arrayContaining(["generated/openapi/3.1/family-a.json", "spec/statements.yaml", "docs/decisions.md"]));
    expect(manifest.target).toEqual([expect.objectContaining({ family: "family-a", keys: expect.arrayContaining([{ name: "primary", fingerprint: expect.stringMatching(/^key#[0-9a-f]{8}$/) }]) })]);
    expect(Object.keys(manifest.files).sort()).toEqual(readdirSync(bundle).filter((n) => n !== BUNDLE_FILES.manifest && n !== BUNDLE_FILES.envelope).sort());
  });

  it("records every exchange in order as HAR 1.2, tagged with its checks, the preflight and the webhook deliveries included", () => {
    const har = json<{ log: { version: string; entries: Array<Record<string, any>> } }>(bundle, BUNDLE_FILES.exchanges);
    const entries = har.log.entries;
    expect(har.log.version).toBe("1.2");
    expect(entries.length).toBe(json<Manifest>(bundle, BUNDLE_FILES.manifest).run.exchanges);
    expect(entries[0]!._tags).toEqual(["preflight"]);
    const report = json<{ results: CheckResult[] }>(bundle, BUNDLE_FILES.report);
    const ran = report.results.filter((r) => r.verdict !== "not-applicable" && r.source !== "derived");
    const tagged = new Set(entries.flatMap((e) => e._checks as string[]));
    expect(ran.filter((r) => !tagged.has(r.id)).map((r) => r.id)).toEqual([]);
    const deliveries = entries.filter((e) => e._direction === "received");
    expect(deliveries.length).toBeGreaterThan(0);
    expect(deliveries[0]!._checks[0]).toMatch(/^family-a\/events\//);
  });

  it("holds no secret of the target in any file, only fingerprints, and not the signing key", () => {
    const signing = createPrivateKey(readFileSync(`${bundle}.signing-key.pem`)).export({ format: "jwk" }).d!;
    const random = secrets.map((s) => /_(?:test|live)_(.{8,})$/.exec(s)?.[1]).filter((s): s is string => !!s);
    for (const name of readdirSync(bundle)) {
      const text = read(bundle, name);
      for (const secret of [...secrets, ...random, signing]) expect(text.includes(secret), `${name} holds a secret`).toBe(false);
    }
    expect(read(bundle, BUNDLE_FILES.exchanges)).toMatch(/"x-api-key","value":"key#[0-9a-f]{8}"/);
  });
});

describe("verify DIR", () => {
  it("verifies the bundle as written: signature, digests, contract, and the failure the traffic shows again", async () => {
    const manifest = json<Manifest>(bundle, BUNDLE_FILES.manifest);
    const { code, out, err } = await verify(bundle, "--signer", manifest.signer.fingerprint);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toContain(`signed by ${manifest.signer.fingerprint}`);
    expect(out).toContain("the contract of this CLI");
    expect(out).toMatch(/re-judged: \d+ exchanges \([1-9]\d* webhook deliver(y|ies) beside them\), \d+ checks with exchanges: \d+ passes and [1-9]\d* failures the traffic agrees with.*; no disagreement/);
    expect(out).toMatch(/FAIL \(\d+ pass, [1-9]\d* fail/);
    expect((await verify(bundle, "--require-pass")).code).toBe(1);
  });

  it("fails on one byte changed in any file, naming the file", async () => {
    for (const name of readdirSync(bundle)) {
      const dir = copy();
      const path = join(dir, name);
      const bytes = readFileSync(path);
      // A letter or digit in the middle becomes another one: the file keeps its form.
      let at = Math.floor(bytes.length / 2);
      while (!/[0-9A-Za-z]/.test(String.fromCharCode(bytes[at]!))) at += 1;
      bytes[at] = bytes[at] === 0x41 ? 0x42 : 0x41;
      writeFileSync(path, bytes);
      const { code, err } = await verify(dir);
      expect(code, `${name}: ${err}`).toBeGreaterThan(0);
      expect(err.split("\n")[0], name).toContain(path);
    }
  });

  it("fails on a file removed, naming it, and reads no bundle without its envelope (exit 2)", async () => {
    const dir = copy();
    rmSync(join(dir, BUNDLE_FILES.report));
    expect(await verify(dir)).toMatchObject({ code: 1, err: `${join(dir, BUNDLE_FILES.report)}: missing: the signed statement lists it` });
    rmSync(join(dir, BUNDLE_FILES.envelope));
    expect(await verify(dir)).toMatchObject({ code: 2, err: expect.stringMatching(/^payment-collection verify: \S+statement\.dsse\.json: missing: not a bundle/) });
  });

  it("refuses a statement of another predicate type (exit 2)", async () => {
    const dir = copy();
    const key = generateSigningKey();
    const statement = { _type: STATEMENT_TYPE, subject: [], predicateType: "https://example.com/other/v1", predicate: {} };
    writeFileSync(join(dir, BUNDLE_FILES.publicKey), key.publicKey.export({ type: "spki", format: "pem" }).toString());
    writeFileSync(join(dir, BUNDLE_FILES.envelope), JSON.stringify(signEnvelope(Buffer.from(JSON.stringify(statement)), key)));
    const { code, err } = await verify(dir);
    expect(code).toBe(2);
    expect(err).toContain(`unknown predicate type "https://example.com/other/v1": not a conformance bundle (${PREDICATE_TYPE})`);
  });

  it("names the check whose exchange was deleted from the HAR of a bundle signed again, and the key with --signer", async () => {
    const failed = json<{ results: CheckResult[] }>(bundle, BUNDLE_FILES.report).results.find((r) => r.verdict === "fail" && (r.exchanges?.length ?? 0) > 0)!;
    const dir = copy();
    const other = generateSigningKey();
    resign(dir, other, (files, manifest) => {
      const { head, entries, tail } = harLines(files.get(BUNDLE_FILES.exchanges)!);
      const kept = entries.filter((line) => !(JSON.parse(line)._checks as string[]).includes(failed.id));
      files.set(BUNDLE_FILES.exchanges, harText(head, kept, tail));
      manifest.run.exchanges = kept.length;
    });
    const { code, err } = await verify(dir);
    expect(code).toBe(1);
    expect(err).toContain(`disagreement: check ${failed.id} failed, but exchanges.har does not hold an exchange report.json shows for it`);
    const original = json<Manifest>(bundle, BUNDLE_FILES.manifest).signer.fingerprint;
    const signed = await verify(dir, "--signer", original);
    expect(signed).toMatchObject({ code: 1, err: `${join(dir, BUNDLE_FILES.envelope)}: signed by ${other.fingerprint}, not by --signer ${original}` });
  });

  it("names the check dropped from report.json of a bundle signed again", async () => {
    const dir = copy();
    let dropped = "";
    resign(dir, generateSigningKey(), (files, manifest) => {
      const report = JSON.parse(files.get(BUNDLE_FILES.report)!) as { results: CheckResult[] };
      // The mutant's own failure (its merchant document), whose exchange the traffic shows failing.
      dropped = report.results.find((r) => r.verdict === "fail" && r.id.startsWith("family-a/getMerchant/200/"))!.id;
      report.results = report.results.filter((r) => r.id !== dropped);
      files.set(BUNDLE_FILES.report, JSON.stringify(report));
      manifest.run.counts.fail -= 1;
    });
    const { code, err } = await verify(dir);
    expect(code).toBe(1);
    expect(err).toMatch(new RegExp(`disagreement: check ${dropped.replace(/[/]/g, "\\/")}: exchanges.har holds \\d+ exchange\\(s\\) of it .*report.json has no result for it`));
    expect(err).toMatch(/disagreement: exchanges.har entry #\d+, .*the traffic shows getMerchant 200 \[statement A-MERCHANT-FIELD-document\].*report.json has no failed check for it/);
  });

  it("says which contract documents differ from the CLI's, goes on with --contract DIR holding the bundle's, else exits 2", async () => {
    // A contract folder like the CLI's but for one changed decision record.
    const other = join(work, "other-contract");
    for (const part of ["generated", "spec/statements.yaml", "docs/decisions.md", "contract/package.json"]) cpSync(join(CONTRACT_ROOT, part), join(other, part), { recursive: true });
    writeFileSync(join(other, "docs/decisions.md"), `${read(other, "docs/decisions.md")}\n`);
    const dir = copy();
    resign(dir, generateSigningKey(), (_, manifest) => void (manifest.contract = contractDigest(other)));
    const without = await verify(dir);
    expect(without.code).toBe(2);
    expect(without.out).toMatch(/contract: the bundle was judged against 0\.\d+\.\d+ \(documents family-a \S+, family-b \S+\), this CLI carries 0\.\d+\.\d+ .*; they differ in 1 file\(s\): docs\/decisions\.md/);
    expect(without.err).toMatch(/manifest\.json: the bundle's contract .* is not installed here .*give --contract DIR/);
    const withContract = await verify(dir, "--contract", other);
    expect(withContract.code, withContract.err).toBe(0);
    expect(withContract.out).toContain(`re-judging with the bundle's contract, found at ${other}`);
  });
});

describe("--signing-key FILE", () => {
  it("refuses a key that is not Ed25519 with one line and exit 2, before any request", async () => {
    const rsa = join(work, "rsa.pem");
    writeFileSync(rsa, generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }));
    const dir = join(work, "refused");
    const { code, err } = await capture(() => conformanceCommand(["--target", targetFile, "--bundle", dir, "--signing-key", rsa, "--quiet"]));
    expect(code).toBe(2);
    expect(err).toBe(`payment-collection conformance: --signing-key ${rsa}: an RSA key, not an Ed25519 private key; make one with: openssl genpkey -algorithm ed25519`);
    expect(existsSync(dir)).toBe(false);
  });

  it("signs with the key given: verify --signer holds it to that key (a --fail-fast run)", async () => {
    const file = join(work, "ed25519.pem");
    writeFileSync(file, generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }));
    const fingerprint = loadSigningKey(file).fingerprint;
    const dir = join(work, "own-key");
    const { code, out } = await capture(() => conformanceCommand(["--target", targetFile, "--family", "family-a", "--fail-fast", "--bundle", dir, "--signing-key", file, "--quiet"]));
    expect(code).toBe(1);
    expect(out).toContain(`signed by ${fingerprint}`);
    expect(existsSync(`${dir}.signing-key.pem`)).toBe(false);
    const checked = await verify(dir, "--signer", fingerprint);
    expect(checked.code, checked.err).toBe(0);
  });
});
