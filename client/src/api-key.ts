/**
 * The API key goes in its header on every request and never in a URL. The transport step sets
 * the header (overriding anything the caller set under that name) and refuses to send a
 * request whose URL contains the key, raw or percent-encoded.
 */
import type { RequestLike } from "./client-request.ts";
import { ApiKeyInUrlError } from "./errors.ts";

function variantsOf(apiKey: string): string[] {
  return [...new Set([apiKey, encodeURIComponent(apiKey)])];
}

/** The URL with every occurrence of the key replaced, safe to log. */
function redact(url: string, variants: readonly string[]): string {
  return variants.reduce((text, variant) => text.split(variant).join("[redacted]"), url);
}

/** Throws ApiKeyInUrlError when `url` contains the key. */
export function assertKeyNotInUrl(url: string, apiKey: string): void {
  const variants = variantsOf(apiKey);
  if (variants.some((variant) => url.includes(variant))) throw new ApiKeyInUrlError(redact(url, variants));
}

/** Checks the key once, when the client is created, so a mistake fails early and loudly. */
export function validateApiKey(apiKey: unknown): asserts apiKey is string {
  if (typeof apiKey !== "string" || apiKey.trim() === "") throw new TypeError("apiKey must be a non-empty string");
  if (/[\r\n]/.test(apiKey)) throw new TypeError("apiKey must not contain line breaks");
}

/** Throws ApiKeyInUrlError when a request URL contains the key (variants computed once). */
export function urlGuard(apiKey: string): (url: string) => void {
  const variants = variantsOf(apiKey);
  return (url) => {
    for (const variant of variants) {
      if (url.includes(variant)) throw new ApiKeyInUrlError(redact(url, variants));
    }
  };
}

/** The transport step (last before sending): refuse a URL with the key, then make sure of the header. */
export function apiKeyStep(headerName: string, apiKey: string): (request: RequestLike) => void {
  const guard = urlGuard(apiKey);
  return (request) => {
    guard(request.url);
    if (request.headers.get(headerName) !== apiKey) request.headers.set(headerName, apiKey);
  };
}
