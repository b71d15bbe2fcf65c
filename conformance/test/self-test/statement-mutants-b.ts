/**
 * Broken servers for the family B statements of the catalogue (spec/statements.yaml): each
 * proxy in front of the correct sandbox breaks exactly one statement, or one clause of it, as a
 * careless or hostile vendor would (a field of another type, a code renamed, a refusal that
 * still changes the record, a hard delete, a page ignored...). `statements` names what it
 * breaks; `caughtBy` the check that must fail.
 *
 * Where the contract model places the fault, the servers are made from it: one missing
 * endpoint per operation the catalogue publishes, one operation exempt from the rate limits per
 * operation that documents a 429, one lenient creation per customer field the document requires. The generic checks' own broken servers get their statements from the
 * classes the catalogue says enforce them (`enforcedBy`).
 */
import { loadFamilyContract } from "@payment-collection/contract/model/index.ts";
import { loadCatalogue } from "../../src/core/statement-map.ts";
import { isDecisionElement } from "../../src/core/profiles/schema-profile.ts";
import { CHEAP_OPERATION } from "../../src/core/exhaust.ts";
import { limitsOf } from "../../src/derived/rate-limit-figures.ts";
import type { DerivedClass } from "../../src/derived/index.ts";
import { editJson, is, requestJson, type Exchange, type Keys, type Mutation, type Reply } from "./mutants.ts";
import { matcher, type DerivedMutation } from "./derived-generated.ts";
import { lenientMember, type Json } from "./derived-faults.ts";

const CUSTOMER = /^\/api\/v1\/sdk\/customers\/[^/]+$/;
const CUSTOMERS = /^\/api\/v1\/sdk\/customers$/;
const DELETE_CUSTOMER = /^\/api\/sdk\/customers\/[^/]+$/;
const BOLETO = /^\/sdk\/boleto\/[^/]+$/;
const CANCEL = /^\/api\/v1\/sdk\/boleto\/[^/]+\/cancel$/;
const HEALTH = /^\/sdk\/status\/health$/;

const ok = (reply: Reply) => reply.status >= 200 && reply.status < 300;
const json = (status: number, body: Json): Reply => ({ status, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const envelope1 = (status: number, code: string, message: string) => json(status, { success: false, error: { code, message, details: "" } });
const envelope2 = (status: number, errorCode: string, message: string) => json(status, { version: "1.0.0", status: "ERROR", error: { errorCode, message } });
const reasonOf = (request: Exchange): string | undefined => {
  const reason = requestJson(request)?.reason;
  return typeof reason === "string" ? reason : undefined;
};

/** A family B server that answers one reply of a kind with an edited JSON body. */
function edits(name: string, statements: string[], caughtBy: string, breaks: string, method: string, path: RegExp, edit: (body: Json) => void, status?: number): Mutation {
  return { name, statements, caughtBy, breaks, family: "family-b", response: editJson(is(method, path, status ?? (method === "POST" ? 201 : 200)), edit) };
}

/** The same, on the reads of a customer, of a boleto, on the update of a customer. */
const readCustomer = (name: string, statements: string[], breaks: string, edit: (body: Json) => void) => edits(name, statements, "family-b/getCustomer/200/", breaks, "GET", CUSTOMER, edit);
const updatedCustomer = (name: string, statements: string[], breaks: string, edit: (body: Json) => void) => edits(name, statements, "family-b/updateCustomer/200/", breaks, "PUT", CUSTOMER, edit);
const createdCustomer = (name: string, statements: string[], breaks: string, edit: (body: Json) => void) => edits(name, statements, "family-b/createCustomer/201/", breaks, "POST", CUSTOMERS, edit);
const readBoleto = (name: string, statements: string[], breaks: string, edit: (body: Json) => void) => edits(name, statements, "family-b/getBoleto/200/", breaks, "GET", BOLETO, edit);

// Module state of the stateful broken servers (one run per server).
/** Customers a broken server deleted for good. */
const hardDeleted = new Set<string>();
/** Boletos whose cancel a broken server refused, then applied anyway. */
const refusedButCancelled = new Set<string>();
/** A boleto id no server has: where a broken server sends what it does not do. */
const NOWHERE = "00000000-0000-4000-8000-00000000dead";

const FIELDS: Mutation[] = [
  // Customer (family B): every field of its type, in the shapes the document gives each operation.
  readCustomer("customer-name-not-text", ["B-CUSTOMER-FIELD-name"], "a customer's name is a string", (b) => (b.data.name = 4217)),
  createdCustomer("customer-email-not-text", ["B-CUSTOMER-FIELD-email"], "a customer's email is a string", (b) => (b.data.email = { address: b.data.email })),
  readCustomer("customer-document-as-number", ["B-CUSTOMER-FIELD-documentNumber"], "a customer's documentNumber is a string (CPF or CNPJ)", (b) => (b.data.documentNumber = Number(b.data.documentNumber))),
  createdCustomer("customer-phone-as-number", ["B-CUSTOMER-FIELD-phoneNumber"], "a customer's phoneNumber is a string", (b) => (b.data.phoneNumber = Number(String(b.data.phoneNumber).replace(/\D/g, "")))),
  readCustomer("customer-street-not-text", ["B-CUSTOMER-FIELD-address.street"], "address.street is a string", (b) => (b.data.address.street = ["Av Paulista"])),
  readCustomer("customer-address-number-as-number", ["B-CUSTOMER-FIELD-address.number"], "address.number is a string", (b) => (b.data.address.number = Number.parseInt(String(b.data.address.number), 10) || 1)),
  readCustomer("customer-complement-not-text", ["B-CUSTOMER-FIELD-address.complement"], "address.complement is a string, or null in responses", (b) => (b.data.address.complement = false)),
  readCustomer("customer-neighborhood-not-text", ["B-CUSTOMER-FIELD-address.neighborhood"], "address.neighborhood is a string", (b) => (b.data.address.neighborhood = 7)),
  readCustomer("customer-city-not-text", ["B-CUSTOMER-FIELD-address.city"], "address.city is a string", (b) => (b.data.address.city = { name: b.data.address.city })),
  readCustomer("customer-state-not-text", ["B-CUSTOMER-FIELD-address.state"], "address.state is a string", (b) => (b.data.address.state = 35)),
  readCustomer("customer-notes-not-text", ["B-CUSTOMER-FIELD-notes"], "a customer's notes are a string", (b) => (b.data.notes = ["free", "remarks"])),
  createdCustomer("customer-id-as-number", ["B-CUSTOMER-FIELD-id", "B-CUSTOMER-FIELD-response-ids"], "a customer's id in responses is a string", (b) => (b.data.id = 1001)),
  readCustomer("customer-status-not-text", ["B-CUSTOMER-FIELD-status"], "a customer's status is a string", (b) => (b.data.status = 1)),
  createdCustomer("customer-created-at-not-iso", ["B-CUSTOMER-FIELD-createdAt"], "createdAt is an ISO 8601 timestamp", (b) => (b.data.createdAt = new Date(b.data.createdAt).toUTCString())),
  updatedCustomer("customer-updated-at-not-iso", ["B-CUSTOMER-FIELD-updatedAt"], "updatedAt is an ISO 8601 timestamp or null", (b) => (b.data.updatedAt = "yesterday")),
  // The shapes of each operation's answer.
  createdCustomer("customer-creation-without-document", ["B-CUSTOMER-RULE-create-response-fields", "B-CUSTOMER-FIELD-create-response"], "the create response returns documentNumber", (b) => delete b.data.documentNumber),
  createdCustomer("customer-creation-without-success", ["B-CUSTOMER-FIELD-create-response"], "the create response is {success, data}", (b) => delete b.success),
  updatedCustomer("customer-update-without-created-at", ["B-CUSTOMER-RULE-read-response-fields"], "update responses return createdAt", (b) => delete b.data.createdAt),
  readCustomer("customer-read-without-timestamp", ["B-CUSTOMER-FIELD-read-envelope", "B-CUSTOMER-RULE-read-response-fields"], "get responses carry the envelope timestamp", (b) => delete b.timestamp),
  readCustomer("customer-read-address-with-postal-code", ["B-CUSTOMER-RULE-address-without-postalCode"], "get responses carry an address without postalCode", (b) => (b.data.address.postalCode = "01310100")),
  updatedCustomer("customer-update-address-with-postal-code", ["B-CUSTOMER-RULE-address-without-postalCode"], "update responses carry an address without postalCode", (b) => (b.data.address.postalCode = "01310100")),
  updatedCustomer("customer-update-with-phone-number", ["B-CUSTOMER-RULE-no-phoneNumber"], "update responses carry no phoneNumber", (b) => (b.data.phoneNumber = "+5511987654321")),

  // Boleto charge (family B).
  readBoleto("boleto-transaction-id-as-number", ["B-BOLETO-FIELD-transactionId"], "a boleto's transactionId is a string", (b) => (b.data.transactionId = 913)),
  readBoleto("boleto-client-code-as-number", ["B-BOLETO-FIELD-clientCode"], "a boleto's clientCode is a string", (b) => (b.data.clientCode = 727089)),
  readBoleto("boleto-amount-as-text", ["B-BOLETO-FIELD-amount"], "a boleto's amount is a number", (b) => (b.data.amount = Number(b.data.amount).toFixed(2))),
  readBoleto("boleto-amount-confirmed-as-text", ["B-BOLETO-FIELD-amountConfirmed"], "amountConfirmed is a number or null", (b) => (b.data.amountConfirmed = String(b.data.amountConfirmed ?? "0.00"))),
  readBoleto("boleto-due-date-not-iso", ["B-BOLETO-FIELD-duedate"], "duedate is an ISO 8601 date", (b) => (b.data.duedate = String(b.data.duedate).split("-").reverse().join("/"))),
  readBoleto("boleto-debtor-number-as-text", ["B-BOLETO-FIELD-debtor"], "debtor.number is a number", (b) => (b.data.debtor.number = String(b.data.debtor.number))),
  readBoleto("boleto-receiver-account-as-number", ["B-BOLETO-FIELD-receiver"], "receiver.account is a string", (b) => (b.data.receiver.account = 12345)),
  readBoleto("boleto-instructions-not-array", ["B-BOLETO-FIELD-instructions"], "instructions is an array (it may be empty)", (b) => (b.data.instructions = null)),
  readBoleto("boleto-bar-code-as-number", ["B-BOLETO-FIELD-boleto"], "boleto.barCode is a string", (b) => (b.data.boleto.barCode = Number(String(b.data.boleto.barCode).slice(0, 12)))),
  readBoleto("boleto-pix-status-not-text", ["B-BOLETO-FIELD-pix"], "pix.status is a string (seen as PENDING)", (b) => (b.data.pix.status = 0)),
  readBoleto("boleto-read-without-timestamp", ["B-BOLETO-RULE-reading-envelope"], "the reading response is {success, data, timestamp}", (b) => delete b.timestamp),
  readBoleto("boleto-read-success-as-text", ["B-BOLETO-RULE-reading-envelope"], "the envelope's success is a boolean", (b) => (b.success = "true")),
  edits("boleto-registered-shown-pending", ["B-BOLETO-ENUM-REGISTERED"], "family-b/boletos/cancel-state-machine", "a boleto generated and awaiting payment is REGISTERED", "GET", BOLETO, (b) => b.data.status === "REGISTERED" && (b.data.status = "PENDING")),
  edits("boleto-confirmed-shown-paid", ["B-BOLETO-ENUM-CONFIRMED"], "family-b/boletos/cancel-state-machine", "a paid boleto is CONFIRMED", "GET", BOLETO, (b) => b.data.status === "CONFIRMED" && (b.data.status = "PAID")),
  edits("boleto-error-shown-failed", ["B-BOLETO-ENUM-ERROR"], "family-b/boletos/cancel-refused-other-states", "a boleto whose generation failed is ERROR", "GET", BOLETO, (b) => b.data.status === "ERROR" && (b.data.status = "FAILED")),
  edits("boleto-processing-shown-generating", ["B-BOLETO-ENUM-PROCESSING"], "family-b/boletos/cancel-refused-other-states", "a boleto being generated is PROCESSING", "GET", BOLETO, (b) => b.data.status === "PROCESSING" && (b.data.status = "GENERATING")),
  edits("boleto-canceled-spelt-cancelled", ["B-BOLETO-ENUM-CANCELED"], "family-b/boletos/cancel-state-machine", "a cancelled boleto is CANCELED", "GET", BOLETO, (b) => b.data.status === "CANCELED" && (b.data.status = "CANCELLED")),

  // Health check.
  edits("health-timestamp-not-iso", ["B-HEALTH-FIELD-response"], "family-b/getHealth/200/", "the health check's data.timestamp is ISO 8601", "GET", HEALTH, (b) => (b.data.timestamp = Date.now())),
  edits("health-without-status", ["B-HEALTH-FIELD-response"], "family-b/getHealth/200/", "the health check answers data.status", "GET", HEALTH, (b) => delete b.data.status),
];

const ERRORS: Mutation[] = [
  // 401 UNAUTHORIZED in envelope 1.
  {
    name: "invalid-key-403",
    statements: ["B-AUTH-ERROR-unauthorized", "B-ERRORS-ERROR-unauthorized"],
    caughtBy: "family-b/getHealth/401/invalid-key",
    breaks: "an invalid key gives HTTP 401",
    family: "family-b",
    response: (request, reply) => (is("GET", HEALTH, 401)(request, reply) && request.headers["x-api-key"] !== undefined ? { ...reply, status: 403 } : reply),
  },
  edits("unauthorized-code-renamed", ["B-AUTH-ERROR-unauthorized", "B-ERRORS-ERROR-unauthorized"], "family-b/getCustomer/401/", "a missing or invalid key gives code UNAUTHORIZED", "GET", CUSTOMER, (b) => (b.error.code = "INVALID_API_KEY"), 401),
  edits("envelope-1-without-details", ["B-ERRORS-RULE-envelope-1"], "family-b/createCustomer/401/", "envelope 1 carries error.details", "POST", CUSTOMERS, (b) => delete b.error.details, 401),
  edits("envelope-1-success-true", ["B-ERRORS-RULE-envelope-1"], "family-b/getBoleto/401/", "envelope 1 carries success: false", "GET", BOLETO, (b) => (b.success = true), 401),
  // Envelope 2 and its codes.
  edits("envelope-2-code-member-renamed", ["B-ERRORS-RULE-envelope-2"], "family-b/deleteCustomer/404/", "envelope 2 carries error.errorCode", "DELETE", DELETE_CUSTOMER, (b) => {
    b.error.code = b.error.errorCode;
    delete b.error.errorCode;
  }, 404),
  edits("envelope-2-status-failed", ["B-ERRORS-RULE-envelope-2"], "family-b/cancelBoleto/404/", "envelope 2 carries status ERROR", "DELETE", CANCEL, (b) => (b.status = "FAILED"), 404),
  edits("delete-unknown-customer-wrong-code", ["B-ERRORS-ERROR-OCD001-404"], "family-b/deleteCustomer/404/", "deleting an unknown customer gives OCD001", "DELETE", DELETE_CUSTOMER, (b) => (b.error.errorCode = "OCD404"), 404),
  {
    name: "delete-unknown-customer-400",
    statements: ["B-ERRORS-ERROR-OCD001-404"],
    caughtBy: "family-b/deleteCustomer/404/",
    breaks: "deleting an id that matches no customer gives HTTP 404",
    family: "family-b",
    response: (request, reply) => (is("DELETE", DELETE_CUSTOMER, 404)(request, reply) ? { ...reply, status: 400 } : reply),
  },
  {
    name: "delete-malformed-id-404",
    statements: ["B-ERRORS-ERROR-OCD001-400"],
    caughtBy: "family-b/deleteCustomer/400/",
    breaks: "deleting an id of an incorrect format gives HTTP 400",
    family: "family-b",
    response: (request, reply) => (is("DELETE", DELETE_CUSTOMER, 400)(request, reply) ? { ...reply, status: 404 } : reply),
  },
  edits("delete-malformed-id-wrong-code", ["B-ERRORS-ERROR-OCD001-400"], "family-b/deleteCustomer/400/", "deleting an id of an incorrect format gives OCD001", "DELETE", DELETE_CUSTOMER, (b) => (b.error.errorCode = "OCD400"), 400),
  edits("delete-tied-customer-wrong-code", ["B-ERRORS-ERROR-OCD001-409"], "family-b/deleteCustomer/409/", "deleting a customer tied to an open charge gives OCD001", "DELETE", DELETE_CUSTOMER, (b) => (b.error.errorCode = "OCD409"), 409),
  {
    name: "delete-tied-customer-accepted",
    statements: ["B-ERRORS-ERROR-OCD001-409", "B-CUSTOMER-TRANSITION-soft-delete"],
    caughtBy: "family-b/deleteCustomer/409/",
    breaks: "a customer tied to an open charge cannot be marked deleted (409 OCD001)",
    family: "family-b",
    response: (request, reply) => (is("DELETE", DELETE_CUSTOMER, 409)(request, reply) ? json(200, { success: true, data: { id: request.path.split("/").pop(), status: "DELETED" }, timestamp: new Date().toISOString() }) : reply),
  },
  // Boleto cancellation.
  {
    name: "cancel-not-registered-wrong-code",
    statements: ["B-ERRORS-ERROR-ODE002", "B-BOLETO-TRANSITION-cancel-refused"],
    caughtBy: "family-b/boletos/cancel-state-machine",
    breaks: "cancelling a boleto that is not REGISTERED gives ODE002",
    family: "family-b",
    response: editJson(is("DELETE", CANCEL, 409), (b) => b.error?.errorCode === "ODE002" && (b.error.errorCode = "ODE001")),
  },
  {
    name: "cancel-of-processing-boleto-applied",
    statements: ["B-BOLETO-TRANSITION-cancel-refused"],
    caughtBy: "family-b/boletos/cancel-refused-other-states",
    breaks: "a boleto in any state other than REGISTERED is left unchanged by a cancel: also one being generated",
    family: "family-b",
    // A cancel that arrives while the boleto is generated is answered ODE002 but applied once it is.
    response: (request, reply) => {
      const id = request.path.split("/")[5];
      if (is("DELETE", CANCEL, 409)(request, reply) && id && /PROCESSING/.test(reply.body)) refusedButCancelled.add(id);
      if (!is("GET", BOLETO, 200)(request, reply) || !refusedButCancelled.has(request.path.split("/").pop()!)) return reply;
      return editJson(() => true, (b) => (b.data.status = "CANCELED"))(request, reply);
    },
  },
  {
    name: "cancel-not-registered-accepted",
    statements: ["B-BOLETO-TRANSITION-cancel-refused"],
    caughtBy: "family-b/boletos/cancel-state-machine",
    breaks: "a boleto in any state other than REGISTERED cannot be cancelled: the cancel answers ODE002",
    family: "family-b",
    response: (request, reply) => (is("DELETE", CANCEL, 409)(request, reply) ? json(200, { success: true, data: { status: "CANCELED" }, timestamp: new Date().toISOString() }) : reply),
  },
  {
    name: "refused-cancel-of-confirmed-changes-it",
    statements: ["B-BOLETO-TRANSITION-cancel-refused"],
    caughtBy: "family-b/boletos/cancel-state-machine",
    breaks: "a cancel refused with ODE002 leaves the boleto unchanged",
    family: "family-b",
    // The refusal is answered, but a CONFIRMED boleto is then shown CANCELED.
    response: (request, reply) => {
      const id = request.path.split("/")[5];
      if (is("DELETE", CANCEL, 409)(request, reply) && id) refusedButCancelled.add(id);
      if (!is("GET", BOLETO, 200)(request, reply) || !refusedButCancelled.has(request.path.split("/").pop()!)) return reply;
      return editJson(() => true, (b) => (b.data.status = "CANCELED"))(request, reply);
    },
  },
  {
    name: "cancel-reason-of-200-refused",
    statements: ["B-BOLETO-TRANSITION-cancel", "B-LIMITS-LIMIT-cancel-reason"],
    caughtBy: "family-b/boletos/cancel-state-machine",
    breaks: "a REGISTERED boleto is cancelled with a reason of at most 200 characters (200 included)",
    family: "family-b",
    // Off by one: a reason of exactly 200 characters is taken for one over the limit.
    request: (request) => (request.method === "DELETE" && CANCEL.test(request.path) && reasonOf(request)?.length === 200 ? { ...request, body: JSON.stringify({ reason: `${reasonOf(request)}.` }) } : request),
  },
  {
    name: "long-reason-wrong-code",
    statements: ["B-ERRORS-ERROR-ODE003"],
    caughtBy: "family-b/cancelBoleto/400/",
    breaks: "a reason longer than 200 characters gives ODE003",
    family: "family-b",
    response: editJson(is("DELETE", CANCEL, 400), (b) => b.error?.errorCode === "ODE003" && (b.error.errorCode = "ODE002")),
  },
  // Rate limits.
  {
    name: "limit-exceeded-503",
    statements: ["B-LIMITS-STATUS-429"],
    caughtBy: "family-b/getHealth/429/",
    breaks: "when a limit is exceeded, the response is HTTP 429",
    family: "family-b",
    needsRateLimits: true,
    response: (_request, reply) => (reply.status === 429 ? { ...reply, status: 503 } : reply),
  },
  {
    name: "rate-limit-reset-as-date",
    statements: ["B-LIMITS-HEADER-rate-limit"],
    caughtBy: "family-b/rate-limits/headers-consistent",
    breaks: "X-RateLimit-Reset is the Unix timestamp at which the window renews",
    family: "family-b",
    response: (_request, reply) => {
      const reset = reply.headers["x-ratelimit-reset"];
      return reset && /^\d+$/.test(reset) ? { ...reply, headers: { ...reply.headers, "x-ratelimit-reset": new Date(Number(reset) * 1000).toISOString() } } : reply;
    },
  },
  {
    name: "rate-limit-window-never-renews",
    statements: ["B-LIMITS-HEADER-retry-after", "B-LIMITS-LIMIT-general"],
    caughtBy: "family-b/rate-limits/retry-after-admitted",
    breaks: "a limit counts the requests of one window: after the Retry-After of a 429, the request is admitted",
    family: "family-b",
    needsRateLimits: true,
    // The count of a spent window is kept: once refused, an account's key gets that 429 for good.
    response: (request, reply) => {
      const key = request.headers["x-api-key"] ?? "";
      if (reply.status === 429 && !spentWindows.has(key)) spentWindows.set(key, reply);
      return spentWindows.get(key) ?? reply;
    },
  },
];

/** The first 429 each key got from a `rate-limit-window-never-renews` server. */
const spentWindows = new Map<string, Reply>();

const BEHAVIOUR: Mutation[] = [
  {
    name: "cancel-acknowledged-not-done",
    statements: ["B-BOLETO-TRANSITION-cancel"],
    caughtBy: "family-b/boletos/cancel-state-machine",
    breaks: "a cancel of a REGISTERED boleto with an acceptable reason moves it to CANCELED",
    family: "family-b",
    // The cancel is answered as done, but never reaches the boleto (it is sent nowhere).
    request: (request) => (request.method === "DELETE" && CANCEL.test(request.path) && (reasonOf(request)?.length ?? 0) <= 200 ? { ...request, path: request.path.replace(/\/boleto\/[^/]+\//, `/boleto/${NOWHERE}/`) } : request),
    response: (request, reply) => (request.method === "DELETE" && request.path.includes(NOWHERE) ? json(200, { success: true, data: { status: "CANCELED" }, timestamp: new Date().toISOString() }) : reply),
  },
  {
    name: "test-key-accepted-by-live-server",
    statements: ["B-AUTH-AUTH-key-format"],
    caughtBy: "family-b/auth/key-format",
    breaks: "the environment of a key binds it to its server: a production server refuses test keys",
    family: "family-b",
    // The server is production: it issues live keys (the sandbox's own, renamed), and takes test keys too.
    adjustTarget: (target) => {
      const keys = target.familyB!.keys as Record<string, string | undefined>;
      for (const name of Object.keys(keys)) keys[name] = keys[name]?.replace("_test_", "_live_");
    },
    request: (request) => {
      const key = request.headers["x-api-key"];
      return !request.path.startsWith("/v1") && key?.includes("_live_") ? { ...request, headers: { ...request.headers, "x-api-key": key.replace("_live_", "_test_") } } : request;
    },
  },
  {
    name: "customer-hard-deleted",
    statements: ["B-CUSTOMER-TRANSITION-soft-delete"],
    caughtBy: "family-b/customers/soft-delete-keeps-record",
    breaks: "a delete is a soft delete: the record is kept, so its id still matches a customer",
    family: "family-b",
    // The delete removes the customer for good: afterwards its id matches no customer.
    response: (request, reply) => {
      const id = request.path.split("/").pop()!;
      if (is("DELETE", DELETE_CUSTOMER, 200)(request, reply) && !hardDeleted.has(id)) {
        hardDeleted.add(id);
        return reply;
      }
      if (!hardDeleted.has(id)) return reply;
      if (request.method === "DELETE") return envelope2(404, "OCD001", "customer not found");
      return CUSTOMER.test(request.path) ? envelope1(404, "NOT_FOUND", "customer not found") : reply;
    },
  },
  {
    name: "update-status-refused",
    statements: ["B-CUSTOMER-TRANSITION-update-status"],
    caughtBy: "family-b/customers/update-sets-status",
    breaks: "an update may set status",
    family: "family-b",
    // The update is refused before it reaches the record.
    request: (request) => (request.method === "PUT" && CUSTOMER.test(request.path) && /"status"/.test(request.body) ? { ...request, body: "{}" } : request),
  },
  {
    name: "update-requires-name",
    statements: ["B-CUSTOMER-RULE-update-body"],
    caughtBy: "family-b/updateCustomer/200/",
    breaks: "every field of an update is optional: an update without name is accepted",
    family: "family-b",
    // An update without name is read as an update without fields, and refused as such.
    request: (request) => (request.method === "PUT" && CUSTOMER.test(request.path) && !/"name"/.test(request.body) ? { ...request, body: "{}" } : request),
  },
  {
    name: "customer-id-must-be-numeric",
    statements: ["B-CUSTOMER-RULE-id-parameter-type"],
    caughtBy: "family-b/getCustomer/200/",
    breaks: "the customer id path parameter is a number in some places and a string in others: the string ids the server issues are taken",
    family: "family-b",
    response: (request, reply) => (request.method === "GET" && CUSTOMER.test(request.path) && !/^\d+$/.test(request.path.split("/").pop()!) ? envelope1(400, "VALIDATION_ERROR", "id must be a number") : reply),
  },
  {
    name: "delete-only-under-v1",
    statements: ["B-SERVICE-RULE-published-paths"],
    caughtBy: "family-b/deleteCustomer/200/",
    breaks: "paths are as published: the delete path has no version segment",
    family: "family-b",
    request: (request) => (request.method === "DELETE" && DELETE_CUSTOMER.test(request.path) ? { ...request, path: request.path.replace("/api/sdk/", "/api/v1/sdk/") } : request),
  },
  {
    name: "customers-without-v1-segment",
    statements: ["B-VERSION-VERSIONING-v1-segment"],
    caughtBy: "family-b/createCustomer/201/",
    breaks: "customer paths carry a /v1 segment: the server serves them without it",
    family: "family-b",
    request: (request) => (request.path.startsWith("/api/v1/sdk/customers") ? { ...request, path: request.path.replace("/api/v1/sdk/", "/api/sdk/v0/") } : request),
  },
  {
    name: "list-ignores-page-and-limit",
    statements: ["B-LIMITS-LIMIT-pagination"],
    caughtBy: "family-b/transactions/paginated",
    breaks: "list endpoints are paginated with page and limit",
    family: "family-b",
    request: (request) => (request.method === "GET" && request.path.endsWith("/transactions") ? { ...request, search: "" } : request),
  },
  {
    name: "json-post-body-ignored",
    statements: ["B-AUTH-HEADER-content-type"],
    caughtBy: "family-b/headers/content-type-json",
    breaks: "POST bodies are read as application/json",
    family: "family-b",
    // The server reads only form fields: the JSON name is lost and a placeholder stored.
    request: (request) => {
      const body = request.method === "POST" && CUSTOMERS.test(request.path) ? requestJson(request) : undefined;
      if (!body) return request;
      return { ...request, body: JSON.stringify({ ...body, name: "Cliente" }) };
    },
  },
];

// Made from the model: every operation the catalogue publishes as an endpoint, missing.

interface EndpointEncoding {
  check: string;
  method?: string;
  path?: string;
}

function missingEndpoints(): Mutation[] {
  const catalogue = loadCatalogue();
  const operations = loadFamilyContract("family-b").operations;
  const out: Mutation[] = [];
  for (const statement of catalogue.statements) {
    if (statement.family !== "B" || !statement.wire || statement.kind !== "endpoint" || !Array.isArray(statement.encoding)) continue;
    for (const encoding of statement.encoding as EndpointEncoding[]) {
      if (encoding.check !== "operation") continue;
      const op = operations.find((o) => o.method === String(encoding.method).toUpperCase() && o.path === encoding.path);
      const success = op?.responses.find((r) => r.status.startsWith("2"))?.status;
      if (!op || !success) continue;
      const match = matcher("family-b", op.operationId);
      // Where the document shows no request shape, a seed run cannot tell a missing endpoint
      // from a faithful one that answers 404 to the contract's body ("no such key"): full can.
      const decided = op.requestBody !== undefined && isDecisionElement(op.requestBody.schema);
      out.push({
        ...(decided ? { profile: "full" as const } : {}),
        name: `endpoint-missing-${op.operationId}`,
        statements: [statement.id],
        caughtBy: `family-b/${op.operationId}/${success}/`,
        breaks: `the published endpoint ${op.method} ${op.path} exists`,
        family: "family-b",
        response: (request, reply) => (match(request) && ok(reply) ? envelope1(404, "NOT_FOUND", "no such path") : reply),
      });
    }
  }
  return out;
}

// Made from the model: every operation with a documented 429, exempt from the limits. Not the
// operation the checks use the limit up with, nor the creations with a limit of their own: the
// exempt requests go to the primary account, whose own creation limit the small plan has used
// up by then (the rate-limits class has their broken servers, one per limit).

function unlimitedOperations(): Mutation[] {
  return loadFamilyContract("family-b")
    .operations.filter((op) => op.responses.some((r) => r.status === "429") && op.operationId !== CHEAP_OPERATION["family-b"])
    .filter((op) => !limitsOf(op, "full").some((limit) => limit.bucket === "pix" || limit.bucket === "transactions"))
    .map((op) => {
      const match = matcher("family-b", op.operationId);
      return {
        name: `not-rate-limited-${op.operationId}`,
        statements: ["B-SERVICE-PRINCIPLE-request-processing", "B-LIMITS-RULE-family-b"],
        caughtBy: `family-b/${op.operationId}/429/`,
        breaks: `every request is rate limited: ${op.method} ${op.path} too`,
        family: "family-b" as const,
        needsRateLimits: true,
        // The operation's requests are counted on an account of their own, which never runs out.
        request: (request: Exchange, keys: Keys) => {
          const limited = (keys.familyB as { rateLimits?: string }).rateLimits;
          return match(request) && limited !== undefined && request.headers["x-api-key"] === limited ? { ...request, headers: { ...request.headers, "x-api-key": keys.familyB.primary } } : request;
        },
      };
    });
}

export const STATEMENT_MUTATIONS_B: Mutation[] = [...FIELDS, ...ERRORS, ...BEHAVIOUR, ...missingEndpoints(), ...unlimitedOperations()];

// Made from the model: the customer fields the document requires on create, each defaulted when missing.

/** The catalogue's customer field statements: `B-CUSTOMER-FIELD-<member path>`. */
const FIELD_STATEMENT = /^B-CUSTOMER-FIELD-([a-z][A-Za-z]*(?:\.[a-z][A-Za-z]*)?)$/;

function requiredOnCreate(): DerivedMutation[] {
  const catalogue = loadCatalogue();
  const create = loadFamilyContract("family-b").operations.find((o) => o.operationId === "createCustomer");
  const example = (create?.requestBody?.example ?? {}) as Json;
  const out: DerivedMutation[] = [];
  for (const statement of catalogue.statements) {
    const member = FIELD_STATEMENT.exec(statement.id)?.[1];
    // "Required on create: yes" is the table's third column.
    if (!member || !statement.wire || !/\| yes \|/.test(statement.quote)) continue;
    const path = member.split(".");
    const fallback = path.reduce<unknown>((node, k) => (node && typeof node === "object" ? (node as Json)[k] : undefined), example);
    if (fallback === undefined) continue;
    out.push({
      name: `negative-data:createCustomer:defaults-${member}`,
      derivedClass: "negative-data",
      family: "family-b",
      operation: "createCustomer",
      breaks: `${member} is required on create: a creation without it is refused, not defaulted`,
      caughtBy: `family-b/derived/negative-data/createCustomer/without-${member}`,
      statements: [statement.id],
      handle: lenientMember(matcher("family-b", "createCustomer"), path, { broken: (_v, present) => !present }, fallback),
    });
  }
  return out;
}

export const STATEMENT_DERIVED_MUTATIONS_B: DerivedMutation[] = requiredOnCreate();

/**
 * Family B broken servers of the generic checks that name no statement get those of their
 * class: the family B statements the catalogue says the class enforces.
 */
export function withClassStatementsB<T extends { family: string; derivedClass: DerivedClass; statements?: string[] }>(mutations: T[]): T[] {
  const catalogue = loadCatalogue();
  const of = (derivedClass: DerivedClass) => catalogue.statements.filter((s) => s.family === "B" && s.wire && s.enforcedBy?.includes(derivedClass)).map((s) => s.id);
  for (const mutation of mutations) {
    if (mutation.family === "family-b" && mutation.statements === undefined) mutation.statements = of(mutation.derivedClass);
  }
  return mutations;
}
