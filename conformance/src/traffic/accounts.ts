/**
 * Which API keys belong to one account, read from a conformance target file: keys alone do not
 * say it, and tenant isolation needs it (two keys of one account share their records). The
 * grouping is the conformance run's own (FamilyContext.bucketOfKey): the primary key, its
 * second key and the key without merchant:read are the first account's; every other named key
 * is an account of its own.
 */
import { FAMILY_IDS } from "@payment-collection/contract/model/index.ts";
import { familyTarget, type Target } from "../core/target.ts";

const ACCOUNT_OF_KEY: Record<string, string> = {
  primary: "first-account",
  primarySecondKey: "first-account",
  noMerchantRead: "first-account",
  secondAccount: "second-account",
  rateLimits: "rate-limit-account",
  testKey: "test-key",
};

/** The account of a key, by the key's name in the target. */
export function accountOfKey(family: string, name: string): string {
  return `${family}:${ACCOUNT_OF_KEY[name] ?? name}`;
}

export function accountsOfTarget(target: Target): Map<string, string> {
  const accounts = new Map<string, string>();
  for (const family of FAMILY_IDS) {
    const keys = (familyTarget(target, family)?.keys ?? {}) as Record<string, string | undefined>;
    for (const [name, value] of Object.entries(keys)) if (value) accounts.set(value, accountOfKey(family, name));
  }
  return accounts;
}
