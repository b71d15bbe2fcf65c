/**
 * `payment-collection verify DIR`: a bundle checked offline, with no access to the server.
 *
 * 1. the envelope's signature, with the bundle's public key (and `--signer`, the key expected);
 * 2. every file's digest against the signed statement, and the manifest against both;
 * 3. the contract: the bundle's digest against the contract this CLI carries; where they
 *    differ, the documents that differ and both versions, and the re-judging goes on with a
 *    contract that matches the bundle's (the project's installed one, or `--contract DIR`), or
 *    stops (exit 2);
 * 4. the verdicts, judged again from the exchanges (rejudge.ts).
 *
 * A problem of the bundle itself is one line naming the file and what is wrong: exit 1 when a
 * file was changed, removed or signed by another key (tampered), 2 when the bundle cannot be
 * read (no envelope, not JSON, a statement of an unknown kind, a contract this installation
 * does not have).
 */
import { createPublicKey, type KeyObject } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { join, resolve } from "node:path";
import { CONTRACT_ROOT } from "@payment-collection/contract/model/index.ts";
import type { CheckResult } from "../core/results.ts";
import { HarError } from "../traffic/har-reader.ts";
import { contractDigest, contractName, differingFiles, installedContractFolders, isContractFolder, sha256, type ContractDigest } from "./contract-digest.ts";
import { bundleEntries } from "./har.ts";
import { BUNDLE_FILES, PREDICATE_TYPE, STATEMENT_TYPE } from "./layout.ts";
import { predicateOf, type Manifest } from "./manifest.ts";
import { rejudge, type Rejudgement } from "./rejudge.ts";
import { envelopeVerifies, normaliseFingerprint, PAYLOAD_TYPE, signerFingerprint, type DsseEnvelope } from "./signing.ts";

export interface VerifyOptions {
  /** The fingerprint of the key that must have signed (`--signer`). */
  signer?: string;
  /** A folder holding the contract the bundle names, when this CLI carries another (`--contract`). */
  contract?: string;
  /** Exit 1 when the run the bundle records did not pass (`--require-pass`). */
  requirePass?: boolean;
  /** Where to look for the project's installed contract (default: the current folder). */
  cwd?: string;
}

export interface Verification {
  code: 0 | 1 | 2;
  /** The summary (stdout). */
  lines: string[];
  /** Problems, one line each (stderr). */
  problems: string[];
  rejudgement?: Rejudgement;
}

/** A problem of the bundle: the file, what is wrong, and whether it was tampered with (1) or cannot be read (2). */
class BundleProblem extends Error {
  constructor(
    readonly file: string,
    message: string,
    readonly code: 1 | 2,
  ) {
    super(message);
  }
}

const tampered = (file: string, message: string) => new BundleProblem(file, message, 1);
const unreadable = (file: string, message: string) => new BundleProblem(file, message, 2);

function parseJson<T>(text: string, file: string, problem: (file: string, message: string) => BundleProblem): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw problem(file, `not JSON (${(error as Error).message}): truncated or changed`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function readEnvelope(dir: string): DsseEnvelope {
  const file = BUNDLE_FILES.envelope;
  const path = join(dir, file);
  if (!existsSync(path)) throw unreadable(file, "missing: not a bundle (conformance --bundle DIR writes one)");
  const envelope = parseJson<unknown>(readFileSync(path, "utf8"), file, unreadable);
  const signatures = isObject(envelope) ? envelope.signatures : undefined;
  if (!isObject(envelope) || typeof envelope.payload !== "string" || typeof envelope.payloadType !== "string" || !Array.isArray(signatures) || signatures.length === 0 || !signatures.every((s) => isObject(s) && typeof s.sig === "string" && typeof s.keyid === "string")) {
    throw unreadable(file, "not a DSSE envelope (payloadType, payload and signatures with keyid and sig)");
  }
  if (envelope.payloadType !== PAYLOAD_TYPE) throw unreadable(file, `payload type ${JSON.stringify(envelope.payloadType)} is not an in-toto statement (${PAYLOAD_TYPE})`);
  return envelope as unknown as DsseEnvelope;
}

function readPublicKey(dir: string): KeyObject {
  const file = BUNDLE_FILES.publicKey;
  const path = join(dir, file);
  if (!existsSync(path)) throw tampered(file, "missing: the key that signed the bundle was removed");
  try {
    const key = createPublicKey(readFileSync(path));
    if (key.asymmetricKeyType !== "ed25519") throw new Error();
    return key;
  } catch {
    throw tampered(file, "not an Ed25519 public key in PEM form: changed after signing");
  }
}

interface Statement {
  subject: Array<{ name: string; digest: { sha256: string } }>;
  predicate: ReturnType<typeof predicateOf>;
}

function readStatement(envelope: DsseEnvelope): Statement {
  const file = BUNDLE_FILES.envelope;
  const statement = parseJson<unknown>(Buffer.from(envelope.payload, "base64").toString("utf8"), file, unreadable);
  if (!isObject(statement) || statement._type !== STATEMENT_TYPE) throw unreadable(file, `the payload is not an in-toto Statement v1 (${STATEMENT_TYPE})`);
  if (statement.predicateType !== PREDICATE_TYPE) throw unreadable(file, `unknown predicate type ${JSON.stringify(statement.predicateType)}: not a conformance bundle (${PREDICATE_TYPE})`);
  const subjects = statement.subject;
  if (!Array.isArray(subjects) || !subjects.every((s) => isObject(s) && typeof s.name === "string" && /^[\w.-]+$/.test(s.name) && isObject(s.digest) && typeof s.digest.sha256 === "string")) {
    throw unreadable(file, "the statement's subjects are not file names with SHA-256 digests");
  }
  return statement as unknown as Statement;
}

/** The contract to judge with: this CLI's when it is the bundle's, else one that is; undefined: none here. */
function chooseContract(bundle: ContractDigest, options: VerifyOptions, lines: string[]): string | undefined {
  const own = contractDigest();
  if (own.sha256 === bundle.sha256) {
    lines.push(`contract: ${contractName(bundle)}, the contract of this CLI (sha256 ${bundle.sha256.slice(0, 16)}...)`);
    return undefined;
  }
  const differ = differingFiles(bundle, own);
  lines.push(`contract: the bundle was judged against ${contractName(bundle)}, this CLI carries ${contractName(own)}; they differ in ${differ.length} file(s): ${differ.slice(0, 6).join(", ")}${differ.length > 6 ? ", ..." : ""}`);
  const candidates = [...(options.contract ? [resolve(options.contract)] : []), ...installedContractFolders(options.cwd ?? process.cwd())];
  for (const folder of candidates) {
    if (!isContractFolder(folder)) continue;
    if (contractDigest(folder).sha256 === bundle.sha256) {
      lines.push(`contract: re-judging with the bundle's contract, found at ${folder}`);
      return folder;
    }
  }
  throw unreadable(
    BUNDLE_FILES.manifest,
    `the bundle's contract ${contractName(bundle)} is not installed here (this CLI carries ${contractName(own)}; differing: ${differ.slice(0, 3).join(", ")}${differ.length > 3 ? ", ..." : ""}); give --contract DIR, a folder holding @payment-collection/contract ${bundle.version}`,
  );
}

export async function verifyBundle(dir: string, options: VerifyOptions = {}): Promise<Verification> {
  const lines: string[] = [];
  const problems: string[] = [];
  try {
    const wrote = "give the folder `payment-collection conformance --bundle DIR` wrote";
    if (!existsSync(dir)) throw unreadable("", `no such folder; ${wrote}`);
    if (!statSync(dir).isDirectory()) throw unreadable("", `a file, not a bundle's folder; ${wrote}`);
    // 1. The signature.
    const { fingerprint, statement } = signedStatement(dir, options);
    // 2. Every file against the signed statement; the manifest against both.
    const texts = signedTexts(dir, statement);
    const manifest = checkedManifest(texts, statement, fingerprint);
    const extra = readdirSync(dir).filter((name) => name !== BUNDLE_FILES.envelope && !texts.has(name));
    lines.push(`bundle ${dir}: signed by ${fingerprint}; ${texts.size} files, every digest matches${extra.length > 0 ? `; not signed, ignored: ${extra.join(", ")}` : ""}`);
    // 3. The contract.
    const contractRoot = chooseContract(manifest.contract, options, lines);
    // 4. The verdicts, judged again.
    const { judged, disagreements, stoppedEarly } = judgedAgain(texts, manifest, contractRoot ?? CONTRACT_ROOT);
    problems.push(...disagreements.map((line) => `disagreement: ${line}`));
    lines.push(...summary(manifest, judged, disagreements, stoppedEarly));
    const run = manifest.run;
    const code = disagreements.length > 0 ? 1 : options.requirePass && run.verdict !== "pass" ? 1 : 0;
    lines.push(
      code === 0
        ? `verified: the bundle is intact and its verdicts agree with its exchanges (exit 0)`
        : disagreements.length > 0
          ? `NOT VERIFIED: the report and the exchanges disagree (exit 1)`
          : `verified, but the run did not pass (--require-pass, exit 1)`,
    );
    return { code, lines, problems, rejudgement: judged };
  } catch (error) {
    if (!(error instanceof BundleProblem)) throw error;
    problems.push(`${error.file ? join(dir, error.file) : dir}: ${error.message}`);
    return { code: error.code, lines, problems };
  }
}

/** The signed statement, once the envelope's signature verifies with the bundle's key (and it is --signer's, when given). */
function signedStatement(dir: string, options: VerifyOptions): { fingerprint: string; statement: Statement } {
  const envelope = readEnvelope(dir);
  const publicKey = readPublicKey(dir);
  const fingerprint = signerFingerprint(publicKey);
  const signature = envelope.signatures.find((s) => s.keyid === fingerprint);
  if (!signature) throw tampered(BUNDLE_FILES.publicKey, `its fingerprint ${fingerprint} is not the key that signed the envelope (${envelope.signatures.map((s) => s.keyid).join(", ")})`);
  if (!envelopeVerifies(envelope, signature, publicKey)) throw tampered(BUNDLE_FILES.envelope, "the signature does not verify with public-key.pem: the statement was changed after signing");
  const statement = readStatement(envelope);
  if (options.signer && normaliseFingerprint(options.signer) !== fingerprint) {
    throw tampered(BUNDLE_FILES.envelope, `signed by ${fingerprint}, not by --signer ${normaliseFingerprint(options.signer)}`);
  }
  return { fingerprint, statement };
}

/** Every file the statement lists, as text, each with the digest it was signed with. */
function signedTexts(dir: string, statement: Statement): Map<string, string> {
  const texts = new Map<string, string>();
  for (const subject of statement.subject) {
    const path = join(dir, subject.name);
    if (!existsSync(path)) throw tampered(subject.name, "missing: the signed statement lists it");
    const bytes = readFileSync(path);
    if (sha256(bytes) !== subject.digest.sha256) throw tampered(subject.name, "its SHA-256 is not the one the signed statement gives: changed after signing");
    texts.set(subject.name, bytes.toString("utf8"));
  }
  for (const required of [BUNDLE_FILES.manifest, BUNDLE_FILES.exchanges, BUNDLE_FILES.report]) {
    if (!texts.has(required)) throw tampered(BUNDLE_FILES.envelope, `the signed statement does not list ${required}`);
  }
  return texts;
}

/** The manifest, once its digests, its signer and what it says of the run are the signed statement's. */
function checkedManifest(texts: Map<string, string>, statement: Statement, fingerprint: string): Manifest {
  const manifest = parseJson<Manifest>(texts.get(BUNDLE_FILES.manifest)!, BUNDLE_FILES.manifest, unreadable);
  const listed = Object.entries(manifest.files ?? {});
  const signedFiles = statement.subject.filter((s) => s.name !== BUNDLE_FILES.manifest);
  if (listed.length !== signedFiles.length || !signedFiles.every((s) => manifest.files[s.name] === s.digest.sha256)) {
    throw tampered(BUNDLE_FILES.manifest, "its file digests are not the signed statement's");
  }
  if (manifest.signer?.fingerprint !== fingerprint || !isDeepStrictEqual(predicateOf(manifest), statement.predicate)) {
    throw tampered(BUNDLE_FILES.manifest, "what it says of the run, the contract, the target or the signer is not what the signed statement says");
  }
  return manifest;
}

type BundleReport = { results: CheckResult[]; profile?: string; stoppedEarly?: { after: string } };

/** The report's verdicts judged again from the exchanges, and where the report, the manifest and the traffic disagree. */
function judgedAgain(texts: Map<string, string>, manifest: Manifest, contractRoot: string): { judged: Rejudgement; disagreements: string[]; stoppedEarly: string | undefined } {
  const report = parseJson<Partial<BundleReport>>(texts.get(BUNDLE_FILES.report)!, BUNDLE_FILES.report, unreadable);
  if (!Array.isArray(report.results)) throw unreadable(BUNDLE_FILES.report, "not a conformance report (no results)");
  const entries = exchangesOf(texts);
  const run = manifest.run;
  const mismatch = manifestMismatch(report as BundleReport, entries.length, run);
  const stopAfter = report.stoppedEarly?.after;
  const stoppedEarly = run.stopped ?? (stopAfter !== undefined ? `it stopped after ${stopAfter}` : undefined);
  const judged = rejudge({ entries, results: report.results, profile: run.profile, target: manifest.target, contractRoot, stoppedEarly });
  return { judged, disagreements: [...mismatch, ...judged.disagreements], stoppedEarly };
}

function exchangesOf(texts: Map<string, string>): ReturnType<typeof bundleEntries> {
  try {
    return bundleEntries(texts.get(BUNDLE_FILES.exchanges)!);
  } catch (error) {
    if (error instanceof HarError) throw unreadable(BUNDLE_FILES.exchanges, error.message);
    throw error;
  }
}

/** Where the report and the exchanges disagree with what the manifest says of the run. */
function manifestMismatch(report: BundleReport, exchanges: number, run: Manifest["run"]): string[] {
  const counts = { pass: 0, fail: 0, notApplicable: 0 };
  for (const r of report.results) counts[r.verdict === "not-applicable" ? "notApplicable" : r.verdict] += 1;
  const mismatch: string[] = [];
  if (!isDeepStrictEqual(counts, run.counts)) mismatch.push(`report.json holds ${counts.pass} pass, ${counts.fail} fail, ${counts.notApplicable} n/a; manifest.json says ${run.counts.pass}, ${run.counts.fail}, ${run.counts.notApplicable}`);
  if (exchanges !== run.exchanges) mismatch.push(`exchanges.har holds ${exchanges} exchanges; manifest.json says ${run.exchanges}`);
  if (report.profile !== run.profile) mismatch.push(`report.json's profile is ${report.profile}; manifest.json says ${run.profile}`);
  // --fail-fast stops after a failure, and after nothing else.
  const stopAfter = report.stoppedEarly?.after;
  if (stopAfter !== undefined && report.results.find((r) => r.id === stopAfter)?.verdict !== "fail" && run.options.failFast) {
    mismatch.push(`report.json says the run stopped after ${stopAfter}, which is not a failed check of it, although it ran with --fail-fast`);
  }
  return mismatch;
}

/** What verify prints of the target, the run and the judging again. */
function summary(manifest: Manifest, judged: Rejudgement, disagreements: string[], stoppedEarly: string | undefined): string[] {
  const run = manifest.run;
  const targets = manifest.target.map((t) => `${t.family} ${t.baseUrl}${t.server.length > 0 ? ` (Server: ${t.server.join(", ")})` : ""}${t.tls?.sha256 ? ` TLS ${t.tls.sha256}` : ""}`);
  const apart = new Map<string, number>();
  for (const a of judged.apart) apart.set(a.reason, (apart.get(a.reason) ?? 0) + 1);
  return [
    `target: ${targets.join("; ")}`,
    `run: profile ${run.profile}, ${run.families.join(" and ")}${run.seed !== undefined ? `, seed ${run.seed}` : ""}, ${run.startedAt} to ${run.endedAt}: ${run.verdict.toUpperCase()} (${run.counts.pass} pass, ${run.counts.fail} fail, ${run.counts.notApplicable} not applicable)`,
    `re-judged: ${judged.exchanges} exchanges (${judged.deliveries === 1 ? "1 webhook delivery" : `${judged.deliveries} webhook deliveries`} beside them), ${judged.rejudged} checks with exchanges: ${judged.passed} passes and ${judged.confirmed} failures the traffic agrees with` +
      (judged.apart.length > 0 ? `; ${judged.apart.length} failure(s) counted apart, needing more than the traffic shows (${[...apart].map(([reason, n]) => `${reason}: ${n}`).join("; ")})` : "") +
      (judged.unjudged > 0 ? `; ${judged.unjudged} violation(s) in the traffic no check judged, the run having stopped early (${stoppedEarly})` : "") +
      `; ${disagreements.length === 0 ? "no disagreement" : `${disagreements.length} disagreement(s)`}`,
    ...judged.apart.map((a) => `  counted apart: ${a.id}: ${a.reason}`),
  ];
}
