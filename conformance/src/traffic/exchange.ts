/**
 * One HTTP exchange as the traffic checks read it, whichever front end saw it (the validating
 * proxy or a HAR file): the request as the client sent it, the response as the server answered,
 * bodies as text unless they were too large to keep. Keys are never printed: a short fingerprint
 * names them.
 */
import { createHash } from "node:crypto";
import { parseJsonBody } from "@payment-collection/contract/model/index.ts";
import { curlOf } from "../derived/reproduction.ts";

export interface TrafficExchange {
  /** Position in the traffic (1-based): the proxy's count, or the HAR entry's index + 1. */
  id: number;
  /** When the request started and the response ended (ms since the epoch). */
  startedAt: number;
  endedAt: number;
  method: string;
  /** Absolute URL as the client addressed it. */
  url: string;
  /** Header names in lower case. */
  requestHeaders: Record<string, string>;
  /** Undefined: no body; `tooLarge`: larger than the limit, passed through unread. */
  requestBody?: string;
  requestBodyTooLarge?: boolean;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody?: string;
  responseBodyTooLarge?: boolean;
  /** The recorder kept no body although there was one (a HAR without content.text). */
  responseBodyNotRecorded?: boolean;
  /** The upstream could not be reached or failed mid-answer: the proxy answered 502 itself. */
  upstreamFault?: string;
}

type ParsedBody = ReturnType<typeof parseJsonBody>;

/** The bodies of each exchange as parsed, by whichever check read them first: each is parsed once. */
const parsedBodies = new WeakMap<TrafficExchange, { request?: ParsedBody; response?: ParsedBody }>();

/** A body of the exchange parsed as JSON (undefined: no body, or one too large to keep). Not to be changed: the checks share it. */
export function parsedBody(exchange: TrafficExchange, side: "request" | "response"): ParsedBody | undefined {
  const text = side === "request" ? exchange.requestBody : exchange.responseBody;
  if (!text) return undefined;
  let parsed = parsedBodies.get(exchange);
  if (!parsed) parsedBodies.set(exchange, (parsed = {}));
  return (parsed[side] ??= parseJsonBody(text));
}

/** The JSON value of a body, undefined when there is none or it is not JSON. */
export function jsonBody(exchange: TrafficExchange, side: "request" | "response"): unknown {
  const parsed = parsedBody(exchange, side);
  return parsed?.ok ? parsed.value : undefined;
}

/** Lower-cases header names; repeated headers joined as HTTP does. */
export function lowerCaseHeaders(headers: Iterable<[string, string | string[] | undefined]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    const text = Array.isArray(value) ? value.join(", ") : value;
    out[key] = out[key] === undefined ? text : `${out[key]}, ${text}`;
  }
  return out;
}

/** Fingerprints computed, by key: a client sends its few keys again and again. */
const fingerprints = new Map<string, string>();

/** A short, stable name of a key that does not reveal it: `key#1a2b3c4d`. */
export function keyFingerprint(key: string): string {
  let fingerprint = fingerprints.get(key);
  if (fingerprint === undefined) {
    fingerprint = `key#${createHash("sha256").update(key).digest("hex").slice(0, 8)}`;
    // Bounded like the engine's keys: a client sending ever new keys must not grow the proxy.
    if (fingerprints.size >= 1000) fingerprints.delete(fingerprints.keys().next().value as string);
    fingerprints.set(key, fingerprint);
  }
  return fingerprint;
}

/** Headers that carry credentials besides the API key: shown redacted, never as sent. */
const CREDENTIAL_HEADERS = new Set(["authorization", "proxy-authorization", "cookie"]);

/** Secrets a request carries outside the key header: values of query parameters named like a key. */
export function secretsInUrl(url: string): string[] {
  try {
    return [...new URL(url).searchParams].filter(([name]) => /key|token|secret/i.test(name)).map(([, value]) => value);
  } catch {
    return [];
  }
}

/** A curl line reproducing the exchange's request, the key header shown as `$API_KEY`. */
export function reproductionOf(exchange: TrafficExchange, keyHeader: string): string {
  const key = exchange.requestHeaders[keyHeader.toLowerCase()];
  const headers = Object.fromEntries(
    Object.entries(exchange.requestHeaders)
      .filter(([name]) => !name.startsWith(":"))
      .map(([name, value]) => [name, CREDENTIAL_HEADERS.has(name) ? "<redacted>" : value]),
  );
  const label = key === undefined ? "" : keyFingerprint(key);
  return curlOf(
    { operationId: "", method: exchange.method, url: exchange.url, headers, body: exchange.requestBodyTooLarge ? undefined : exchange.requestBody },
    key === undefined ? undefined : keyHeader,
    label,
  ).replace(/# API_KEY: the target's (key#[0-9a-f]{8}) key$/, "# API_KEY: the key $1");
}

/** Replaces every occurrence of the given keys in a text by their fingerprints. */
export function redactKeys(text: string, keys: Iterable<string>): string {
  let out = text;
  for (const key of keys) if (key.length >= 4) out = out.split(key).join(keyFingerprint(key));
  return out;
}
