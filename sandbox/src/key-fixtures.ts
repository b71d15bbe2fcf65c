/**
 * The sandbox's own accounts and how their secrets are derived: fixtures no other server holds,
 * like the PIX directory (domain/pix-directory.ts). The suites read the keys and webhook secrets
 * from the sandbox they start, so any derivation giving distinct keys serves them; the documented
 * default keys and their forms are pinned by sandbox/test/keys.test.ts. What decides an answer
 * (which key a request presents, its family, account and scopes) stays in keys.ts.
 */
import { createHmac } from "node:crypto";

export type Family = "A" | "B";

export interface SandboxKeys {
  familyA: { primary: string; noMerchantRead: string; secondAccount: string; rateLimits: string; primarySecondKey: string };
  familyB: { primary: string; secondAccount: string; rateLimits: string; primarySecondKey: string };
  /** Webhook signing secrets, by account. */
  webhookSecrets: { primary: string; secondAccount: string; rateLimits: string };
}

/** The default seed; `startSandbox({ keySeed })` derives another set of keys. */
export const DEFAULT_KEY_SEED = "payment-collection-sandbox";

/** The family B key prefix chosen by the sandbox (decision D22 leaves it open). */
export const FAMILY_B_KEY_PREFIX = "sdk";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** 32 base-62 characters derived from the seed and a label (HMAC-SHA256). */
function derived(seed: string, label: string, length = 32): string {
  const bytes = createHmac("sha256", seed).update(label).digest();
  let out = "";
  for (let i = 0; out.length < length; i++) out += BASE62[bytes[i % bytes.length] % 62];
  return out;
}

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

/** The secret of a key, in its family's documented form (`sk_test_...`, `sdk_test_...`). */
export function keySecret(seed: string, family: Family, keyId: string): string {
  return `${family === "A" ? "sk" : FAMILY_B_KEY_PREFIX}_test_${derived(seed, DERIVATION_LABELS[keyId]!)}`;
}

/** The Standard Webhooks secret (`whsec_...`) of an account, by its label. */
export function webhookSecret(seed: string, label: string): string {
  return `whsec_${createHmac("sha256", seed).update(`webhook:${label}`).digest().subarray(0, 24).toString("base64")}`;
}

/** The accounts' webhook secrets as `payment-collection sandbox` prints them and sandbox/README.md documents them. */
export function webhookSecretsOf(seed: string): SandboxKeys["webhookSecrets"] {
  return { primary: webhookSecret(seed, "primary"), secondAccount: webhookSecret(seed, "secondAccount"), rateLimits: webhookSecret(seed, "rateLimits") };
}

/** The accounts: their merchants, the names and cities their BR Codes carry, their PIX keys, their boletos' receivers. */
export const ACCOUNT_PROFILES = [
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
