/**
 * A bundle from the command's side (`conformance --bundle DIR`): its key is read before
 * anything runs (a key that cannot sign stops the command at once, exit 2), the recording
 * follows the preflight and the run, and the bundle is written once the reports are known, also
 * for a run that stopped early.
 */
import { BUNDLE_FILES } from "./layout.ts";
import { RunRecording } from "./recorder.ts";
import { loadSigningKey, type SigningKey } from "./signing.ts";
import { writeBundle, type BundleInput } from "./write-bundle.ts";

export { SigningKeyError } from "./signing.ts";

/** What the command knows once the run is over; the session adds its folder, recording, times and key. */
export type BundleResult = Omit<BundleInput, "dir" | "recording" | "startedAt" | "endedAt" | "signingKey">;

export class BundleSession {
  readonly recording = new RunRecording();
  readonly startedAt = Date.now();

  private constructor(
    readonly dir: string,
    private readonly key?: SigningKey,
  ) {}

  /** Throws a SigningKeyError (one line) when `signingKey` is not an Ed25519 private key. */
  static open(dir: string, signingKey?: string): BundleSession {
    return new BundleSession(dir, signingKey ? loadSigningKey(signingKey) : undefined);
  }

  /** Writes the bundle; returns the lines that say where it is and who signed it. */
  async finish(result: BundleResult): Promise<string[]> {
    const written = await writeBundle({ dir: this.dir, ...result, recording: this.recording, startedAt: this.startedAt, endedAt: Date.now(), signingKey: this.key });
    return [
      `Bundle: ${written.dir} (${written.files.length} files, ${(written.bytes / 1024 / 1024).toFixed(2)} MiB), signed by ${written.fingerprint} (public key: ${BUNDLE_FILES.publicKey})`,
      ...(written.generatedKey ? [`Signing key made for this run: ${written.generatedKey} (keep it private; --signing-key FILE signs with your own)`] : []),
      `Check it anywhere: payment-collection verify ${written.dir} --signer ${written.fingerprint}`,
    ];
  }
}
