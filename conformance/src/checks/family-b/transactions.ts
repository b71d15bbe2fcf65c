/** Family B response checks of the transactions: create, read, read the status and list. */
import { idempotencyConflictChecks } from "../idempotency.ts";
import { exampleBody, transaction } from "../provisioning.ts";
import type { ResponseCheck } from "../response-check.ts";
import type { FamilyContext } from "../../core/check-context.ts";
import { parseJsonBody, type ObservedResponse } from "../../core/validate.ts";
import { isObject } from "@payment-collection/contract/model/index.ts";
import { family, rateLimited, unauthorized, unknownId, userAgentTooLong, withIdempotencyKey } from "./support.ts";

/** The contract's transaction example without its customer (which does not exist on the server). */
function transactionBody(ctx: FamilyContext): Record<string, unknown> {
  const body = exampleBody(ctx, "createTransaction");
  delete body.customerId;
  return body;
}

/**
 * The query parameters with a decided default (D28) that the reply's page object repeats with
 * another value: a request without them must get the contract's defaults.
 */
function defaultsNotShown(ctx: FamilyContext, operationId: string, response: ObservedResponse): string[] {
  const parsed = parseJsonBody(response.body);
  const body = parsed.ok ? parsed.value : undefined;
  const page = isObject(body) && isObject(body.data) ? body.data : isObject(body) ? body : {};
  return ctx
    .operation(operationId)
    .parameters.filter((p) => p.in === "query" && p.decided.some((d) => d.keywords.includes("default")) && p.name in page)
    .filter((p) => page[p.name] !== p.schema.default)
    .map((p) => `without ${p.name} the page shows ${p.name} ${JSON.stringify(page[p.name])}, the contract's default is ${JSON.stringify(p.schema.default)}`);
}

export const TRANSACTION_CHECKS: ResponseCheck[] = [
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
    ...unauthorized(operationId, async (ctx, key) => ({ key, params: { transactionId: unknownId(ctx) } })),
    userAgentTooLong(operationId, async (ctx) => ({ params: { transactionId: await transaction(ctx) } })),
    {
      family,
      operationId,
      status: "404",
      variant: "unknown-id",
      title: "an id no transaction has",
      request: async (ctx) => ({ params: { transactionId: unknownId(ctx) } }),
    },
    rateLimited(operationId, async (ctx) => ({ params: { transactionId: unknownId(ctx) } })),
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
  {
    family,
    operationId: "listTransactions",
    status: "200",
    variant: "default-page",
    title: "no page and no limit: the page the defaults give",
    profile: "full",
    decision: "D28",
    request: async () => ({}),
    assess: (ctx, response) => defaultsNotShown(ctx, "listTransactions", response),
  },
  ...unauthorized("listTransactions", async (_ctx, key) => ({ key })),
  rateLimited("listTransactions", async () => ({})),
];
