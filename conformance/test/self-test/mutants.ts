/**
 * Deliberately broken servers for the self-test of the conformance suites: a small proxy in
 * front of the correct sandbox that breaks exactly one rule of the document, in the request it
 * forwards or in the response it returns. Each mutation names the rule it breaks.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import type { Profile } from "../../src/core/profiles/index.ts";
import type { Target } from "../../src/core/target.ts";
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import { barCodeToBankLine, boletoGeneralCheckDigit } from "@payment-collection/contract/domain/domain-checks.ts";
import { withBrCodeCrc } from "@payment-collection/sandbox/domain/brcode.ts";
import { sendHttp } from "../../src/core/http-client.ts";
import { RELAY_TIMEOUTS, relayRefusedRequests } from "../../src/core/raw-relay.ts";

export interface Exchange {
  method: string;
  /** Path without the query. */
  path: string;
  /** The query, with its `?` (or ""). */
  search: string;
  headers: Record<string, string>;
  body: string;
}

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Keys {
  familyA: { primary: string; noMerchantRead: string; secondAccount: string };
  familyB: { primary: string; secondAccount: string };
}

export interface Mutation {
  name: string;
  /** The rule of the document the broken server breaks. */
  breaks: string;
  /** Which family's suite must catch it. */
  family: FamilyId;
  /** Id (or id prefix) of a check that must fail against it. */
  caughtBy: string;
  /**
   * Catalogue ids (spec/statements.yaml) of the statements this server breaks: a failing result
   * that kills it must name one of them.
   */
  statements?: string[];
  /** Needs the 429 checks (a small rate-limit plan). */
  needsRateLimits?: boolean;
  /** The correct server behind refuses private webhook targets (D48), as a production server does. */
  refusesPrivateWebhookTargets?: boolean;
  /** The profile the suite must catch it under (default seed; full for a rule a decision makes). */
  profile?: Profile;
  /** Changes the request before it reaches the correct server. */
  request?(request: Exchange, keys: Keys, companion?: string): Exchange;
  /** A server the broken one needs besides the proxy (a webhook relay...); its URL goes to `request`. */
  companion?(): Promise<{ url: string; close(): Promise<void> }>;
  /** Changes the correct server's reply (`request` is what was forwarded). */
  response?(request: Exchange, reply: Reply): Reply;
  /**
   * A fault that needs more than one exchange with the correct server (a replay that creates a
   * charge behind the original's back): called instead of forwarding, after `request`.
   */
  handle?(request: Exchange, forward: Forward, keys: Keys): Promise<Reply>;
  /** Changes the target the suites get (a key the broken server issues differently...). */
  adjustTarget?(target: Target): void;
  /**
   * The raw answer the broken server gives, itself, a request the proxy's parser refused (by
   * Node's error code: `ERR_HTTP_REQUEST_TIMEOUT` for headers that never end); undefined: the
   * request goes to the correct server, as every other.
   */
  refused?(code: string | undefined): string | undefined;
}

type Json = Record<string, any>;

/** A request's body as a JSON object; undefined when it is none (the suites also send bodies that are not JSON). */
export function requestJson(request: Pick<Exchange, "body">): Json | undefined {
  try {
    const value = JSON.parse(request.body) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** Applies `edit` to the JSON body of replies that match. */
export function editJson(matches: (request: Exchange, reply: Reply) => boolean, edit: (body: Json) => void) {
  return (request: Exchange, reply: Reply): Reply => {
    if (!matches(request, reply)) return reply;
    const body = JSON.parse(reply.body) as Json;
    edit(body);
    return { ...reply, body: JSON.stringify(body) };
  };
}

/** A valid barcode of another boleto: one free-field digit changed, the general check digit recomputed. */
function anotherBoleto(barCode: string): string {
  const changed = `${barCode.slice(0, 30)}${(Number(barCode[30]) + 1) % 10}${barCode.slice(31)}`;
  return `${changed.slice(0, 4)}${boletoGeneralCheckDigit(changed)}${changed.slice(5)}`;
}

/** The same document with its last check digit off by one. */
const withWrongLastDigit = (document: string) => `${document.slice(0, -1)}${(Number(document.at(-1)) + 1) % 10}`;

export const is = (method: string, path: RegExp, status?: number) => (request: Exchange, reply: Reply) =>
  request.method === method && path.test(request.path) && (status === undefined || reply.status === status);

/** EMV data objects `[id, value]` of a TLV string, in order. */
export function emvFields(text: string): Array<[string, string]> {
  const fields: Array<[string, string]> = [];
  for (let at = 0; at < text.length; at += 4 + Number(text.slice(at + 2, at + 4))) fields.push([text.slice(at, at + 2), text.slice(at + 4, at + 4 + Number(text.slice(at + 2, at + 4)))]);
  return fields;
}
/** The TLV string of EMV data objects `[id, value]`. */
export const emv = (fields: Array<[string, string]>) => fields.map(([id, value]) => `${id}${String(value.length).padStart(2, "0")}${value}`).join("");

/** The same BR Code with its payload URL (26/25) rewritten, its lengths and its CRC right again. */
function withPayloadUrl(code: string, rewrite: (url: string) => string): string {
  const fields = emvFields(code).filter(([id]) => id !== "63");
  const account = (value: string) => emv(emvFields(value).map(([id, sub]) => [id, id === "25" ? rewrite(sub) : sub]));
  return withBrCodeCrc(emv(fields.map(([id, value]) => [id, id === "26" ? account(value) : value])) + "6304");
}

export const MUTATIONS: Mutation[] = [
  {
    name: "charge-br-code-wrong-crc",
    statements: ["A-CHARGE-PRINCIPLE-br-code", "A-CHARGE-FIELD-pix"],
    caughtBy: "family-a/createCharge/201/",
    breaks: "a charge's br_code is a BR Code: its CRC16 (field 63) must match (D43)",
    family: "family-a",
    response: editJson(is("POST", /^\/v1\/charges$/, 201), (body) => (body.pix.br_code = `${body.pix.br_code.slice(0, -4)}${body.pix.br_code.endsWith("0000") ? "FFFF" : "0000"}`)),
  },
  {
    name: "charge-br-code-payload-url-without-host",
    statements: ["A-CHARGE-PRINCIPLE-br-code"],
    caughtBy: "family-a/createCharge/201/",
    breaks: "a charge's br_code is a BR Code: its payload URL (26/25) is a host name and path without a scheme (D43); here it has lost its host",
    family: "family-a",
    response: editJson(is("POST", /^\/v1\/charges$/, 201), (body) => (body.pix.br_code = withPayloadUrl(body.pix.br_code, (url) => url.slice(url.indexOf("/"))))),
  },
  {
    name: "transactions-second-page-repeats-the-first",
    statements: ["B-LIMITS-LIMIT-pagination"],
    caughtBy: "family-b/transactions/pages-split-the-list",
    breaks: "page p of the transaction list holds the items after the first (p - 1) pages (D28): here page 2 lists page 1 again",
    family: "family-b",
    profile: "full",
    request: (request) => (request.method === "GET" && request.path === "/transactions" ? { ...request, search: request.search.replace(/([?&]page=)2(?=&|$)/, "$11") } : request),
  },
  {
    name: "merchant-document-wrong-check-digit",
    statements: ["A-MERCHANT-FIELD-document"],
    caughtBy: "family-a/getMerchant/200/",
    breaks: "the merchant's document is a CPF or CNPJ with correct check digits (D43)",
    family: "family-a",
    response: editJson(is("GET", /^\/v1\/merchant$/, 200), (body) => {
      if (typeof body.document === "string") body.document = body.document.slice(0, -1) + String((Number(body.document.at(-1)) + 1) % 10);
    }),
  },
  {
    name: "boleto-bank-line-wrong-check-digit",
    statements: ["B-BOLETO-FIELD-boleto"],
    caughtBy: "family-b/getBoleto/200/",
    breaks: "a boleto's bankLine carries its mod-10 field check digits (D43)",
    family: "family-b",
    // The 10th digit is the check digit of the line's first field.
    response: editJson(is("GET", /^\/sdk\/boleto\/[^/]+$/, 200), (body) => {
      const line: string = body.data.boleto.bankLine;
      body.data.boleto.bankLine = `${line.slice(0, 9)}${(Number(line[9]) + 1) % 10}${line.slice(10)}`;
    }),
  },
  {
    name: "boleto-bank-line-of-another-boleto",
    statements: ["B-BOLETO-FIELD-boleto"],
    caughtBy: "family-b/getBoleto/200/",
    breaks: "a boleto's barCode and bankLine are the same boleto (D43): here each is valid, but the line is another boleto's",
    family: "family-b",
    response: editJson(is("GET", /^\/sdk\/boleto\/[^/]+$/, 200), (body) => (body.data.boleto.bankLine = barCodeToBankLine(anotherBoleto(body.data.boleto.barCode)))),
  },
  {
    name: "pix-key-type-not-its-form",
    statements: ["B-PIX-ENDPOINT-query"],
    caughtBy: "family-b/queryPixKey/200/",
    breaks: "a queried key's keyType is the type its form gives (D14): here an e-mail key is said to be a random one",
    family: "family-b",
    profile: "full",
    response: editJson(is("POST", /^\/pix\/query$/, 200), (body) => (body.data.keyType = body.data.keyType === "EVP" ? "EMAIL" : "EVP")),
  },
  {
    name: "boleto-amount-not-its-barcode",
    statements: ["B-BOLETO-FIELD-amount", "B-BOLETO-FIELD-boleto"],
    caughtBy: "family-b/getBoleto/200/",
    breaks: "a boleto's barcode is its own (D34): here its amount field is a centavo less than the amount",
    family: "family-b",
    profile: "full",
    response: editJson(is("GET", /^\/sdk\/boleto\/[^/]+$/, 200), (body) => (body.data.amount = Math.round(body.data.amount * 100 + 1) / 100)),
  },
  {
    name: "boleto-due-date-not-its-barcode",
    statements: ["B-BOLETO-FIELD-duedate", "B-BOLETO-FIELD-boleto"],
    caughtBy: "family-b/getBoleto/200/",
    breaks: "a boleto's barcode is its own (D34): here its due-date factor is the day before the duedate",
    family: "family-b",
    profile: "full",
    response: editJson(is("GET", /^\/sdk\/boleto\/[^/]+$/, 200), (body) => {
      const next = new Date(Date.parse(`${body.data.duedate}T00:00:00Z`) + 86_400_000);
      body.data.duedate = next.toISOString().slice(0, 10);
    }),
  },
  {
    name: "customer-read-document-wrong-check-digit",
    statements: ["B-CUSTOMER-FIELD-documentNumber"],
    caughtBy: "family-b/getCustomer/200/",
    breaks: "a customer's documentNumber, as a reading returns it, is a CPF or CNPJ with correct check digits (D43)",
    family: "family-b",
    response: editJson(is("GET", /^\/api\/v1\/sdk\/customers\/[^/]+$/, 200), (body) => (body.data.documentNumber = withWrongLastDigit(body.data.documentNumber))),
  },
  {
    name: "charge-amount-as-string",
    statements: ["A-CHARGE-FIELD-amount", "A-SERVICE-PRINCIPLE-amount-integer"],
    caughtBy: "family-a/createCharge/201/",
    breaks: "wrong type of a field: a charge's amount is an integer",
    family: "family-a",
    response: editJson(is("POST", /^\/v1\/charges$/, 201), (body) => (body.amount = String(body.amount))),
  },
  {
    name: "customer-without-email",
    statements: ["B-CUSTOMER-RULE-read-response-fields", "B-CUSTOMER-FIELD-email"],
    caughtBy: "family-b/getCustomer/200/",
    breaks: "missing required field: get customer returns email",
    family: "family-b",
    response: editJson(is("GET", /^\/api\/v1\/sdk\/customers\/[^/]+$/, 200), (body) => delete body.data.email),
  },
  {
    name: "customer-created-200",
    statements: ["B-CUSTOMER-FIELD-create-response", "B-CUSTOMER-ENDPOINT-create"],
    caughtBy: "family-b/createCustomer/201/",
    breaks: "wrong status: customer creation answers 201",
    family: "family-b",
    response: (request, reply) => (is("POST", /^\/api\/v1\/sdk\/customers$/, 201)(request, reply) ? { ...reply, status: 200 } : reply),
  },
  {
    name: "cancel-unknown-boleto-wrong-code",
    statements: ["B-ERRORS-ERROR-ODE001"],
    caughtBy: "family-b/cancelBoleto/404/",
    breaks: "wrong error code: cancelling an unknown boleto gives ODE001",
    family: "family-b",
    response: editJson(is("DELETE", /\/cancel$/, 404), (body) => (body.error.errorCode = "ODE004")),
  },
  {
    name: "unauthorized-in-envelope-2",
    statements: ["B-ERRORS-RULE-envelope-1"],
    caughtBy: "family-b/getHealth/401/",
    breaks: "wrong envelope: a missing or invalid key gives envelope 1 {success, error: {code, message, details}}",
    family: "family-b",
    response: editJson(is("GET", /^\/sdk\/status\/health$/, 401), (body) => {
      const message = body.error.message;
      for (const key of Object.keys(body)) delete body[key];
      Object.assign(body, { version: "1.0.0", status: "ERROR", error: { errorCode: "UNAUTHORIZED", message } });
    }),
  },
  {
    name: "429-without-retry-after",
    statements: ["B-LIMITS-HEADER-retry-after"],
    caughtBy: "family-b/getHealth/429/",
    breaks: "missing required header: a 429 carries Retry-After",
    family: "family-b",
    needsRateLimits: true,
    response: (_request, reply) => {
      if (reply.status !== 429) return reply;
      const headers = { ...reply.headers };
      delete headers["retry-after"];
      return { ...reply, headers };
    },
  },
  {
    name: "health-version-v2",
    statements: ["B-VERSION-VERSIONING-health-v1"],
    caughtBy: "family-b/getHealth/200/",
    breaks: "the health check reports version v1",
    family: "family-b",
    response: editJson(is("GET", /^\/sdk\/status\/health$/, 200), (body) => (body.data.version = "v2")),
  },
  {
    name: "idempotency-error-renamed",
    statements: ["A-IDEM-ERROR-key-required", "A-ERRORS-ERROR-idempotency-key-required"],
    caughtBy: "family-a/createCharge/400/",
    breaks: "a missing Idempotency-Key gives code IDEMPOTENCY_KEY_REQUIRED",
    family: "family-a",
    response: editJson(is("POST", /^\/v1\/charges$/, 400), (body) => (body.code = "MISSING_IDEMPOTENCY_KEY")),
  },
  {
    name: "error-without-code",
    statements: ["A-ERRORS-PRINCIPLE-stable-code", "A-ERRORS-RULE-code-and-status"],
    caughtBy: "family-a/getCharge/404/",
    breaks: "every family A error carries a stable code",
    family: "family-a",
    response: editJson(is("GET", /^\/v1\/charges\/[^/]+$/, 404), (body) => delete body.code),
  },
  {
    name: "short-idempotency-key-accepted",
    statements: ["A-CHARGES-HEADER-idempotency-key", "A-LIMITS-LIMIT-idempotency-key", "A-IDEM-ERROR-key-required", "A-ERRORS-ERROR-idempotency-key-required"],
    caughtBy: "family-a/createCharge/400/short-idempotency-key",
    breaks: "an Idempotency-Key under 8 characters is refused",
    family: "family-a",
    request: (request) => {
      const key = request.headers["idempotency-key"];
      if (key === undefined || key.length >= 8) return request;
      return { ...request, headers: { ...request.headers, "idempotency-key": key.padEnd(8, "x") } };
    },
  },
  {
    name: "customer-with-phone-number",
    statements: ["B-CUSTOMER-RULE-no-phoneNumber"],
    caughtBy: "family-b/getCustomer/200/",
    breaks: "get customer responses carry no phoneNumber",
    family: "family-b",
    response: editJson(is("GET", /^\/api\/v1\/sdk\/customers\/[^/]+$/, 200), (body) => (body.data.phoneNumber = "+5511987654321")),
  },
  {
    name: "boleto-as-text",
    statements: ["AB-SERVICE-PRINCIPLE-json-bodies"],
    caughtBy: "family-b/getBoleto/200/",
    breaks: "all bodies are JSON",
    family: "family-b",
    response: (request, reply) =>
      is("GET", /^\/sdk\/boleto\/[^/]+$/, 200)(request, reply) ? { ...reply, headers: { ...reply.headers, "content-type": "text/plain" } } : reply,
  },
  {
    name: "envelope-2-version-not-semver",
    statements: ["B-VERSION-VERSIONING-envelope-2-semver"],
    caughtBy: "family-b/deleteCustomer/404/",
    breaks: "error envelope 2 carries a semantic version string",
    family: "family-b",
    response: editJson(is("DELETE", /^\/api\/sdk\/customers\/[^/]+$/, 404), (body) => (body.version = "1.0")),
  },
  {
    name: "boleto-status-lower-case",
    statements: ["B-BOLETO-FIELD-status", "B-BOLETO-ENUM-REGISTERED"],
    caughtBy: "family-b/getBoleto/200/",
    breaks: "boleto status values are ERROR, REGISTERED, PROCESSING, CONFIRMED, CANCELED",
    family: "family-b",
    response: editJson(is("GET", /^\/sdk\/boleto\/[^/]+$/, 200), (body) => (body.data.status = String(body.data.status).toLowerCase())),
  },
  {
    name: "merchant-scope-ignored",
    statements: ["A-AUTH-AUTH-merchant-scope", "A-MERCHANT-ENDPOINT-get"],
    caughtBy: "family-a/getMerchant/403/",
    breaks: "GET /v1/merchant requires the scope merchant:read",
    family: "family-a",
    request: (request, keys) =>
      request.path === "/v1/merchant" && request.headers["x-api-key"] === keys.familyA.noMerchantRead
        ? { ...request, headers: { ...request.headers, "x-api-key": keys.familyA.primary } }
        : request,
  },
  {
    name: "missing-key-accepted",
    statements: ["B-AUTH-HEADER-x-api-key", "B-AUTH-ERROR-unauthorized", "B-ERRORS-ERROR-unauthorized"],
    caughtBy: "family-b/getHealth/401/missing-key",
    breaks: "a missing key gives 401 UNAUTHORIZED",
    family: "family-b",
    request: (request, keys) =>
      request.path.startsWith("/v1") || request.headers["x-api-key"] !== undefined
        ? request
        : { ...request, headers: { ...request.headers, "x-api-key": keys.familyB.primary } },
  },
  {
    name: "cancel-accepts-long-reason",
    statements: ["B-ERRORS-ERROR-ODE003", "B-LIMITS-LIMIT-cancel-reason"],
    caughtBy: "family-b/cancelBoleto/400/",
    breaks: "the cancellation reason has at most 200 characters (ODE003)",
    family: "family-b",
    request: (request) => {
      const body = request.method === "DELETE" && request.path.endsWith("/cancel") ? requestJson(request) : undefined;
      if (!body) return request;
      if (typeof body.reason === "string" && body.reason.length > 200) body.reason = body.reason.slice(0, 200);
      return { ...request, body: JSON.stringify(body) };
    },
  },
];

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/** Far past any server's header limit: headers a server refuses as too large still reach it. */
const PROXY_MAX_HEADER_SIZE = 1024 * 1024;

const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "host"]);

/** Starts a proxy on 127.0.0.1 that forwards to `upstream` through one mutation. */
/** Sends a request on to the correct server and returns its reply (hop-by-hop headers dropped). */
export type Forward = (request: Exchange) => Promise<Reply>;

/**
 * A proxy on a free loopback port in front of `upstream`: every request goes through `handle`,
 * which may change it, forward it (or not) and change the reply.
 */
export async function startProxy(
  upstream: string,
  handle: (request: Exchange, forward: Forward) => Promise<Reply>,
  refused?: Mutation["refused"],
): Promise<{ url: string; close(): Promise<void> }> {
  const forward: Forward = async (request) => {
    const answer = await sendHttp({ method: request.method, url: `${upstream}${request.path}${request.search}`, headers: request.headers, body: request.body.length > 0 ? request.body : undefined });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
    return { status: answer.status, headers, body: new TextDecoder().decode(answer.bytes) };
  };
  // Headers past the server's own limit reach it, to be refused there (D39), not here; so does a
  // request whose headers never end, to time out there.
  const server = createServer({ maxHeaderSize: PROXY_MAX_HEADER_SIZE, ...RELAY_TIMEOUTS }, async (incoming, outgoing) => {
    try {
      const url = new URL(incoming.url ?? "/", "http://mutant");
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = Array.isArray(value) ? value.join(", ") : value;
      }
      const reply = await handle({ method: incoming.method ?? "GET", path: url.pathname, search: url.search, headers, body: await readBody(incoming) }, forward);
      outgoing.writeHead(reply.status, { ...reply.headers, "content-length": String(Buffer.byteLength(reply.body)) });
      outgoing.end(reply.body);
    } catch (error) {
      outgoing.writeHead(502, { "content-type": "text/plain" });
      outgoing.end(String(error));
    }
  });
  // First: what the broken server answers itself is not relayed.
  server.prependListener("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    const answer = refused?.(error.code);
    if (answer !== undefined && socket.writable) socket.end(answer);
  });
  relayRefusedRequests(server, () => upstream);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function startMutant(upstream: string, mutation: Mutation, keys: Keys): Promise<{ url: string; close(): Promise<void> }> {
  const companion = mutation.companion ? await mutation.companion() : undefined;
  const proxy = await startProxy(upstream, async (incoming, forward) => {
    const request = mutation.request ? mutation.request(incoming, keys, companion?.url) : incoming;
    const reply = mutation.handle ? await mutation.handle(request, forward, keys) : await forward(request);
    return mutation.response ? mutation.response(request, reply) : reply;
  }, mutation.refused);
  return {
    url: proxy.url,
    close: async () => {
      await proxy.close();
      await companion?.close();
    },
  };
}

/**
 * A faithful server that decided differently wherever the document is silent: charge creation
 * answers 200 (D05), family A errors are plain JSON `{code, message}` (D21), a boleto cancel
 * and a customer delete answer 204 without body (D17, D31), an unknown boleto's ODE001 comes
 * with 400 (D18), and every JSON object response carries an extra member. It must pass the
 * seed profile and fail the full one.
 */
export const OTHER_DECISIONS: Mutation = {
  name: "other-decisions",
  caughtBy: "",
  breaks: "nothing the document states",
  family: "family-a",
  response: (request, reply) => {
    let out = reply;
    if (/json/.test(out.headers["content-type"] ?? "") && out.body.startsWith("{")) {
      const body = JSON.parse(out.body) as Json;
      body.livemode = false;
      out = { ...out, body: JSON.stringify(body) };
    }
    if (request.method === "POST" && request.path === "/v1/charges" && out.status === 201) out = { ...out, status: 200 };
    if (request.path.startsWith("/v1") && out.status >= 400) {
      const problem = JSON.parse(out.body) as Json;
      out = {
        ...out,
        headers: { ...out.headers, "content-type": "application/json; charset=utf-8" },
        body: JSON.stringify({ code: problem.code, message: problem.title }),
      };
    }
    const noContent =
      (request.method === "DELETE" && /\/cancel$/.test(request.path) && out.status === 200) ||
      (request.method === "DELETE" && /^\/api\/sdk\/customers\//.test(request.path) && out.status === 200);
    if (noContent) {
      const headers = { ...out.headers };
      delete headers["content-type"];
      out = { status: 204, headers, body: "" };
    }
    if (request.method === "DELETE" && /\/cancel$/.test(request.path) && out.status === 404) out = { ...out, status: 400 };
    return out;
  },
};
