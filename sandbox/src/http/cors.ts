/**
 * Cross-origin requests (decision D44, the sandbox's own: the document says nothing of
 * browsers). Only the origins the sandbox was started with (`--cors-origin`, repeatable, read
 * and normalised by the command line, cli.ts; the portal's origin when `payment-collection
 * portal` starts it) get a CORS grant; any other origin gets none, and its preflight goes
 * through the ordinary pipeline like any OPTIONS.
 *
 * What a granted origin may send and read is read from the contract, so a header the contract
 * gains is allowed without an edit here: the request headers are the API-key headers of the
 * security schemes, every header parameter (Idempotency-Key, X-Idempotency-Key, ...) and
 * Content-Type; the exposed headers are every response header the contract documents (the
 * rate-limit headers, Retry-After, Idempotent-Replayed).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { apiKeyHeadersOf, listOperations, type ContractDocument } from "@payment-collection/contract/model/index.ts";

/** The origins granted and the header values of a grant. */
export interface CorsPolicy {
  origins: ReadonlySet<string>;
  allowMethods: string;
  allowHeaders: string;
  exposeHeaders: string;
}

/** How long a browser may reuse a preflight answer (seconds). */
const PREFLIGHT_MAX_AGE = "600";

/** Adds a header's name to a list, once whatever its case (a browser compares header names without case). */
function name(names: Map<string, string>, header: string): void {
  // Stryker disable next-line MethodExpression: the key only merges names that differ in case; upper case merges the same ones
  names.set(header.toLowerCase(), header);
}

function headerNamesOf(documents: readonly ContractDocument[]): { request: string[]; response: string[] } {
  const request = new Map<string, string>();
  const response = new Map<string, string>();
  name(request, "Content-Type");
  for (const { document } of documents) for (const header of apiKeyHeadersOf(document)) name(request, header);
  for (const operation of listOperations(documents)) {
    for (const parameter of operation.parameters) if (parameter.in === "header") name(request, parameter.name);
    for (const reply of operation.responses) for (const header of reply.headers) name(response, header.name);
  }
  return { request: [...request.values()], response: [...response.values()] };
}

/** The policy for the given origins (already normalised), or null when none is given. */
export function corsPolicy(origins: readonly string[], documents: readonly ContractDocument[]): CorsPolicy | null {
  if (origins.length === 0) return null;
  const { request, response } = headerNamesOf(documents);
  const methods = [...new Set(listOperations(documents).map((operation) => operation.method.toUpperCase()))];
  // Stryker disable next-line MethodExpression: the order of a list header, which a browser reads as a set
  methods.sort();
  return { origins: new Set(origins), allowMethods: methods.join(", "), allowHeaders: request.join(", "), exposeHeaders: response.join(", ") };
}

/**
 * Adds the CORS grant to the response of a request from a granted origin, and answers its
 * preflight at once (204): a preflight carries no key, so it is neither authenticated nor
 * counted; the request it announces is. Returns true when the request was answered here.
 */
export function applyCors(policy: CorsPolicy, req: IncomingMessage, res: ServerResponse): boolean {
  // The answer depends on the Origin header: caches must keep one answer per origin.
  res.setHeader("Vary", "Origin");
  // Undefined without Origin: the lookup refuses it like any origin not granted.
  const origin = req.headers.origin as string;
  if (!policy.origins.has(origin)) return false;
  res.setHeader("Access-Control-Allow-Origin", origin);
  const preflight = req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined;
  if (!preflight) {
    res.setHeader("Access-Control-Expose-Headers", policy.exposeHeaders);
    return false;
  }
  res.writeHead(204, {
    "Access-Control-Allow-Methods": policy.allowMethods,
    "Access-Control-Allow-Headers": policy.allowHeaders,
    "Access-Control-Max-Age": PREFLIGHT_MAX_AGE,
    "Content-Length": 0,
  });
  res.end();
  return true;
}
