/**
 * Authentication per surface. Family A keys travel in `x-api-key`, family B keys in
 * `X-API-Key` (the same HTTP header: names are case-insensitive); the controls take a key of
 * either family. A key is only accepted by its own family.
 *
 * The sandbox is the planned family A sandbox: it issues only `sk_test_` keys (and family B
 * `<prefix>_test_` keys), so a live key is refused as any key it did not issue, with the same
 * 401 (D38). A key sent in the URL query is never read, and a request that carries one is
 * refused even with a valid header (D46: a key in a URL ends up in logs and browser histories).
 */
import type { IncomingHttpHeaders } from "node:http";
import { isCredentialQueryName } from "@payment-collection/contract/domain/credential-query-names.ts";
import type { Surface } from "./envelopes.ts";
import type { KeyRing, SandboxAccount, SandboxApiKey } from "./keys.ts";

/**
 * A refusal names a valid key used where it does not belong (the other family's key, a key next
 * to a key in the query), so that the request still counts against that key's rate limits
 * rather than the anonymous ones.
 */
export type AuthResult = { ok: true; key: SandboxApiKey; account: SandboxAccount } | { ok: false; detail: string; key?: SandboxApiKey };

export function authenticate(keyRing: KeyRing, surface: Surface, headers: IncomingHttpHeaders, query: URLSearchParams): AuthResult {
  const raw = headers["x-api-key"];
  const secret = Array.isArray(raw) ? raw[0] : raw;
  for (const name of query.keys()) {
    if (isCredentialQueryName(name)) {
      return { ok: false, detail: "API keys are accepted only in the X-API-Key header, never in the URL query.", key: keyRing.bySecret(secret) };
    }
  }
  // No key sent is no key issued: the same 401.
  const key = keyRing.bySecret(secret);
  if (!key) return { ok: false, detail: "The X-API-Key header is missing or holds no key this sandbox issued." };
  if (surface !== "controls" && key.family !== surface) {
    return { ok: false, detail: `This is a family ${key.family} key; family ${surface} operations need a family ${surface} key.`, key };
  }
  return { ok: true, key, account: keyRing.accounts.get(key.accountId)! };
}
