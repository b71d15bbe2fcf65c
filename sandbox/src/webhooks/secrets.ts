/**
 * Webhook signing secrets and their rotation. Each account starts with its seeded secret
 * (`SANDBOX_KEYS.webhookSecrets`); a rotation stores a new one and keeps signing with the
 * previous one too (both signatures in `webhook-signature`) for an overlap period, so receivers
 * can switch without losing events. The overlap ends on the account's clock, like every other
 * sandbox deadline, so that advancing the clock ends it.
 *
 * Rotating again during an overlap keeps every secret still signing (up to MAX_PREVIOUS_SECRETS
 * earlier ones, the oldest dropped beyond that) and extends their overlap to the new rotation's
 * end: two rotations in a row never cut off a receiver that knows the secret before last
 * (Standard Webhooks allows one signature per secret in `webhook-signature`).
 */
import { randomBytes } from "node:crypto";
import type { KeyRing } from "../keys.ts";
import type { SandboxStore, WebhookSecrets } from "../store/types.ts";

/** Earlier secrets that keep signing during an overlap, at most (so at most four signatures). */
export const MAX_PREVIOUS_SECRETS = 3;

/** The secrets signing an account's events, and when the previous ones stop (account clock, ms). */
export interface SigningSecrets {
  /** The current secret first; the previous ones follow it, most recent first, during a rotation's overlap. */
  secrets: string[];
  previousUntilMs: number | null;
}

export interface RotatedSecrets {
  current: string;
  /** The secret the rotation replaced. */
  previous: string;
  /** Every earlier secret still signing, most recent first (`previous` first). */
  stillSigning: string[];
  previousUntilMs: number;
}

/** A new Standard Webhooks secret: `whsec_` and the base64 of 24 random bytes. */
export function newSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

export interface SecretKeeper {
  signingSecrets(accountId: string): Promise<SigningSecrets>;
  /** The secrets that sign the account's events now, the current one first. */
  secrets(accountId: string): Promise<string[]>;
  /** Replaces the account's secret; the previous one keeps signing for the overlap. Not serialised: the caller runs rotations one at a time. */
  rotate(accountId: string): Promise<RotatedSecrets>;
}

export function createSecretKeeper(
  store: SandboxStore,
  keyRing: KeyRing,
  accountNowMs: (accountId: string) => Promise<number>,
  overlapMs: number,
): SecretKeeper {
  async function signingSecrets(accountId: string): Promise<SigningSecrets> {
    const stored = await store.webhookSecrets(accountId);
    // Every caller names an account of the key ring (a key's, or an event's, which a key created).
    if (!stored) return { secrets: [keyRing.accounts.get(accountId)!.webhookSecret], previousUntilMs: null };
    // Until the overlap ends the earlier secrets sign too (a row without an overlap has none).
    const overlapEndsMs = stored.previousUntilMs ?? Number.NEGATIVE_INFINITY;
    if (overlapEndsMs > (await accountNowMs(accountId))) return { secrets: [stored.current, ...stored.previous], previousUntilMs: overlapEndsMs };
    return { secrets: [stored.current], previousUntilMs: null };
  }

  async function secrets(accountId: string): Promise<string[]> {
    return (await signingSecrets(accountId)).secrets;
  }

  return {
    signingSecrets,
    secrets,
    async rotate(accountId) {
      const signing = await secrets(accountId);
      // An account always has a secret: its seeded one until it is first rotated.
      const current = signing[0]!;
      const stillSigning = signing.slice(0, MAX_PREVIOUS_SECRETS);
      const previousUntilMs = (await accountNowMs(accountId)) + overlapMs;
      await store.saveWebhookSecrets(accountId, { current: newSecret(), previous: stillSigning, previousUntilMs });
      const saved = (await store.webhookSecrets(accountId))!;
      return { current: saved.current, previous: current, stillSigning, previousUntilMs };
    },
  };
}
