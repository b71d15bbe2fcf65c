/**
 * Family B transactions (decisions D12, D15, D28): creation (honouring `X-Idempotency-Key`,
 * D36), reading, quick status, and the list filtered by status and the half-open period
 * [startDate, endDate), newest first, paginated. A transaction's `customerId` must name a
 * customer of the same account that is not deleted; while the transaction is PENDING or
 * PROCESSING it ties that customer to an open charge (the customer cannot be deleted).
 */
import type { components } from "../../../generated/types/family-b.ts";
import type { HandlerTable } from "../app.ts";
import { uuid } from "../domain/ids.ts";
import { sdkError, success } from "../envelopes.ts";
import { createIdempotently } from "../idempotency.ts";
import { idempotencyKeyOf } from "./pix.ts";

type Schemas = components["schemas"];
export type Transaction = Schemas["Transaction"];

function invalid(details: string) {
  return sdkError(400, "VALIDATION_ERROR", "The request is invalid.", details);
}

function notFound(id: string) {
  return sdkError(404, "NOT_FOUND", "Resource not found.", `No transaction with id ${id} in this account.`);
}

export const transactionHandlers: HandlerTable = {
  createTransaction: {
    async handle(ctx) {
      const body = ctx.body as Schemas["TransactionCreateRequest"];
      const transaction: Transaction = {
        id: uuid(),
        amount: body.amount,
        currency: "BRL",
        status: "PENDING",
        description: body.description ?? null,
        customerId: body.customerId ?? null,
        externalReference: body.externalReference ?? null,
        createdAt: ctx.now.toISOString(),
        updatedAt: null,
      };
      return createIdempotently(ctx, {
        key: idempotencyKeyOf(ctx),
        record: {
          kind: "transaction",
          accountId: ctx.account.id,
          id: transaction.id,
          status: transaction.status,
          customerId: transaction.customerId,
          uniqueKey: null,
          createdMs: ctx.now.getTime(),
          data: transaction as unknown as Record<string, unknown>,
        },
        reply: success(201, transaction, ctx.now),
        requires: transaction.customerId ? { kind: "customer", id: transaction.customerId, statuses: ["ACTIVE", "INACTIVE"] } : undefined,
        refused: (outcome) =>
          invalid(
            outcome.kind === "precondition_failed" && outcome.found
              ? `body/customerId: customer ${transaction.customerId} is deleted`
              : `body/customerId: no customer ${transaction.customerId} in this account`,
          ),
      });
    },
  },

  getTransaction: {
    async handle(ctx) {
      const found = await ctx.app.store.get("transaction", ctx.account.id, ctx.params.transactionId);
      if (!found) return notFound(ctx.params.transactionId);
      return success(200, found.data, ctx.now);
    },
  },

  getTransactionStatus: {
    async handle(ctx) {
      const found = await ctx.app.store.get("transaction", ctx.account.id, ctx.params.transactionId);
      if (!found) return notFound(ctx.params.transactionId);
      const transaction = found.data as unknown as Transaction;
      const view: Schemas["TransactionStatusView"] = { id: transaction.id, status: transaction.status, updatedAt: transaction.updatedAt };
      return success(200, view, ctx.now);
    },
  },

  listTransactions: {
    async handle(ctx) {
      const { status, startDate, endDate } = ctx.query as { status?: string; startDate?: string; endDate?: string };
      const page = ctx.query.page as number;
      const limit = ctx.query.limit as number;
      const fromMs = startDate === undefined ? undefined : Date.parse(startDate);
      const toMs = endDate === undefined ? undefined : Date.parse(endDate);
      // The contract's date-time let through only what a Date reads, but for a leap second
      // (`23:59:60`, which RFC 3339 admits): no record's time can equal it, so it is refused
      // rather than shifted, and a filter bound is always exact (D39).
      if (Number.isNaN(fromMs) || Number.isNaN(toMs)) {
        return invalid("query startDate, endDate: a leap second (:60) is not a time the sandbox can compare; use :59 or the next minute");
      }
      // Within the contract's bounds (page at most 100000, D45; limit at most 100, D28).
      const offset = (page - 1) * limit;
      const { items, total } = await ctx.app.store.list("transaction", ctx.account.id, { status, fromMs, toMs, offset, limit });
      const body: Schemas["TransactionPage"] = {
        items: items.map((item) => item.data as unknown as Transaction),
        page,
        limit,
        total,
        totalPages: Math.ceil(total / limit),
      };
      return success(200, body, ctx.now);
    },
  },
};
