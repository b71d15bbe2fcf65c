/**
 * The default keys are fixtures a team copies from sandbox/README.md into its setup: they must
 * be the ones a sandbox started with the default seed accepts, in the documented forms. (The
 * conformance suites read the keys from the sandbox they start, so only this test sees them.)
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createKeyRing, SANDBOX_KEYS } from "../src/keys.ts";

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");

describe("the sandbox's default keys", () => {
  it("are the ones sandbox/README.md lists, member by member", () => {
    const documented = new Map<string, string[]>();
    for (const [, member, key] of README.matchAll(/`(\w+)` `((?:sk|sdk)_test_\w+)`/g)) documented.set(member!, [...(documented.get(member!) ?? []), key!]);
    for (const [member, key] of Object.entries(SANDBOX_KEYS.familyA)) expect(documented.get(member), `family A ${member}`).toContain(key);
    for (const [member, key] of Object.entries(SANDBOX_KEYS.familyB)) expect(documented.get(member), `family B ${member}`).toContain(key);
    const secrets = [...README.matchAll(/account (\d) `(whsec_[^`]+)`/g)].map((m) => m[2]);
    expect(secrets).toEqual([SANDBOX_KEYS.webhookSecrets.primary, SANDBOX_KEYS.webhookSecrets.secondAccount, SANDBOX_KEYS.webhookSecrets.rateLimits]);
  });

  it("have the documented forms, are all distinct, and another seed derives other keys", () => {
    const all = [...Object.values(SANDBOX_KEYS.familyA), ...Object.values(SANDBOX_KEYS.familyB)];
    for (const key of Object.values(SANDBOX_KEYS.familyA)) expect(key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    for (const key of Object.values(SANDBOX_KEYS.familyB)) expect(key).toMatch(/^sdk_test_[0-9A-Za-z]{32}$/);
    for (const secret of Object.values(SANDBOX_KEYS.webhookSecrets)) expect(Buffer.from(secret.replace(/^whsec_/, ""), "base64")).toHaveLength(24);
    expect(new Set([...all, ...Object.values(SANDBOX_KEYS.webhookSecrets)]).size).toBe(all.length + 3);
    const other = createKeyRing("another-seed").keys;
    expect(other.familyA.primary).not.toBe(SANDBOX_KEYS.familyA.primary);
    expect(other.webhookSecrets.primary).not.toBe(SANDBOX_KEYS.webhookSecrets.primary);
  });
});
