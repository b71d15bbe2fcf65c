/**
 * `payment-collection verify DIR [options]`: checks a conformance bundle offline (verify.ts).
 * Exit codes: 0 the bundle is intact and its verdicts agree with its exchanges; 1 tampered (a
 * file changed or removed, the signature, another signer than --signer, a disagreement between
 * the report and the exchanges; with --require-pass, a run that did not pass); 2 unreadable
 * (bad options, no bundle, a file that is not what it should be, a contract not installed here).
 */
import { helpHint, readCommandLine, refuse, UsageError } from "@payment-collection/contract/command/command-line.ts";
import { callerPath } from "../runner/cli-options.ts";
import { EXIT } from "../runner/exit-codes.ts";

export const VERIFY_USAGE = `usage: payment-collection verify DIR [options]

Checks a conformance bundle (written by \`payment-collection conformance --bundle DIR\`) offline,
with no access to the server: the signature; every file's digest; the contract it was judged
against, compared with the one this CLI carries; and the verdicts, judged again: every recorded
exchange goes through the traffic engine under the bundle's profile, every violation must be a
failed check of report.json, every failed check must be backed by its recorded exchanges.
Failures that need more than the traffic shows (a webhook's arrival, a rate-limit window's
timing) are counted apart, with the reason.

  --signer FINGERPRINT  fail unless this key signed the bundle (SHA256:..., as conformance
                        --bundle printed it)
  --contract DIR        a folder holding the contract the bundle names (an installed
                        @payment-collection/contract of that version), when this CLI carries
                        another; the project's own installed contract is tried too
  --require-pass        also fail (exit 1) when the run the bundle records did not pass
  -h, --help            this text

Exit codes: 0 the bundle is intact and its verdicts agree with its exchanges (whatever the run's
verdict, unless --require-pass); 1 tampered: a file changed or removed, a bad signature,
another signer than --signer, the report and the exchanges disagree (with --require-pass: the
run did not pass); 2 unreadable: bad options, no bundle there, a file that cannot be read, a
statement of an unknown kind, or a contract this installation does not have.`;

const OPTIONS = {
  signer: { type: "string" },
  contract: { type: "string" },
  "require-pass": { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

export async function verifyCommand(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = readCommandLine("verify", argv, OPTIONS, { positionals: true });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return refuse("verify", error.message, EXIT.stopped);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(VERIFY_USAGE);
    return EXIT.pass;
  }
  if (positionals.length !== 1) {
    const problem = positionals.length === 0 ? "the bundle's folder DIR is required (payment-collection verify reports/bundle)" : `one bundle at a time, got ${positionals.length}`;
    return refuse("verify", `${problem}; ${helpHint("verify")}`, EXIT.stopped);
  }
  if (values.signer !== undefined && !/^(sha256:)?[0-9a-f]{64}$/i.test(values.signer.trim())) {
    return refuse("verify", `--signer must be a key fingerprint, SHA256: and 64 hex digits, got ${values.signer}`, EXIT.stopped);
  }
  const { verifyBundle } = await import("./verify.ts");
  const outcome = await verifyBundle(callerPath(positionals[0])!, { signer: values.signer, contract: callerPath(values.contract), requirePass: values["require-pass"] });
  // An unreadable bundle is bad input, said in every command's style; a tampered one is a verdict.
  if (outcome.code === EXIT.stopped) {
    for (const line of outcome.lines) console.log(line);
    return refuse("verify", outcome.problems.join("; "), EXIT.stopped);
  }
  for (const line of outcome.problems) console.error(line);
  for (const line of outcome.lines) console.log(line);
  return outcome.code;
}
