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
import { createHmac } from "node:crypto";
import type { components as FamilyA } from "../../generated/types/family-a.ts";

export type Family = "A" | "B";
export type Merchant = FamilyA["schemas"]["Merchant"];

/** The default seed; `startSandbox({ keySeed })` derives another set of keys. */
// Stryker disable next-line all: the keys are fixtures the suites read from the sandbox they start, so any derivation giving distinct keys serves them; the documented default keys and their forms are pinned by sandbox/test/keys.test.ts
export const DEFAULT_KEY_SEED = "payment-collection-sandbox";

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

export interface SandboxKeys {
  familyA: { primary: string; noMerchantRead: string; secondAccount: string; rateLimits: string; primarySecondKey: string };
  familyB: { primary: string; secondAccount: string; rateLimits: string; primarySecondKey: string };
  /** Webhook signing secrets, by account. */
  webhookSecrets: { primary: string; secondAccount: string; rateLimits: string };
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// Stryker disable all: the keys are fixtures the suites read from the sandbox they start, so any derivation giving distinct keys serves them; the documented default keys and their forms are pinned by sandbox/test/keys.test.ts
/** 32 base-62 characters derived from the seed and a label (HMAC-SHA256). */
function derived(seed: string, label: string, length = 32): string {
  const bytes = createHmac("sha256", seed).update(label).digest();
  let out = "";
  for (let i = 0; out.length < length; i++) out += BASE62[bytes[i % bytes.length] % 62];
  return out;
}

function webhookSecret(seed: string, label: string): string {
  return `whsec_${createHmac("sha256", seed).update(`webhook:${label}`).digest().subarray(0, 24).toString("base64")}`;
}
// Stryker restore all

const ACCOUNT_PROFILES = [
  {
    id: "acc_1",
    label: "primary",
    merchant: {
      id: "mer_01JDQ6S2W8E4K7P9R1T3V5X7Z9",
      type: "company",
      name: "Loja Exemplo",
      legal_name: "Loja Exemplo Comercio de Artigos Ltda",
      document: "11222333000181",
      email: "financeiro@lojaexemplo.com.br",
      phone: "+5511987654321",
      created_at: "2025-03-10T12:00:00Z",
    },
    brCode: { merchantName: "LOJA EXEMPLO LTDA", merchantCity: "SAO PAULO" },
    pixKey: "3d9f2a61-7c4e-4b8a-9e15-2f6c8d0a4b73",
    receiver: { account: "12345-6", agency: "0910" },
  },
  {
    id: "acc_2",
    label: "secondAccount",
    merchant: {
      id: "mer_01JDQ6T5B3N8C1M6Q4W9E2R7Y5",
      type: "individual",
      name: "Ateliê da Ana",
      legal_name: "Ana Beatriz Moreira",
      document: "52998224725",
      email: "ana@ateliedaana.com.br",
      phone: null,
      created_at: "2025-06-02T09:30:00Z",
    },
    brCode: { merchantName: "ATELIE DA ANA", merchantCity: "CURITIBA" },
    pixKey: "8a41c0e2-5d7b-4f93-a6e8-1b2c3d4e5f60",
    receiver: { account: "65432-1", agency: "1234" },
  },
  {
    id: "acc_3",
    label: "rateLimits",
    merchant: {
      id: "mer_01JDQ6V7D5P2F8H3J6K9L1M4N8",
      type: "company",
      name: "Mercado Limite",
      legal_name: "Mercado Limite Comercio Ltda",
      document: "45723174000110",
      email: null,
      phone: null,
      created_at: "2025-08-20T15:45:00Z",
    },
    brCode: { merchantName: "MERCADO LIMITE", merchantCity: "RECIFE" },
    pixKey: "c7e3b9d1-2a4f-4e6c-8b0d-9f1a2b3c4d5e",
    receiver: { account: "11111-1", agency: "0001" },
  },
] as const;

// Stryker disable all: a key's label only derives its secret, and every label is distinct: the suites read the keys from the sandbox they start (the documented default keys are pinned by sandbox/test/keys.test.ts)
/** What each key's secret is derived from (with the seed): fixed, so that the documented default keys stay. */
const DERIVATION_LABELS: Record<string, string> = {
  key_a_primary: "A:primary",
  key_a_no_merchant_read: "A:noMerchantRead",
  key_a_primary_second: "A:primarySecondKey",
  key_a_second: "A:secondAccount",
  key_a_rate_limits: "A:rateLimits",
  key_b_primary: "B:primary",
  key_b_primary_second: "B:primarySecondKey",
  key_b_second: "B:secondAccount",
  key_b_rate_limits: "B:rateLimits",
};
// Stryker restore all

/** The family B key prefix chosen by the sandbox (decision D22 leaves it open). */
export const FAMILY_B_KEY_PREFIX = "sdk";

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
  // Stryker disable next-line all: the keys are fixtures the suites read from the sandbox they start; their documented forms are pinned by sandbox/test/keys.test.ts
  const secret = (family: Family, id: string) => `${family === "A" ? "sk" : FAMILY_B_KEY_PREFIX}_test_${derived(seed, DERIVATION_LABELS[id]!)}`;
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
  ].map((key) => ({ ...key, family: key.family as Family, secret: secret(key.family as Family, key.id) }));
  const secretOf = (id: string) => entries.find((e) => e.id === id)!.secret;
  const bySecret = new Map<string | undefined, SandboxApiKey>(entries.map((e) => [e.secret, e]));
  const account = (id: string) => accounts.get(id)!;
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
      // Stryker disable next-line all: the list `payment-collection sandbox` prints and sandbox/README.md documents (pinned by sandbox/test/keys.test.ts); the suites read an account's secret from the sandbox (`GET /_sandbox/webhooks/secret`)
      webhookSecrets: {
        primary: account("acc_1").webhookSecret,
        secondAccount: account("acc_2").webhookSecret,
        rateLimits: account("acc_3").webhookSecret,
      },
    },
    accounts,
    bySecret: (secret) => bySecret.get(secret),
  };
}

/** The keys of a sandbox started with the default seed (documented in sandbox/README.md). */
export const SANDBOX_KEYS: SandboxKeys = createKeyRing().keys;
