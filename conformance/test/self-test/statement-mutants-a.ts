/**
 * Broken servers for the family A statements (and those of both families) no other broken
 * server breaks: each breaks exactly one statement of the catalogue, or one clause of it, read
 * the way a careless or hostile implementation would (what it forbids, what must hold across
 * requests, who may read or change what). Same proxy as mutants.ts; those a generic check must
 * catch are in STATEMENT_DERIVED_MUTATIONS_A (derived-mutants.ts runs them).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { throughRelay } from "./behaviour-mutants.ts";
import { changesReply, lenientMember, refusesValid, type Json } from "./derived-faults.ts";
import { matcher, type DerivedMutation } from "./derived-generated.ts";
import type { Exchange, Forward, Mutation, Reply } from "./mutants.ts";

const ok = (reply: Reply) => reply.status >= 200 && reply.status < 300;
const isChargeCreation = (request: Exchange) => request.method === "POST" && request.path === "/v1/charges";
const isChargeRead = (request: Exchange) => request.method === "GET" && /^\/v1\/charges\/[^/]+$/.test(request.path);
const isMerchantRead = (request: Exchange) => request.method === "GET" && request.path === "/v1/merchant";

/** A reply whose JSON body `edit` changed, for the successful requests that match. */
function editing(matches: (request: Exchange) => boolean, edit: (body: Json) => void) {
  return (request: Exchange, reply: Reply): Reply => {
    if (!matches(request) || !ok(reply)) return reply;
    const body = JSON.parse(reply.body) as Json;
    edit(body);
    return { ...reply, body: JSON.stringify(body) };
  };
}

/** A family A error as the correct server words it (problem details with a code). */
const problem = (status: number, code: string): Reply => ({
  status,
  headers: { "content-type": "application/problem+json" },
  body: JSON.stringify({ type: "about:blank", title: code, status, code }),
});

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter += 1)}`;

const withHeader = (request: Exchange, name: string, value: string): Exchange => ({ ...request, headers: { ...request.headers, [name]: value } });

/** A charge creation under a fresh Idempotency-Key: a new charge behind the client's back. */
const createAnother = (request: Exchange, forward: Forward) => forward(withHeader(request, "idempotency-key", `${request.headers["idempotency-key"]}-${unique()}`));

/**
 * Replays as a broken server handles them: the first use of an Idempotency-Key (per API key)
 * goes through; `replay` decides what a later use returns.
 */
function onReplay(replay: (request: Exchange, original: Reply, forward: Forward) => Promise<Reply>) {
  const seen = new Map<string, Reply>();
  return async (request: Exchange, forward: Forward): Promise<Reply> => {
    const key = request.headers["idempotency-key"];
    if (!isChargeCreation(request) || !key || key.length < 8) return forward(request);
    const slot = `${request.headers["x-api-key"]} ${key}`;
    const original = seen.get(slot);
    if (!original) {
      const reply = await forward(request);
      if (ok(reply)) seen.set(slot, reply);
      return reply;
    }
    return replay(request, original, forward);
  };
}

/** A server on 127.0.0.1 that answers 204 to everything and keeps nothing (a webhook sent nowhere). */
async function sink(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => req.resume().on("end", () => res.writeHead(204).end()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The bad value a merchant field gets, one per field the document lists. */
const MERCHANT_FIELD_FAULTS: Array<[field: string, value: unknown, breaks: string]> = [
  ["id", 42, "the merchant's id is a string"],
  ["object", "Merchant", "the merchant's object is the constant merchant"],
  ["type", "person", "the merchant's type is individual or company"],
  ["name", 7, "the merchant's name is a string"],
  ["legal_name", ["Loja", "Ltda"], "the merchant's legal_name is a string"],
  ["document", "123.456.789-09", "the merchant's document is digits only"],
  ["document", "123456789012", "the merchant's document has 11 (CPF) or 14 (CNPJ) digits: it has 12"],
  ["email", false, "the merchant's email is a string, or null"],
  ["phone", 5511987654321, "the merchant's phone is a string, or null"],
  ["status", "ACTIVE", "the merchant's status is pending, active, suspended or closed"],
  ["kyc_status", "approved_manually", "the merchant's kyc_status is pending, in_review, approved, rejected or suspended"],
  ["created_at", "yesterday", "the merchant's created_at is an ISO 8601 timestamp"],
];

export const STATEMENT_MUTATIONS_A: Mutation[] = [
  // All bodies are JSON; requests and responses are JSON.
  {
    name: "merchant-as-text",
    statements: ["AB-SERVICE-PRINCIPLE-json-bodies"],
    caughtBy: "family-a/getMerchant/200/",
    breaks: "all bodies are JSON: the merchant comes as text/plain",
    family: "family-a",
    response: (request, reply) => (isMerchantRead(request) && ok(reply) ? { ...reply, headers: { ...reply.headers, "content-type": "text/plain" } } : reply),
  },
  {
    name: "charge-read-not-json",
    statements: ["AB-SERVICE-PRINCIPLE-json-bodies", "AB-SERVICE-PRINCIPLE-rest-json"],
    caughtBy: "family-a/getCharge/200/",
    breaks: "responses are JSON: a charge read is labelled JSON but is a form-encoded string",
    family: "family-a",
    response: (request, reply) => {
      if (!isChargeRead(request) || !ok(reply)) return reply;
      const body = JSON.parse(reply.body) as Json;
      return { ...reply, body: new URLSearchParams(Object.entries(body).map(([k, v]) => [k, typeof v === "object" ? JSON.stringify(v) : String(v)])).toString() };
    },
  },
  {
    name: "charge-creation-refuses-json",
    statements: ["AB-SERVICE-PRINCIPLE-rest-json", "A-CHARGES-HEADER-content-type"],
    caughtBy: "family-a/createCharge/201/",
    breaks: "requests are JSON, sent with Content-Type: application/json: the server answers 415 to them",
    family: "family-a",
    handle: async (request, forward) =>
      isChargeCreation(request) && (request.headers["content-type"] ?? "").startsWith("application/json") ? problem(415, "UNSUPPORTED_MEDIA_TYPE") : forward(request),
  },
  {
    name: "charge-creation-not-found",
    statements: ["A-CHARGES-ENDPOINT-create"],
    caughtBy: "family-a/createCharge/201/",
    breaks: "POST /v1/charges exists: the server answers 404 (it serves /v1/charge)",
    family: "family-a",
    handle: async (request, forward) => (isChargeCreation(request) ? problem(404, "NOT_FOUND") : forward(request)),
  },
  {
    name: "merchant-camel-case",
    statements: ["A-SERVICE-PRINCIPLE-snake-case"],
    caughtBy: "family-a/getMerchant/200/",
    breaks: "all response fields are snake_case: the merchant carries legalName and createdAt",
    family: "family-a",
    response: editing(isMerchantRead, (body) => {
      for (const [from, to] of [["legal_name", "legalName"], ["created_at", "createdAt"], ["kyc_status", "kycStatus"]]) {
        body[to!] = body[from!];
        delete body[from!];
      }
    }),
  },
  // The charge and its fields.
  {
    name: "charges-share-one-br-code",
    statements: ["A-CHARGE-PRINCIPLE-br-code"],
    caughtBy: "family-a/charges/own-br-code",
    breaks: "the payer is given the charge's br_code: every charge carries the first charge's BR Code and txid",
    family: "family-a",
    response: (() => {
      let first: unknown;
      return editing(isChargeCreation, (body) => {
        first ??= body.pix;
        body.pix = { ...(first as Json), end_to_end_id: body.pix?.end_to_end_id ?? null };
      });
    })(),
  },
  {
    name: "new-charge-has-end-to-end-id",
    statements: ["A-CHARGE-FIELD-pix"],
    caughtBy: "family-a/charges/created-pending",
    breaks: "end_to_end_id is null until paid: a new charge carries one",
    family: "family-a",
    response: editing(isChargeCreation, (body) => (body.pix.end_to_end_id = "E1234567820240601120000abcdefghijk")),
  },
  {
    name: "charge-txid-as-number",
    statements: ["A-CHARGE-FIELD-pix"],
    caughtBy: "family-a/createCharge/201/",
    breaks: "pix.txid is a string: it is a number",
    family: "family-a",
    response: editing(isChargeCreation, (body) => (body.pix.txid = 12345678901234567890)),
  },
  {
    name: "charge-id-reads-nothing",
    statements: ["A-CHARGE-FIELD-id"],
    caughtBy: "family-a/charges/created-pending",
    breaks: "id identifies the charge: the id creation returns reads no charge",
    family: "family-a",
    response: editing(isChargeCreation, (body) => (body.id = `${body.id}0`)),
  },
  {
    name: "charge-object-capitalised",
    statements: ["A-CHARGE-FIELD-object"],
    caughtBy: "family-a/createCharge/201/",
    breaks: "a charge's object is the constant charge: it says Charge",
    family: "family-a",
    response: editing(isChargeCreation, (body) => (body.object = "Charge")),
  },
  {
    name: "new-charge-paid",
    statements: ["A-CHARGE-FIELD-status", "A-CHARGE-TRANSITION-pending-on-creation"],
    caughtBy: "family-a/charges/created-pending",
    breaks: "status is pending on creation: a new charge says paid",
    family: "family-a",
    response: editing(isChargeCreation, (body) => (body.status = "paid")),
  },
  {
    name: "charge-currency-lower-case",
    statements: ["A-CHARGE-FIELD-currency"],
    caughtBy: "family-a/createCharge/201/",
    breaks: "a charge's currency is BRL: it says brl",
    family: "family-a",
    response: editing(isChargeCreation, (body) => (body.currency = "brl")),
  },
  {
    name: "charge-paid-by-card",
    statements: ["A-CHARGE-RULE-paid-by-pix", "A-CHARGE-FIELD-method"],
    caughtBy: "family-a/createCharge/201/",
    breaks: "charges are paid by PIX (method pix): a new charge's method is card",
    family: "family-a",
    response: editing(isChargeCreation, (body) => (body.method = "card")),
  },
  {
    name: "charge-payer-as-text",
    statements: ["A-CHARGE-FIELD-payer"],
    caughtBy: "family-a/createCharge/201/",
    breaks: "payer is an object {name, document}: it is a string",
    family: "family-a",
    response: editing(isChargeCreation, (body) => (body.payer = "Maria Silva 12345678909")),
  },
  {
    name: "charge-payer-request-as-list",
    statements: ["A-CHARGE-FIELD-payer_request"],
    caughtBy: "family-a/createCharge/201/",
    breaks: "payer_request is an object {name, document}: it is a list",
    family: "family-a",
    response: editing(isChargeCreation, (body) => (body.payer_request = ["Maria Silva", "12345678909"])),
  },
  {
    name: "charge-expired-before-creation",
    statements: ["A-CHARGE-FIELD-expires_at"],
    caughtBy: "family-a/charges/created-pending",
    breaks: "expires_at is the charge's expiry: every charge expires an hour before it was created",
    family: "family-a",
    response: editing(
      (request) => isChargeCreation(request) || isChargeRead(request),
      (body) => (body.expires_at = new Date(Date.parse(body.created_at) - 3_600_000).toISOString()),
    ),
  },
  {
    name: "charge-created-at-fixed",
    statements: ["A-CHARGE-FIELD-created_at"],
    caughtBy: "family-a/charges/created-pending",
    breaks: "created_at is the creation time: every charge says it was created on 2001-01-01",
    family: "family-a",
    response: editing((request) => isChargeCreation(request) || isChargeRead(request), (body) => (body.created_at = "2001-01-01T00:00:00Z")),
  },
  {
    name: "expires-in-refused",
    statements: ["A-CHARGE-FIELD-request.expires_in"],
    caughtBy: "family-a/createCharge/201/",
    breaks: "expires_in is a request field: a creation that carries it is refused",
    family: "family-a",
    handle: async (request, forward) => (isChargeCreation(request) && /"expires_in"/.test(request.body) ? problem(400, "UNKNOWN_FIELD") : forward(request)),
  },
  ...MERCHANT_FIELD_FAULTS.map(
    ([field, value, breaks]): Mutation => ({
      name: `merchant-${field.replace(/_/g, "-")}-${typeof value === "string" && /^\d+$/.test(value) ? "wrong-length" : "wrong"}`,
      statements: [`A-MERCHANT-FIELD-${field}`],
      caughtBy: "family-a/getMerchant/200/",
      breaks,
      family: "family-a",
      response: editing(isMerchantRead, (body) => (body[field] = value)),
    }),
  ),
  {
    name: "scope-refusal-carries-merchant",
    statements: ["A-AUTH-AUTH-merchant-scope"],
    caughtBy: "family-a/auth/merchant-read-scope",
    breaks: "GET /v1/merchant requires merchant:read: a key without it is refused 403, and the refusal carries the merchant",
    family: "family-a",
    handle: async (request, forward, keys) => {
      const reply = await forward(request);
      if (!isMerchantRead(request) || reply.status !== 403) return reply;
      const merchant = await forward(withHeader(request, "x-api-key", keys.familyA.primary));
      const body = { ...(JSON.parse(reply.body) as Json), merchant: JSON.parse(merchant.body) as Json };
      return { ...reply, body: JSON.stringify(body) };
    },
  },
  {
    name: "merchant-of-another-account",
    statements: ["A-MERCHANT-ENDPOINT-get"],
    caughtBy: "family-a/auth/tenant-isolation-merchant",
    breaks: "GET /v1/merchant returns the key's own merchant: secondAccount's key reads the first account's",
    family: "family-a",
    request: (request, keys) => (isMerchantRead(request) && request.headers["x-api-key"] === keys.familyA.secondAccount ? withHeader(request, "x-api-key", keys.familyA.primary) : request),
  },
  {
    name: "charge-in-an-envelope",
    statements: ["A-CHARGES-RULE-returns-charge"],
    caughtBy: "family-a/charges/created-pending",
    breaks: "POST /v1/charges returns a charge object: it returns {success, data: charge}",
    family: "family-a",
    response: editing(isChargeCreation, (body) => {
      const charge = { ...body };
      for (const key of Object.keys(body)) delete body[key];
      Object.assign(body, { success: true, data: charge });
    }),
  },
  // Idempotency.
  {
    name: "idempotency-key-required-as-422",
    statements: ["A-IDEM-ERROR-key-required", "A-ERRORS-ERROR-idempotency-key-required"],
    caughtBy: "family-a/createCharge/400/",
    breaks: "a missing or short Idempotency-Key is answered 400: it is answered 422 (with the right code)",
    family: "family-a",
    response: (request, reply) => (isChargeCreation(request) && reply.status === 400 && /IDEMPOTENCY_KEY_REQUIRED/.test(reply.body) ? { ...reply, status: 422 } : reply),
  },
  {
    name: "missing-idempotency-key-accepted",
    statements: ["A-IDEM-PRINCIPLE-writes-need-key", "A-IDEM-RULE-mandatory"],
    caughtBy: "family-a/idempotency/writes-need-key",
    breaks: "the Idempotency-Key header is mandatory: a creation without one gets a key made up by the server",
    family: "family-a",
    request: (request) => (isChargeCreation(request) && request.headers["idempotency-key"] === undefined ? withHeader(request, "idempotency-key", `server-${unique()}`) : request),
  },
  {
    name: "replay-returns-another-charge-same-qr",
    statements: ["A-IDEM-RULE-replay"],
    caughtBy: "family-a/idempotency/replay-returns-original",
    breaks: "a used key returns the original charge: the replay creates a new charge that reuses the original's QR code",
    family: "family-a",
    handle: onReplay(async (request, original, forward) => {
      const another = await createAnother(request, forward);
      if (!ok(another)) return another;
      const body = JSON.parse(another.body) as Json;
      body.pix = (JSON.parse(original.body) as Json).pix;
      return { ...another, body: JSON.stringify(body) };
    }),
  },
  {
    name: "replay-new-qr-code",
    statements: ["A-IDEM-RULE-replay"],
    caughtBy: "family-a/idempotency/replay-returns-original",
    breaks: "a replay makes no new QR code: the original charge comes back with a new BR Code and txid",
    family: "family-a",
    handle: (() => {
      // The charge keeps the QR code its last replay made (reads show it too).
      const regenerated = new Map<string, unknown>();
      const replays = onReplay(async (request, original, forward) => {
        const fresh = await createAnother(request, forward);
        const body = JSON.parse(original.body) as Json;
        if (ok(fresh)) regenerated.set(body.id, (JSON.parse(fresh.body) as Json).pix);
        body.pix = regenerated.get(body.id) ?? body.pix;
        return { ...original, body: JSON.stringify(body) };
      });
      return async (request: Exchange, forward: Forward): Promise<Reply> => {
        const reply = await replays(request, forward);
        const id = request.path.split("/").pop()!;
        if (!isChargeRead(request) || !ok(reply) || !regenerated.has(id)) return reply;
        const body = JSON.parse(reply.body) as Json;
        body.pix = regenerated.get(id);
        return { ...reply, body: JSON.stringify(body) };
      };
    })(),
  },
  {
    name: "replay-books-charge-again",
    statements: ["A-IDEM-RULE-replay"],
    caughtBy: "family-a/idempotency/replay-returns-original",
    breaks: "a replay makes no new ledger entry: each replay books the charge again, and the charge then reads with its amount counted twice",
    family: "family-a",
    // Only the reading shows the second entry, and the reading's body is decision D06.
    profile: "full",
    handle: (() => {
      const booked = new Map<string, number>();
      const replays = onReplay(async (_request, original) => {
        const id = (JSON.parse(original.body) as Json).id as string;
        booked.set(id, (booked.get(id) ?? 1) + 1);
        return original;
      });
      return async (request: Exchange, forward: Forward): Promise<Reply> => {
        const reply = await replays(request, forward);
        const id = request.path.split("/").pop()!;
        if (!isChargeRead(request) || !ok(reply) || !booked.has(id)) return reply;
        const body = JSON.parse(reply.body) as Json;
        body.amount = Number(body.amount) * booked.get(id)!;
        return { ...reply, body: JSON.stringify(body) };
      };
    })(),
  },
  // Errors.
  {
    name: "error-code-changes-every-time",
    statements: ["A-ERRORS-PRINCIPLE-stable-code"],
    caughtBy: "family-a/errors/stable-code",
    breaks: "every error carries a stable code: the code of an unknown charge carries a request counter",
    family: "family-a",
    response: (request, reply) => {
      if (!isChargeRead(request) || reply.status !== 404) return reply;
      const body = JSON.parse(reply.body) as Json;
      body.code = `${body.code}_${unique()}`;
      return { ...reply, body: JSON.stringify(body) };
    },
  },
  {
    name: "error-with-success-status",
    statements: ["A-ERRORS-RULE-code-and-status"],
    caughtBy: "family-a/errors/stable-code",
    breaks: "every error carries a code and an HTTP status: an unknown charge is answered 200 with the error's code",
    family: "family-a",
    response: (request, reply) => (isChargeRead(request) && reply.status === 404 ? { ...reply, status: 200 } : reply),
  },
  {
    name: "family-a-limit-answered-503",
    statements: ["A-ERRORS-STATUS-429"],
    caughtBy: "family-a/getMerchant/429/",
    breaks: "an exceeded rate limit is answered 429: family A answers 503",
    family: "family-a",
    needsRateLimits: true,
    response: (request, reply) => (request.path.startsWith("/v1/") && reply.status === 429 ? { ...reply, status: 503 } : reply),
  },
  // Keys.
  {
    name: "live-server-takes-test-keys-for-charges",
    statements: ["A-AUTH-AUTH-test-keys"],
    caughtBy: "family-a/auth/test-keys-refused-live",
    breaks: "sk_test_ keys are not usable now: a live server refuses them on the merchant, but creates charges with them",
    family: "family-a",
    // The sandbox, presented as a live server; its primary key (sk_test_) is the key to refuse.
    adjustTarget: (target) => {
      target.familyA!.environment = "live";
      target.familyA!.keys.testKey = target.familyA!.keys.primary;
    },
    handle: async (request, forward) => (isMerchantRead(request) && request.headers["x-api-key"]?.startsWith("sk_test_") ? problem(401, "UNAUTHORIZED") : forward(request)),
  },
  // Events.
  {
    name: "webhook-never-sent",
    statements: ["A-EVENTS-EVENT-payment-webhook", "A-EVENTS-EVENT-payment-webhook-summary", "A-CHARGE-FIELD-webhook_url"],
    caughtBy: "family-a/events/webhook-signed",
    breaks: "a paid charge's webhook goes to its webhook_url: it never arrives there",
    family: "family-a",
    // The charge's webhook_url leads to a sink that takes the webhook and passes nothing on.
    companion: sink,
    ...throughRelay,
  },
];

const A = (operationId: string) => matcher("family-a", operationId);

const derived = (derivedClass: DerivedMutation["derivedClass"], operation: string, variant: string, name: string, statements: string[], breaks: string, handle: DerivedMutation["handle"]): DerivedMutation => ({
  name: `${derivedClass}:${operation}:${name}`,
  derivedClass,
  family: "family-a",
  operation,
  breaks,
  caughtBy: `family-a/derived/${derivedClass}/${operation}/${variant}`,
  statements,
  handle,
});

const asString = { broken: (v: unknown, present: boolean) => present && typeof v !== "string" && v !== null, lenient: (v: unknown) => String(v) };

export const STATEMENT_DERIVED_MUTATIONS_A: DerivedMutation[] = [
  derived("negative-data", "createCharge", "wrong-type-reference", "wrong-type-reference", ["A-CHARGE-FIELD-request.reference"], "reference is a string: a number is taken as its text", lenientMember(A("createCharge"), ["reference"], asString, "ref")),
  derived("negative-data", "createCharge", "wrong-type-webhook_url", "wrong-type-webhook_url", ["A-CHARGE-FIELD-request.webhook_url"], "webhook_url is a string URL: a number is taken as its text", lenientMember(A("createCharge"), ["webhook_url"], asString, "https://example.com")),
  derived("positive-data", "createCharge", "generated-bodies", "refuses-minimal-request", ["A-CHARGE-RULE-minimal-request"], "a request with only amount and method is accepted: the server wants a reference", refusesValid(A("createCharge"), (body) => !("reference" in body))),
  derived("consistency", "createCharge", "returns-what-was-sent", "creation-replaces-reference", ["A-CHARGE-FIELD-reference"], "reference is the caller's own: the server returns its own", changesReply(A("createCharge"), (d) => void (typeof d.reference === "string" && (d.reference = `srv-${d.id}`)))),
  derived("consistency", "createCharge", "returns-what-was-sent", "amount-in-reais", ["A-CHARGE-FIELD-amount", "A-SERVICE-PRINCIPLE-amount-integer"], "amount is in the smallest unit of the currency: the server returns reais", changesReply(A("createCharge"), (d) => void (typeof d.amount === "number" && (d.amount = Math.floor(d.amount / 100))))),
];
