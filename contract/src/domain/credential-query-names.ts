/**
 * D46: the query parameter names under which a credential travels. A request whose URL query
 * carries one of them is refused with the family's 401, even with a valid key header: a key
 * in a URL ends up in logs, proxies and browser histories (the document: "the key must never
 * be sent in a URL query"). Names are compared without case, `-`, `_`, `.` or spaces.
 *
 * The spellings are the ones clients use; the conformance check sends each of them, the
 * sandbox refuses each of them.
 */
export const CREDENTIAL_QUERY_SPELLINGS = [
  "api_key",
  "apiKey",
  "x-api-key",
  "X-API-Key",
  "api",
  "xapi",
  "api_token",
  "apiSecret",
  "x_api_token",
  "x-api-secret",
  "key",
  "token",
  "access_token",
  "authToken",
  "bearer_token",
  "id_token",
  "refresh_token",
  "session_token",
  "auth",
  "Authorization",
  "secret",
  "client_secret",
  "password",
  "sig",
  "signature",
] as const;

/** A query parameter name as compared: lower case, without `-`, `_`, `.` or spaces. */
function normalized(name: string): string {
  return name.toLowerCase().replace(/[-_.\s]/g, "");
}

const NAMES = new Set(CREDENTIAL_QUERY_SPELLINGS.map(normalized));

/** Whether a query parameter name is one a credential travels in (D46). */
export function isCredentialQueryName(name: string): boolean {
  return NAMES.has(normalized(name));
}
