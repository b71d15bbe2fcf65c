/**
 * Webhook signing secrets and their rotation. Each account starts with its seeded secret
 * (`SANDBOX_KEYS.webhookSecrets`); a rotation stores a new one and keeps signing with the
 * previous one too (both signatures in `webhook-signature`) for an overlap period, so receivers
 * can switch without losing events. The overlap ends on the account's clock, like every other
 * sandbox deadline, so that advancing the clock ends it.
 */
import { randomBytes } from "node:crypto";
import type { KeyRing } from "../keys.ts";
import type { SandboxStore, WebhookSecrets } from "../store/types.ts";

/** The secrets signing an account's events, and when the previous one stops (account clock, ms). */
export interface SigningSecrets {
  /** The current secret first; the previous one follows it during a rotation's overlap. */
  secrets: string[];
  previousUntilMs: number | null;
}

export type RotatedSecrets = WebhookSecrets & { previous: string; previousUntilMs: number };

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
    if (!stored) {
      const account = keyRing.accounts.get(accountId);
      return { secrets: account ? [account.webhookSecret] : [], previousUntilMs: null };
    }
    if (stored.previous !== null && stored.previousUntilMs !== null && stored.previousUntilMs > (await accountNowMs(accountId))) {
      return { secrets: [stored.current, stored.previous], previousUntilMs: stored.previousUntilMs };
    }
    return { secrets: [stored.current], previousUntilMs: null };
  }

  async function secrets(accountId: string): Promise<string[]> {
    return (await signingSecrets(accountId)).secrets;
  }

  return {
    signingSecrets,
    secrets,
    async rotate(accountId) {
      const [current] = await secrets(accountId);
      if (current === undefined) throw new Error(`no webhook secret for account ${accountId}`);
      const rotated = { current: newSecret(), previous: current, previousUntilMs: (await accountNowMs(accountId)) + overlapMs };
      await store.saveWebhookSecrets(accountId, rotated);
      return rotated;
    },
  };
}
