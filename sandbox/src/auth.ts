/**
 * Authentication per surface. Family A keys travel in `x-api-key`, family B keys in
 * `X-API-Key` (the same HTTP header: names are case-insensitive); the controls take a key of
 * either family. A key is only accepted by its own family.
 *
 * The sandbox is the planned family A sandbox: it accepts `sk_test_` keys and refuses
 * `sk_live_` keys, and likewise refuses family B `_live_` keys. A key sent in the URL query is
 * never read, and a request that carries one is refused even with a valid header (D46: a key
 * in a URL ends up in logs and browser histories).
 */
import type { IncomingHttpHeaders } from "node:http";
import { isCredentialQueryName } from "@payment-collection/contract/domain/credential-query-names.ts";
import type { Surface } from "./envelopes.ts";
import { FAMILY_B_KEY_PREFIX, type KeyRing, type SandboxAccount, type SandboxApiKey } from "./keys.ts";

/**
 * A refusal names a valid key used where it does not belong (the other family's key, a key next
 * to a key in the query), so that the request still counts against that key's rate limits
 * rather than the anonymous ones.
 */
export type AuthResult = { ok: true; key: SandboxApiKey; account: SandboxAccount } | { ok: false; detail: string; key?: SandboxApiKey };

export function authenticate(keyRing: KeyRing, surface: Surface, headers: IncomingHttpHeaders, query: URLSearchParams): AuthResult {
  for (const name of query.keys()) {
    if (isCredentialQueryName(name)) {
      const raw = headers["x-api-key"];
      const key = keyRing.bySecret(Array.isArray(raw) ? raw[0] : (raw ?? ""));
      return { ok: false, detail: "API keys are accepted only in the X-API-Key header, never in the URL query.", key };
    }
  }
  const raw = headers["x-api-key"];
  const secret = Array.isArray(raw) ? raw[0] : raw;
  if (!secret) return { ok: false, detail: "The X-API-Key header is missing." };
  // Stryker disable all: equivalent for every client: the sandbox issues no live key, so without
  // these two refusals a live key is looked up, not found, and refused with the same 401
  // UNAUTHORIZED (D38); only the detail text, which names the live key, differs, and
  // sandbox/test/family-a.test.ts reads it.
  if (surface !== "B" && secret.startsWith("sk_live_")) {
    return { ok: false, detail: "Live keys (sk_live_) are not accepted by the sandbox; use an sk_test_ key." };
  }
  if (surface !== "A" && secret.startsWith(`${FAMILY_B_KEY_PREFIX}_live_`)) {
    return { ok: false, detail: `Live keys (${FAMILY_B_KEY_PREFIX}_live_) are not accepted by the sandbox; use a ${FAMILY_B_KEY_PREFIX}_test_ key.` };
  }
  // Stryker restore all
  const key = keyRing.bySecret(secret);
  if (!key) return { ok: false, detail: "The API key is not valid." };
  if (surface !== "controls" && key.family !== surface) {
    return { ok: false, detail: `This is a family ${key.family} key; family ${surface} operations need a family ${surface} key.`, key };
  }
  return { ok: true, key, account: keyRing.accounts.get(key.accountId)! };
}
