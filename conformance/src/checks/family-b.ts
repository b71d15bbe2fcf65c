/**
 * Family B response checks: for every documented response of every operation, the request
 * that makes a real server answer it. The first check of a response runs as its Dredd
 * transaction, the others as probes.
 */
import { randomUUID } from "node:crypto";
import {
  customer,
  customerBody,
  customerWithOpenCharge,
  exampleBody,
  newCustomer,
  pixCharge,
  queriedPixKey,
  transaction,
} from "./provisioning.ts";
import { idempotencyConflictChecks } from "./idempotency.ts";
import { rateLimitedCheck, type ResponseCheck } from "./response-check.ts";
import { NotApplicable, type FamilyContext, type KeyChoice, type RequestOptions } from "../core/check-context.ts";

const family = "b" as const;

/** Checks that a key is refused: an invalid key (the Dredd transaction) and no key at all. */
function unauthorized(operationId: string, request: (ctx: FamilyContext, key: KeyChoice) => Promise<RequestOptions>): ResponseCheck[] {
  return (["invalid", "none"] as const).map((key) => ({
    family,
    operationId,
    status: "401",
    variant: key === "invalid" ? "invalid-key" : "missing-key",
    title: key === "invalid" ? "a key no server issued" : "no X-API-Key header",
    errorCode: "UNAUTHORIZED",
    request: (ctx) => request(ctx, key),
  }));
}

/** The 429 of an operation, once the account's limit is used up (see the exhaust stage). */
function rateLimited(operationId: string, request: (ctx: FamilyContext) => Promise<RequestOptions>): ResponseCheck {
  return rateLimitedCheck(family, operationId, request);
}

/** An id no resource has, in the contract's id format (UUID). */
const unknownId = () => randomUUID();

/** Headers of a POST that may carry X-Idempotency-Key (recommended by the document). */
const withIdempotencyKey = (ctx: FamilyContext) => ({ "X-Idempotency-Key": ctx.idempotencyKey() });

/**
 * The id of a customer that does not exist. Under seed it must come from the target: what a
 * well-formed id looks like is the server's own (decision D30 makes it a UUID).
 */
function unknownCustomerId(ctx: FamilyContext, forDelete: boolean): string {
  const fixture = ctx.b?.fixtures.unknownCustomerId;
  if (fixture) return fixture;
  if (forDelete && ctx.profile === "seed") {
    throw new NotApplicable("the target names no familyB.fixtures.unknownCustomerId (what a well-formed customer id is, is the server's own)");
  }
  return unknownId();
}

/** A boleto the target names, for reading (reading changes nothing). */
function anyBoleto(ctx: FamilyContext): string {
  const fixtures = ctx.b?.fixtures;
  const id = fixtures?.registeredBoletoIds[0] ?? fixtures?.confirmedBoletoId;
  if (!id) throw new NotApplicable("the target names no boleto (familyB.fixtures.registeredBoletoIds or confirmedBoletoId)");
  return id;
}

const REASON_LIMIT = 200;

/** The contract's transaction example without its customer (which does not exist on the server). */
function transactionBody(ctx: FamilyContext): Record<string, unknown> {
  const body = exampleBody(ctx, "createTransaction");
  delete body.customerId;
  return body;
}

export const FAMILY_B_CHECKS: ResponseCheck[] = [
  // GET /sdk/status/health
  { family, operationId: "getHealth", status: "200", variant: "primary-key", title: "the primary key", request: async () => ({}) },
  ...unauthorized("getHealth", async (_ctx, key) => ({ key })),
  rateLimited("getHealth", async () => ({})),

  // POST /api/v1/sdk/customers
  {
    family,
    operationId: "createCustomer",
    status: "201",
    variant: "all-fields",
    title: "the contract's example with a fresh CPF and e-mail",
    request: async (ctx) => ({ body: customerBody(ctx) }),
  },
  {
    family,
    operationId: "createCustomer",
    status: "400",
    variant: "missing-name",
    title: "a customer without the required name",
    request: async (ctx) => {
      const body = customerBody(ctx);
      delete body.name;
      return { body };
    },
  },
  {
    family,
    operationId: "createCustomer",
    status: "400",
    variant: "missing-phoneNumber",
    title: "a customer without the required phoneNumber",
    request: async (ctx) => {
      const body = customerBody(ctx);
      delete body.phoneNumber;
      return { body };
    },
  },
  ...unauthorized("createCustomer", async (ctx, key) => ({ key, body: customerBody(ctx) })),
  rateLimited("createCustomer", async (ctx) => ({ body: customerBody(ctx) })),

  // GET /api/v1/sdk/customers/{id}
  {
    family,
    operationId: "getCustomer",
    status: "200",
    variant: "created-customer",
    title: "a customer created by this run",
    request: async (ctx) => ({ params: { id: await customer(ctx) } }),
  },
  ...unauthorized("getCustomer", async (ctx, key) => ({ key, params: { id: unknownId() } })),
  {
    family,
    operationId: "getCustomer",
    status: "404",
    variant: "unknown-id",
    title: "an id no customer has",
    request: async (ctx) => ({ params: { id: unknownCustomerId(ctx, false) } }),
  },
  rateLimited("getCustomer", async () => ({ params: { id: unknownId() } })),

  // PUT /api/v1/sdk/customers/{id}
  {
    family,
    operationId: "updateCustomer",
    status: "200",
    variant: "notes",
    title: "new notes for a customer created by this run",
    request: async (ctx) => ({ params: { id: await customer(ctx) }, body: { notes: `updated by conformance run ${ctx.runId}` } }),
  },
  {
    family,
    operationId: "updateCustomer",
    status: "400",
    variant: "no-field",
    title: "an update with no field (at least one is required)",
    request: async (ctx) => ({ params: { id: await customer(ctx) }, body: {} }),
  },
  ...unauthorized("updateCustomer", async (_ctx, key) => ({ key, params: { id: unknownId() }, body: { notes: "x" } })),
  {
    family,
    operationId: "updateCustomer",
    status: "404",
    variant: "unknown-id",
    title: "an id no customer has",
    request: async (ctx) => ({ params: { id: unknownCustomerId(ctx, false) }, body: { notes: "x" } }),
  },
  rateLimited("updateCustomer", async () => ({ params: { id: unknownId() }, body: { notes: "x" } })),

  // DELETE /api/sdk/customers/{id}
  {
    family,
    operationId: "deleteCustomer",
    status: "200",
    variant: "new-customer",
    title: "a customer created for the purpose",
    request: async (ctx) => ({ params: { id: await newCustomer(ctx) } }),
  },
  {
    family,
    operationId: "deleteCustomer",
    status: "400",
    variant: "malformed-id",
    title: "an id of an incorrect format",
    errorCode: "OCD001",
    request: async (ctx) => {
      const fixture = ctx.b?.fixtures.malformedCustomerId;
      if (fixture) return { params: { id: fixture } };
      if (ctx.profile === "seed") {
        throw new NotApplicable("the target names no familyB.fixtures.malformedCustomerId (what a malformed id is, is the server's own)");
      }
      return { params: { id: "not-a-customer-id" } };
    },
  },
  ...unauthorized("deleteCustomer", async (_ctx, key) => ({ key, params: { id: unknownId() } })),
  {
    family,
    operationId: "deleteCustomer",
    status: "404",
    variant: "unknown-id",
    title: "a well-formed id no customer has",
    errorCode: "OCD001",
    request: async (ctx) => ({ params: { id: unknownCustomerId(ctx, true) } }),
  },
  {
    family,
    operationId: "deleteCustomer",
    status: "409",
    variant: "open-charge",
    title: "a customer tied to an open charge",
    errorCode: "OCD001",
    // The catalogue marks this statement as not observable; with a customer tied to an open
    // charge (the document's example of an internal rule) it is.
    statements: ["B-ERRORS-ERROR-OCD001-409"],
    request: async (ctx) => ({ params: { id: await customerWithOpenCharge(ctx) } }),
  },
  rateLimited("deleteCustomer", async () => ({ params: { id: unknownId() } })),

  // GET /sdk/boleto/{boletoId}
  {
    family,
    operationId: "getBoleto",
    status: "200",
    variant: "fixture-boleto",
    title: "a boleto the target names",
    request: async (ctx) => ({ params: { boletoId: anyBoleto(ctx) } }),
  },
  {
    family,
    operationId: "getBoleto",
    status: "400",
    variant: "internal-error",
    title: "an internal error during the call (OBE001)",
    errorCode: "OBE001",
    unreachable: "OBE001 reports an internal error of the server; no client request can provoke it",
    request: async () => ({}),
  },
  ...unauthorized("getBoleto", async (_ctx, key) => ({ key, params: { boletoId: unknownId() } })),
  {
    family,
    operationId: "getBoleto",
    status: "404",
    variant: "unknown-id",
    title: "an id no boleto has",
    request: async () => ({ params: { boletoId: unknownId() } }),
  },
  rateLimited("getBoleto", async () => ({ params: { boletoId: unknownId() } })),

  // DELETE /api/v1/sdk/boleto/{boletoId}/cancel
  {
    family,
    operationId: "cancelBoleto",
    status: "200",
    variant: "registered-boleto",
    title: "a REGISTERED boleto with a reason of 200 characters",
    // The document's limit is inclusive: a reason of exactly 200 characters is accepted.
    request: async (ctx) => {
      const boletoId = ctx.takeRegisteredBoleto();
      ctx.notes.set("boleto-to-cancel", boletoId);
      return { params: { boletoId }, body: { reason: "r".repeat(REASON_LIMIT) } };
    },
    after: (ctx) => ctx.notes.set("canceled-boleto", ctx.notes.get("boleto-to-cancel") ?? ""),
  },
  {
    family,
    operationId: "cancelBoleto",
    status: "400",
    variant: "reason-too-long",
    title: "a reason of 201 characters on a REGISTERED boleto",
    errorCode: "ODE003",
    // Before the boleto is canceled by the 200 check: the refusal must leave it REGISTERED.
    order: -1,
    request: async (ctx) => ({ params: { boletoId: ctx.peekRegisteredBoleto() }, body: { reason: "r".repeat(REASON_LIMIT + 1) } }),
  },
  ...unauthorized("cancelBoleto", async (_ctx, key) => ({ key, params: { boletoId: unknownId() }, body: { reason: "x" } })),
  {
    family,
    operationId: "cancelBoleto",
    status: "404",
    variant: "unknown-id",
    title: "an id no boleto has",
    errorCode: "ODE001",
    request: async (ctx) => ({ params: { boletoId: unknownId() }, body: exampleBody(ctx, "cancelBoleto") }),
  },
  {
    family,
    operationId: "cancelBoleto",
    status: "409",
    variant: "not-registered",
    title: "a boleto that is not REGISTERED",
    errorCode: "ODE002",
    // After the 200 check, whose canceled boleto it may use.
    order: 1,
    request: async (ctx) => ({ params: { boletoId: await notRegisteredBoleto(ctx) }, body: exampleBody(ctx, "cancelBoleto") }),
  },
  rateLimited("cancelBoleto", async (ctx) => ({ params: { boletoId: unknownId() }, body: exampleBody(ctx, "cancelBoleto") })),

  // POST /pix
  {
    family,
    operationId: "createPixCharge",
    status: "201",
    variant: "example",
    title: "the contract's example",
    request: async (ctx) => ({ body: exampleBody(ctx, "createPixCharge"), headers: withIdempotencyKey(ctx) }),
  },
  {
    family,
    operationId: "createPixCharge",
    status: "400",
    variant: "no-amount",
    title: "a PIX charge without amount",
    request: async (ctx) => ({ body: {}, headers: withIdempotencyKey(ctx) }),
  },
  ...unauthorized("createPixCharge", async (ctx, key) => ({ key, body: exampleBody(ctx, "createPixCharge") })),
  ...idempotencyConflictChecks({
    family,
    operationId: "createPixCharge",
    header: "X-Idempotency-Key",
    decision: "D36",
    request: async (ctx, key) => ({ body: exampleBody(ctx, "createPixCharge"), headers: { "X-Idempotency-Key": key } }),
  }),
  rateLimited("createPixCharge", async (ctx) => ({ body: exampleBody(ctx, "createPixCharge") })),

  // GET /pix/{pixId}/qrcode and GET /pix/{pixId}
  ...(["getPixQrCode", "getPixCharge"] as const).flatMap((operationId): ResponseCheck[] => [
    {
      family,
      operationId,
      status: "200",
      variant: "created-pix-charge",
      title: "a PIX charge created by this run",
      request: async (ctx) => ({ params: { pixId: await pixCharge(ctx) } }),
    },
    ...unauthorized(operationId, async (_ctx, key) => ({ key, params: { pixId: unknownId() } })),
    {
      family,
      operationId,
      status: "404",
      variant: "unknown-id",
      title: "an id no PIX charge has",
      request: async () => ({ params: { pixId: unknownId() } }),
    },
    rateLimited(operationId, async () => ({ params: { pixId: unknownId() } })),
  ]),

  // POST /pix/query
  {
    family,
    operationId: "queryPixKey",
    status: "200",
    variant: "example-key",
    title: "the contract's example key",
    request: async (ctx) => ({ body: exampleBody(ctx, "queryPixKey") }),
  },
  {
    family,
    operationId: "queryPixKey",
    status: "400",
    variant: "no-key",
    title: "a query without key",
    profile: "full",
    decision: "D14",
    request: async () => ({ body: {} }),
  },
  ...unauthorized("queryPixKey", async (ctx, key) => ({ key, body: exampleBody(ctx, "queryPixKey") })),
  {
    family,
    operationId: "queryPixKey",
    status: "404",
    variant: "unknown-key",
    title: "a PIX key nobody holds",
    profile: "full",
    decision: "D14",
    request: async (ctx) => ({ body: { key: `nobody-${ctx.runId}@example.invalid` } }),
  },
  rateLimited("queryPixKey", async (ctx) => ({ body: exampleBody(ctx, "queryPixKey") })),

  // POST /pix/payment
  {
    family,
    operationId: "createPixPayment",
    status: "201",
    variant: "queried-key",
    title: "a payment of the key queried by this run",
    request: async (ctx) => ({
      body: { ...exampleBody(ctx, "createPixPayment"), endToEndId: await queriedPixKey(ctx) },
      headers: withIdempotencyKey(ctx),
    }),
  },
  {
    family,
    operationId: "createPixPayment",
    status: "400",
    variant: "no-amount",
    title: "a payment without amount",
    profile: "full",
    decision: "D14",
    request: async (ctx) => {
      const body = { ...exampleBody(ctx, "createPixPayment"), endToEndId: await queriedPixKey(ctx) };
      delete (body as Record<string, unknown>).amount;
      return { body, headers: withIdempotencyKey(ctx) };
    },
  },
  ...unauthorized("createPixPayment", async (ctx, key) => ({ key, body: exampleBody(ctx, "createPixPayment") })),
  {
    family,
    operationId: "createPixPayment",
    status: "404",
    variant: "unknown-end-to-end-id",
    title: "a payment of an EndToEndId no query returned",
    profile: "full",
    decision: "D14",
    request: async (ctx) => ({
      body: { ...exampleBody(ctx, "createPixPayment"), endToEndId: `E00000000${"2".repeat(12)}${ctx.runId.padEnd(11, "0").slice(0, 11)}` },
      headers: withIdempotencyKey(ctx),
    }),
  },
  ...idempotencyConflictChecks({
    family,
    operationId: "createPixPayment",
    header: "X-Idempotency-Key",
    decision: "D36",
    request: async (ctx, key) => ({ body: { ...exampleBody(ctx, "createPixPayment"), endToEndId: await queriedPixKey(ctx) }, headers: { "X-Idempotency-Key": key } }),
  }),
  rateLimited("createPixPayment", async (ctx) => ({ body: exampleBody(ctx, "createPixPayment") })),

  // POST /transactions
  {
    family,
    operationId: "createTransaction",
    status: "201",
    variant: "example",
    title: "the contract's example without a customer",
    request: async (ctx) => ({ body: transactionBody(ctx), headers: withIdempotencyKey(ctx) }),
  },
  {
    family,
    operationId: "createTransaction",
    status: "400",
    variant: "no-amount",
    title: "a transaction without amount",
    profile: "full",
    decision: "D15",
    request: async (ctx) => ({ body: {}, headers: withIdempotencyKey(ctx) }),
  },
  ...unauthorized("createTransaction", async (ctx, key) => ({ key, body: exampleBody(ctx, "createTransaction") })),
  ...idempotencyConflictChecks({
    family,
    operationId: "createTransaction",
    header: "X-Idempotency-Key",
    decision: "D36",
    request: async (ctx, key) => ({ body: transactionBody(ctx), headers: { "X-Idempotency-Key": key } }),
  }),
  rateLimited("createTransaction", async (ctx) => ({ body: exampleBody(ctx, "createTransaction") })),

  // GET /transactions/{transactionId} and /transactions/{transactionId}/status
  ...(["getTransaction", "getTransactionStatus"] as const).flatMap((operationId): ResponseCheck[] => [
    {
      family,
      operationId,
      status: "200",
      variant: "created-transaction",
      title: "a transaction created by this run",
      request: async (ctx) => ({ params: { transactionId: await transaction(ctx) } }),
    },
    ...unauthorized(operationId, async (_ctx, key) => ({ key, params: { transactionId: unknownId() } })),
    {
      family,
      operationId,
      status: "404",
      variant: "unknown-id",
      title: "an id no transaction has",
      request: async () => ({ params: { transactionId: unknownId() } }),
    },
    rateLimited(operationId, async () => ({ params: { transactionId: unknownId() } })),
  ]),

  // GET /transactions
  {
    family,
    operationId: "listTransactions",
    status: "200",
    variant: "first-page",
    title: "the first page (page and limit as the document names them)",
    request: async () => ({ query: { page: "1", limit: "20" } }),
  },
  {
    family,
    operationId: "listTransactions",
    status: "400",
    variant: "limit-above-maximum",
    title: "a page size above the maximum of 100",
    profile: "full",
    decision: "D28",
    request: async () => ({ query: { page: "1", limit: "101" } }),
  },
  ...unauthorized("listTransactions", async (_ctx, key) => ({ key })),
  rateLimited("listTransactions", async () => ({})),
];

/** A boleto that is not REGISTERED: the target's CONFIRMED one, or one this run canceled. */
async function notRegisteredBoleto(ctx: FamilyContext): Promise<string> {
  const confirmed = ctx.b?.fixtures.confirmedBoletoId;
  if (confirmed) return confirmed;
  const canceled = ctx.notes.get("canceled-boleto");
  if (canceled) return canceled;
  throw new NotApplicable("the target names no familyB.fixtures.confirmedBoletoId and this run canceled no boleto");
}
