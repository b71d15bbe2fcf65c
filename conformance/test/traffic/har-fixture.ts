/**
 * HAR files for the tests, recorded from real exchanges with a sandbox: a client's calls are
 * sent with fetch and written as HAR 1.2 entries (what a browser's recorder writes: request and
 * response headers, bodies as content.text), plus one entry for another host.
 */
import { writeFileSync } from "node:fs";
import { findOperation, loadFamilyContract } from "@payment-collection/contract/model/index.ts";
import type { TemporarySandbox } from "@payment-collection/sandbox/harness/temporary-sandbox.ts";

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; httpVersion: string; headers: Array<{ name: string; value: string }>; queryString: Array<{ name: string; value: string }>; cookies: []; headersSize: number; bodySize: number; postData?: { mimeType: string; text: string } };
  response: { status: number; statusText: string; httpVersion: string; headers: Array<{ name: string; value: string }>; cookies: []; content: { size: number; mimeType: string; text?: string }; redirectURL: string; headersSize: number; bodySize: number };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
}

export interface Har {
  log: { version: "1.2"; creator: { name: string; version: string }; entries: HarEntry[] };
}

/** Sends a request and records it as a HAR entry. */
async function recorded(method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<{ entry: HarEntry; json: unknown }> {
  const started = Date.now();
  const text = body === undefined ? undefined : JSON.stringify(body);
  const sent = { ...headers, ...(text ? { "content-type": "application/json" } : {}) };
  const response = await fetch(url, { method, headers: sent, body: text });
  const responseText = await response.text();
  const entry: HarEntry = {
    startedDateTime: new Date(started).toISOString(),
    time: Date.now() - started,
    request: {
      method,
      url,
      httpVersion: "HTTP/1.1",
      headers: Object.entries(sent).map(([name, value]) => ({ name, value })),
      queryString: [...new URL(url).searchParams].map(([name, value]) => ({ name, value })),
      cookies: [],
      headersSize: -1,
      bodySize: text?.length ?? 0,
      ...(text ? { postData: { mimeType: "application/json", text } } : {}),
    },
    response: {
      status: response.status,
      statusText: response.statusText,
      httpVersion: "HTTP/1.1",
      headers: [...response.headers].map(([name, value]) => ({ name, value })),
      cookies: [],
      content: { size: Buffer.byteLength(responseText), mimeType: response.headers.get("content-type") ?? "", text: responseText },
      redirectURL: "",
      headersSize: -1,
      bodySize: Buffer.byteLength(responseText),
    },
    cache: {},
    timings: { send: 0, wait: Date.now() - started, receive: 0 },
  };
  let json: unknown;
  try {
    json = JSON.parse(responseText);
  } catch {
    json = undefined;
  }
  return { entry, json };
}

/** A client session against the sandbox: charges and the merchant (family A), health, a customer and a boleto (family B). */
export async function recordClientSession(sandbox: TemporarySandbox): Promise<Har> {
  const a = { "x-api-key": sandbox.target.familyA.keys.primary! };
  const b = { "X-API-Key": sandbox.target.familyB.keys.primary! };
  const base = sandbox.url;
  const entries: HarEntry[] = [];
  const chargeBody = findOperation(loadFamilyContract("family-a"), "createCharge").requestBody!.example;
  const created = await recorded("POST", `${base}/v1/charges`, { ...a, "Idempotency-Key": `har-session-${Date.now()}` }, chargeBody);
  entries.push(created.entry);
  const chargeId = (created.json as { id: string }).id;
  entries.push((await recorded("GET", `${base}/v1/charges/${chargeId}`, a)).entry);
  entries.push((await recorded("GET", `${base}/v1/merchant`, a)).entry);
  entries.push((await recorded("GET", `${base}/sdk/status/health`, b)).entry);
  const customerBody = findOperation(loadFamilyContract("family-b"), "createCustomer").requestBody!.example as Record<string, unknown>;
  const customer = await recorded("POST", `${base}/api/v1/sdk/customers`, b, { ...customerBody, email: `har-${Date.now()}@example.com` });
  entries.push(customer.entry);
  const customerId = (customer.json as { data: { id: string } }).data.id;
  entries.push((await recorded("GET", `${base}/api/v1/sdk/customers/${customerId}`, b)).entry);
  const boletoId = (sandbox.target.familyB.fixtures.registeredBoletoIds as string[])[0];
  entries.push((await recorded("GET", `${base}/sdk/boleto/${boletoId}`, b)).entry);
  // A request to another host (a script the page loads): counted and skipped.
  const other = structuredClone(entries[3]!);
  other.request.url = "https://cdn.example.org/app.js";
  other.request.headers = [];
  other.response.content = { size: 12, mimeType: "text/javascript", text: "console.log()" };
  entries.push(other);
  return { log: { version: "1.2", creator: { name: "payment-collection tests", version: "1" }, entries } };
}

export function writeHar(path: string, har: Har): string {
  writeFileSync(path, JSON.stringify(har, null, 1));
  return path;
}
