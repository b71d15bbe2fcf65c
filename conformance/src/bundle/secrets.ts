/**
 * The secrets of a target (every key of both families and the webhook signing secret) and
 * their removal from every file of a bundle: each is replaced by its fingerprint
 * (`key#1a2b3c4d`, traffic/exchange.ts), as the traffic reports name keys. A key's random
 * part is a secret too: a check that sends a key made from another (the environment swapped)
 * repeats it.
 */
import { FAMILY_IDS, type FamilyId } from "@payment-collection/contract/model/index.ts";
import { familyTarget, type Target } from "../core/target.ts";
import { keyFingerprint } from "../traffic/exchange.ts";

export interface TargetSecret {
  family: FamilyId;
  /** The member of the target that holds it: a key's name, or `webhookSecret`. */
  name: string;
  value: string;
}

/** The published key form `<prefix>_<environment>_<random_string>`: the random string. */
const RANDOM_PART = /^.+?_(?:test|live)_(.{8,})$/;

/** Every secret a target holds, by family. */
export function targetSecrets(target: Target): TargetSecret[] {
  return FAMILY_IDS.flatMap((family) => {
    const server = familyTarget(target, family);
    if (!server) return [];
    const keys = Object.entries(server.keys as Record<string, string | undefined>).filter((entry): entry is [string, string] => !!entry[1]);
    const webhookSecret = (server as { webhookSecret?: string }).webhookSecret;
    return [...keys, ...(webhookSecret ? [["webhookSecret", webhookSecret] as [string, string]] : [])].map(([name, value]) => ({ family, name, value }));
  });
}

/** Replaces every secret (and every key's random part) by its fingerprint, in any text. */
export class Redactor {
  private readonly pattern?: RegExp;
  private readonly replacement = new Map<string, string>();

  constructor(secrets: Iterable<string>) {
    for (const secret of secrets) {
      if (secret.length < 4) continue;
      this.replacement.set(secret, keyFingerprint(secret));
      const random = RANDOM_PART.exec(secret)?.[1];
      if (random && !this.replacement.has(random)) this.replacement.set(random, keyFingerprint(random));
    }
    // Longest first: a key is replaced whole before its random part could be.
    const values = [...this.replacement.keys()].sort((a, b) => b.length - a.length);
    if (values.length > 0) this.pattern = new RegExp(values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
  }

  redact(text: string): string;
  redact(text: string | undefined): string | undefined;
  redact(text: string | undefined): string | undefined {
    if (text === undefined || !this.pattern) return text;
    return text.replace(this.pattern, (found) => this.replacement.get(found) ?? found);
  }
}
