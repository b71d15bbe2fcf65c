/**
 * The sandbox's accounts and API keys. They are seeded, not created: every sandbox started
 * with the same seed has the same keys, so tests, the conformance target file and a team's
 * local setup can name them without reading them from a running instance.
 *
 * Key formats:
 * - family A: `sk_test_` + 32 letters and digits. The sandbox is the planned family A
 *   sandbox, so it accepts `sk_test_` keys and refuses `sk_live_` keys (401 UNAUTHORIZED).
 * - family B: `sdk_test_` + 32 letters and digits, the document's
 *   `<prefix>_<environment>_<random_string>` with the prefix `sdk` (decision D22 leaves the
 *   prefix open) and the environment `test`; `sdk_live_` keys are refused.
 *
 * Three accounts: account 1 (`primary`, plus a family A key without `merchant:read` and, in
 * each family, a second full key `primarySecondKey`: idempotency keys are scoped per API key,
 * so two keys of one account have two key spaces), account 2 (`secondAccount`, for tenant
 * isolation) and account 3 (`rateLimits`, a key dedicated to checks that exhaust rate limits
 * so that they disturb nothing else).
 */
import type { components as FamilyA } from "../../generated/types/family-a.ts";
import { ACCOUNT_PROFILES, DEFAULT_KEY_SEED, keySecret, webhookSecret, webhookSecretsOf, type Family, type SandboxKeys } from "./key-fixtures.ts";

export type Merchant = FamilyA["schemas"]["Merchant"];

/**
 * Scopes held by full keys: those the contract requires of some operation (`x-required-scopes`),
 * which is `merchant:read` alone (D20 leaves other scopes open, and the sandbox requires none).
 */
export const ALL_SCOPES = ["merchant:read"] as const;

export interface SandboxAccount {
  id: string;
  merchant: Merchant;
  /** Short merchant name and city written into BR Codes (EMV fields 59 and 60). */
  brCode: { merchantName: string; merchantCity: string };
  /** The account's own PIX key (EVP), shown in boleto PIX blocks. */
  pixKey: string;
  /** Receiver block of the account's boletos. */
  receiver: { name: string; document: string; account: string; agency: string };
  /** Standard Webhooks secret (`whsec_...`) signing the account's webhooks. */
  webhookSecret: string;
}

export interface SandboxApiKey {
  /** Stable id of the key: the scope of its idempotency keys. */
  id: string;
  secret: string;
  family: Family;
  accountId: string;
  scopes: readonly string[];
}


export { DEFAULT_KEY_SEED, FAMILY_B_KEY_PREFIX } from "./key-fixtures.ts";
export type { Family, SandboxKeys } from "./key-fixtures.ts";

export interface KeyRing {
  keys: SandboxKeys;
  accounts: ReadonlyMap<string, SandboxAccount>;
  /** Looks a key up by its secret (none when no key was sent). */
  bySecret(secret: string | undefined): SandboxApiKey | undefined;
}

/** Derives the accounts and keys of a seed. */
export function createKeyRing(seed: string = DEFAULT_KEY_SEED): KeyRing {
  const accounts = new Map<string, SandboxAccount>();
  for (const profile of ACCOUNT_PROFILES) {
    const { id: merchantId, ...merchant } = profile.merchant;
    accounts.set(profile.id, {
      id: profile.id,
      merchant: {
        id: merchantId,
        object: "merchant",
        ...merchant,
        status: "active",
        kyc_status: "approved",
      } as Merchant,
      brCode: { ...profile.brCode },
      pixKey: profile.pixKey,
      receiver: { name: profile.merchant.legal_name, document: profile.merchant.document, ...profile.receiver },
      webhookSecret: webhookSecret(seed, profile.label),
    });
  }
  const entries: SandboxApiKey[] = [
    { id: "key_a_primary", family: "A", accountId: "acc_1", scopes: ALL_SCOPES },
    // Stryker disable next-line ArrayDeclaration: a scope no operation requires (D20: only merchant:read is) is one no client can tell; the key lacks merchant:read either way
    { id: "key_a_no_merchant_read", family: "A", accountId: "acc_1", scopes: [] },
    { id: "key_a_primary_second", family: "A", accountId: "acc_1", scopes: ALL_SCOPES },
    { id: "key_a_second", family: "A", accountId: "acc_2", scopes: ALL_SCOPES },
    { id: "key_a_rate_limits", family: "A", accountId: "acc_3", scopes: ALL_SCOPES },
    { id: "key_b_primary", family: "B", accountId: "acc_1", scopes: ALL_SCOPES },
    { id: "key_b_primary_second", family: "B", accountId: "acc_1", scopes: ALL_SCOPES },
    { id: "key_b_second", family: "B", accountId: "acc_2", scopes: ALL_SCOPES },
    { id: "key_b_rate_limits", family: "B", accountId: "acc_3", scopes: ALL_SCOPES },
  ].map((key) => ({ ...key, family: key.family as Family, secret: keySecret(seed, key.family as Family, key.id) }));
  const secretOf = (id: string) => entries.find((e) => e.id === id)!.secret;
  const bySecret = new Map<string | undefined, SandboxApiKey>(entries.map((e) => [e.secret, e]));
  return {
    keys: {
      familyA: {
        primary: secretOf("key_a_primary"),
        noMerchantRead: secretOf("key_a_no_merchant_read"),
        secondAccount: secretOf("key_a_second"),
        rateLimits: secretOf("key_a_rate_limits"),
        primarySecondKey: secretOf("key_a_primary_second"),
      },
      familyB: {
        primary: secretOf("key_b_primary"),
        secondAccount: secretOf("key_b_second"),
        rateLimits: secretOf("key_b_rate_limits"),
        primarySecondKey: secretOf("key_b_primary_second"),
      },
      webhookSecrets: webhookSecretsOf(seed),
    },
    accounts,
    bySecret: (secret) => bySecret.get(secret),
  };
}

/** The keys of a sandbox started with the default seed (documented in sandbox/README.md). */
export const SANDBOX_KEYS: SandboxKeys = createKeyRing().keys;
