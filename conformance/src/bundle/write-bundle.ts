/**
 * `conformance --bundle DIR`: the run as a bundle anyone can check again offline (verify.ts).
 *
 *   exchanges.har        every exchange of the run, in order, tagged with its checks (har.ts)
 *   report.json          the JSON report (`--json`), junit.xml (`--junit`), report.html (`--html`)
 *   manifest.json        tool, run, contract digest, target fingerprint, every other file's digest
 *   public-key.pem       the signer's public key
 *   statement.dsse.json  an in-toto Statement over every other file, in a DSSE envelope (Ed25519)
 *
 * No file holds a secret of the target: each is replaced by its fingerprint (secrets.ts), in
 * every file. A key made for the run is written beside the folder, never in it.
 */
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import type { RunReport } from "../core/results.ts";
import type { Target } from "../core/target.ts";
import { totals } from "../runner/report.ts";
import { contractDigest, sha256 } from "./contract-digest.ts";
import { harText } from "./har.ts";
import { BUNDLE_FILES, generatedKeyPath, PREDICATE_TYPE, STATEMENT_TYPE } from "./layout.ts";
import { manifestOf, predicateOf, toolVersions, type Manifest, type RunVerdict, type VerdictOptions } from "./manifest.ts";
import type { RunRecording } from "./recorder.ts";
import { Redactor, targetSecrets } from "./secrets.ts";
import { generateSigningKey, privateKeyPem, publicKeyPem, signEnvelope, type SigningKey } from "./signing.ts";
import { targetFingerprint } from "./target-fingerprint.ts";

export interface BundleInput {
  dir: string;
  target: Target;
  families: FamilyId[];
  report: RunReport;
  /** The texts `--json`, `--junit` and `--html` write for this run. */
  reportJson: string;
  junitXml: string;
  reportHtml: string;
  recording: RunRecording;
  options: VerdictOptions;
  /** The command's exit verdict, and why the run stopped when it did not end. */
  verdict: RunVerdict;
  stopped?: string;
  startedAt: number;
  endedAt: number;
  /** The signing key (`--signing-key`); without it one is made for the run and written beside the bundle. */
  signingKey?: SigningKey;
}

export interface WrittenBundle {
  dir: string;
  files: string[];
  bytes: number;
  fingerprint: string;
  /** Where the key made for this run was written. */
  generatedKey?: string;
}

/**
 * Seals a bundle's files: adds manifest.json (the run's description with every file's digest and
 * the signer) and statement.dsse.json (an in-toto Statement over every file, signed). `files`
 * holds the other files, the public key among them.
 */
export function sealBundle(files: ReadonlyMap<string, string>, description: Omit<Manifest, "files" | "signer">, key: SigningKey, redactor?: Redactor): Map<string, string> {
  const sealed = new Map(files);
  sealed.set(BUNDLE_FILES.publicKey, publicKeyPem(key));
  const manifest: Manifest = {
    ...description,
    signer: { fingerprint: key.fingerprint, publicKey: BUNDLE_FILES.publicKey },
    files: Object.fromEntries([...sealed].map(([name, text]) => [name, sha256(text)])),
  };
  const redact = (text: string) => redactor?.redact(text) ?? text;
  sealed.set(BUNDLE_FILES.manifest, redact(`${JSON.stringify(manifest, null, 2)}\n`));
  const statement = {
    _type: STATEMENT_TYPE,
    subject: [...sealed].map(([name, text]) => ({ name, digest: { sha256: sha256(text) } })),
    predicateType: PREDICATE_TYPE,
    predicate: predicateOf(manifest),
  };
  sealed.set(BUNDLE_FILES.envelope, `${JSON.stringify(signEnvelope(Buffer.from(redact(JSON.stringify(statement))), key), null, 2)}\n`);
  return sealed;
}

/** Writes a bundle's files into `dir`, removing a file an earlier bundle there had and this one has not. */
export function writeBundleFiles(dir: string, files: ReadonlyMap<string, string>): number {
  mkdirSync(dir, { recursive: true });
  for (const name of Object.values(BUNDLE_FILES)) rmSync(join(dir, name), { force: true });
  let bytes = 0;
  for (const [name, text] of files) {
    writeFileSync(join(dir, name), text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}

export async function writeBundle(input: BundleInput): Promise<WrittenBundle> {
  const key = input.signingKey ?? generateSigningKey();
  const redactor = new Redactor(targetSecrets(input.target).map((secret) => secret.value));
  const exchanges = input.recording.inOrder();
  const results = new Set(input.report.results.map((result) => result.id));
  const count = totals(input.report);

  const files = new Map<string, string>();
  files.set(BUNDLE_FILES.exchanges, harText(exchanges, results, redactor, { name: "payment-collection conformance", version: toolVersions().version }));
  files.set(BUNDLE_FILES.report, redactor.redact(input.reportJson));
  files.set(BUNDLE_FILES.junit, redactor.redact(input.junitXml));
  files.set(BUNDLE_FILES.html, redactor.redact(input.reportHtml));

  const description = manifestOf({
    run: {
      profile: input.report.profile,
      families: input.families,
      ...(input.report.seed !== undefined ? { seed: input.report.seed } : {}),
      options: input.options,
      startedAt: new Date(input.startedAt).toISOString(),
      endedAt: new Date(input.endedAt).toISOString(),
      verdict: input.verdict,
      ...(input.stopped ? { stopped: input.stopped } : {}),
      counts: { pass: count.pass, fail: count.fail, notApplicable: count["not-applicable"] },
      exchanges: exchanges.length,
      webhookDeliveries: exchanges.filter((e) => e.direction === "received").length,
    },
    contract: contractDigest(),
    target: await targetFingerprint(input.target, input.families, exchanges),
  });
  const sealed = sealBundle(files, description, key, redactor);
  // A bundle written here before must not leave a file this one does not have (report.html).
  const bytes = writeBundleFiles(input.dir, sealed);
  let generatedKey: string | undefined;
  if (!input.signingKey) {
    generatedKey = generatedKeyPath(input.dir);
    writeFileSync(generatedKey, privateKeyPem(key), { mode: 0o600 });
    chmodSync(generatedKey, 0o600);
  }
  return { dir: input.dir, files: [...sealed.keys()], bytes, fingerprint: key.fingerprint, generatedKey };
}
