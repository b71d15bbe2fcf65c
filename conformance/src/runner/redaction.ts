/**
 * No secret of the target leaves a run: every key and webhook secret the target file names is
 * replaced, in every text a result carries (reasons, exchanges, reproductions), by its
 * fingerprint (`key#1a2b3c4d`), the one the traffic reports use. A server that echoes a key, or
 * a check that sends one in a URL query, shows the fingerprint in the terminal, JSON, JUnit,
 * Markdown and HTML reports alike. The report lists which member each fingerprint stands for.
 */
import type { CheckResult, KeyFingerprint } from "../core/results.ts";
import { TARGET_KEYS, type Target } from "../core/target.ts";
import { keyFingerprint, redactKeys } from "../traffic/exchange.ts";

/** The secrets of a target, each with the member that names it (`familyA.keys.primary`). */
export function targetSecrets(target: Target): Array<{ member: string; value: string }> {
  const secrets: Array<{ member: string; value: string }> = [];
  for (const section of Object.values(TARGET_KEYS)) {
    const family = target[section] as { keys?: Record<string, string | undefined>; webhookSecret?: string } | undefined;
    if (!family) continue;
    for (const [name, value] of Object.entries(family.keys ?? {})) if (value) secrets.push({ member: `${section}.keys.${name}`, value });
    if (family.webhookSecret) secrets.push({ member: `${section}.webhookSecret`, value: family.webhookSecret });
  }
  return secrets;
}

/** Which fingerprint stands for which member of the target file. */
export function fingerprintsOf(target: Target): KeyFingerprint[] {
  return targetSecrets(target).map(({ member, value }) => ({ member, fingerprint: keyFingerprint(value) }));
}

/** A redactor of the target's secrets; the identity when the target names none. */
export function redactor(target: Target): (text: string) => string {
  const values = [...new Set(targetSecrets(target).map((s) => s.value))];
  // Longest first: a key that contains another is replaced whole.
  values.sort((a, b) => b.length - a.length);
  return values.length === 0 ? (text) => text : (text) => redactKeys(text, values);
}

/** The result with every secret of the target replaced by its fingerprint. */
export function redactResult(result: CheckResult, redact: (text: string) => string): CheckResult {
  const example = result.example === undefined ? undefined : JSON.stringify(result.example);
  return {
    ...result,
    title: redact(result.title),
    reasons: result.reasons.map(redact),
    ...(result.exchanges ? { exchanges: result.exchanges.map((e) => ({ ...e, url: redact(e.url), body: redact(e.body), ...(e.reproduction ? { reproduction: redact(e.reproduction) } : {}) })) } : {}),
    ...(result.reproduction ? { reproduction: redact(result.reproduction) } : {}),
    ...(example !== undefined && redact(example) !== example ? { example: JSON.parse(redact(example)) as unknown } : {}),
  };
}
