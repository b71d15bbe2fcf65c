/**
 * Sandbox controls (spec/sandbox-controls): what the published interface cannot do. They act
 * on the key's account only and answer with the resource as its family returns it.
 */
import type { components as FamilyB } from "../../../generated/types/family-b.ts";
import type { HandlerTable, RequestContext } from "../app.ts";
import { endToEndId } from "../domain/end-to-end-id.ts";
import { sdkError, success } from "../envelopes.ts";
import type { StoredRecord } from "../store/types.ts";
import { boletoRecord, buildBoleto, withStatus, type BoletoCharge, type BoletoStatus } from "./boletos.ts";
import { chargeView, type Charge } from "./charges.ts";
import { pixChargeView, type PixCharge } from "./pix.ts";
import { OPEN_TRANSACTION_STATUSES } from "./customers.ts";
import type { Transaction } from "./transactions.ts";

/** Payer recorded on a charge paid through the control when the charge named none. */
const SANDBOX_PAYER = { name: "Pagador Sandbox da Silva", document: "47437751089" };
/** Earliest due date with a FEBRABAN due-date factor (factor 0001). */
const FIRST_DUE_DATE = "1997-10-08";
const DEFAULT_BOLETO_AMOUNT = 150;
const DEFAULT_DUE_DAYS = 30;
/**
 * Latest time an account's clock may be advanced to: RFC 3339 writes years up to 9999, and a
 * year of margin keeps the clock (which keeps running) and the dates computed from it (expiry,
 * due dates, retention) within that.
 */
export const LATEST_ACCOUNT_TIME_MS = Date.UTC(9999, 0, 1);

function controlError(status: number, code: "VALIDATION_ERROR" | "NOT_FOUND" | "INVALID_STATE" | "INSUFFICIENT_SCOPE", message: string, details: string) {
  return sdkError(status, code, message, details);
}

/**
 * The webhook secrets sign what the merchant's receivers trust: reading or rotating them needs
 * `merchant:read` (the scope of the merchant's own settings), like `GET /v1/merchant`.
 */
function secretScopeCheck(ctx: Pick<RequestContext, "key">) {
  if (ctx.key.scopes.includes("merchant:read")) return undefined;
  return controlError(403, "INSUFFICIENT_SCOPE", "Insufficient scope.", "Reading or rotating the webhook signing secrets requires the scope merchant:read.");
}

const notFound = (what: string) => controlError(404, "NOT_FOUND", "Resource not found.", `${what} in this account.`);

async function clockReply(ctx: RequestContext, offsetMs: number) {
  const now = new Date(ctx.app.baseNow().getTime() + offsetMs);
  return { status: 200, body: { now: now.toISOString(), offsetSeconds: Math.floor(offsetMs / 1000) } };
}

function asData<T>(value: T): Record<string, unknown> {
  return value as unknown as Record<string, unknown>;
}

export const controlHandlers: HandlerTable = {
  createBoletoFixture: {
    async handle(ctx) {
      const body = ctx.body as { status: BoletoStatus; amount?: number; duedate?: string; withPix?: boolean };
      const amount = body.amount ?? DEFAULT_BOLETO_AMOUNT;
      const duedate = body.duedate ?? new Date(ctx.now.getTime() + DEFAULT_DUE_DAYS * 86_400_000).toISOString().slice(0, 10);
      if (duedate < FIRST_DUE_DATE) {
        return controlError(400, "VALIDATION_ERROR", "The request is invalid.", `body/duedate: boletos are due on ${FIRST_DUE_DATE} or later`);
      }
      const boleto = buildBoleto(ctx.account, { status: body.status, amount, duedate, withPix: body.withPix ?? false });
      await ctx.app.store.create({ record: boletoRecord(ctx, boleto) });
      return success(201, boleto, ctx.now);
    },
  },

  payChargeFixture: {
    async handle(ctx) {
      type Pay = { paid: false; status: Charge["status"] } | { paid: true; charge: Charge };
      const outcome = await ctx.app.store.update<Pay>("charge", ctx.account.id, ctx.params.id, (current) => {
        const charge = chargeView(current, ctx.now);
        if (charge.status !== "pending") return { result: { paid: false as const, status: charge.status } };
        const paid: Charge = {
          ...charge,
          status: "paid",
          payer: charge.payer ?? { ...SANDBOX_PAYER },
          pix: { ...charge.pix, end_to_end_id: endToEndId(ctx.now) },
          paid_at: ctx.now.toISOString(),
        };
        // The charge.paid event commits with the payment (durable outbox, decisions D24 to D26).
        const events = paid.webhook_url ? [ctx.app.webhooks.event(ctx.account, paid.webhook_url, "charge.paid", paid, ctx.now)] : [];
        return { next: { ...current, status: "paid", data: asData(paid) }, result: { paid: true as const, charge: paid }, events };
      });
      if (!outcome.found) return notFound(`No charge with id ${ctx.params.id}`);
      if (!outcome.result.paid) {
        return controlError(409, "INVALID_STATE", "The charge is not pending.", `Charge ${ctx.params.id} is ${outcome.result.status}; only a pending charge can be paid.`);
      }
      const charge = outcome.result.charge;
      if (charge.webhook_url) ctx.app.webhooks.wake();
      return { status: 200, body: charge };
    },
  },

  payPixChargeFixture: {
    async handle(ctx) {
      type Pay = { paid: false; status: PixCharge["status"] } | { paid: true; pix: PixCharge };
      const outcome = await ctx.app.store.update<Pay>("pix_charge", ctx.account.id, ctx.params.pixId, (current) => {
        const pix = pixChargeView(current, ctx.now);
        if (pix.status !== "ATIVA") return { result: { paid: false as const, status: pix.status } };
        const paid: PixCharge = { ...pix, status: "CONCLUIDA", paidAt: ctx.now.toISOString(), endToEndId: endToEndId(ctx.now) };
        return { next: { ...current, status: "CONCLUIDA", data: asData(paid) }, result: { paid: true as const, pix: paid } };
      });
      if (!outcome.found) return notFound(`No PIX charge with id ${ctx.params.pixId}`);
      if (!outcome.result.paid) {
        return controlError(409, "INVALID_STATE", "The PIX charge is not active.", `PIX charge ${ctx.params.pixId} is ${outcome.result.status}; only an ATIVA charge can be paid.`);
      }
      return success(200, outcome.result.pix, ctx.now);
    },
  },

  payBoletoFixture: {
    async handle(ctx) {
      type Pay = { paid: false; status: BoletoStatus } | { paid: true; boleto: BoletoCharge };
      const endpoint = await ctx.app.webhooks.endpoint(ctx.account.id);
      const outcome = await ctx.app.store.update<Pay>("boleto", ctx.account.id, ctx.params.boletoId, (current) => {
        const boleto = current.data as unknown as BoletoCharge;
        if (boleto.status !== "REGISTERED") return { result: { paid: false as const, status: boleto.status } };
        const paid = withStatus(boleto, "CONFIRMED", boleto.amount);
        // The boleto.paid event commits with the payment (durable outbox, decisions D24 to D26).
        const events = endpoint ? [ctx.app.webhooks.event(ctx.account, endpoint, "boleto.paid", paid, ctx.now)] : [];
        return { next: { ...current, status: "CONFIRMED", data: asData(paid) }, result: { paid: true as const, boleto: paid }, events };
      });
      if (!outcome.found) return notFound(`No boleto with id ${ctx.params.boletoId}`);
      if (!outcome.result.paid) {
        return controlError(409, "INVALID_STATE", "The boleto is not REGISTERED.", `Boleto ${ctx.params.boletoId} is ${outcome.result.status}; only a REGISTERED boleto can be paid.`);
      }
      if (endpoint) ctx.app.webhooks.wake();
      return success(200, outcome.result.boleto, ctx.now);
    },
  },

  setTransactionStatusFixture: {
    async handle(ctx) {
      const { status } = ctx.body as { status: FamilyB["schemas"]["TransactionStatus"] };
      // Invariant: a PENDING or PROCESSING transaction never names a deleted customer (the
      // customer delete refuses while one exists, 409 OCD001); the control keeps it too. The
      // customer is read in the update's transaction, so no delete slips between check and write.
      const opens = (OPEN_TRANSACTION_STATUSES as readonly string[]).includes(status);
      const customerOf = (record: StoredRecord) => (record.data as unknown as Transaction).customerId;
      type Outcome = { deletedCustomer: string } | { transaction: Transaction };
      const outcome = await ctx.app.store.update<Outcome>(
        "transaction",
        ctx.account.id,
        ctx.params.transactionId,
        (current: StoredRecord, _referencing, customer) => {
          if (customer?.status === "DELETED") return { result: { deletedCustomer: customer.id } };
          const next: Transaction = { ...(current.data as unknown as Transaction), status, updatedAt: ctx.now.toISOString() };
          return { next: { ...current, status, data: asData(next) }, result: { transaction: next } };
        },
        { related: (current) => (opens && customerOf(current) ? { kind: "customer", id: customerOf(current)! } : undefined) },
      );
      if (!outcome.found) return notFound(`No transaction with id ${ctx.params.transactionId}`);
      if ("deletedCustomer" in outcome.result) {
        return controlError(409, "INVALID_STATE", "The transaction's customer is deleted.", `Transaction ${ctx.params.transactionId} names the deleted customer ${outcome.result.deletedCustomer}; it cannot become ${status}.`);
      }
      return success(200, outcome.result.transaction, ctx.now);
    },
  },

  getClockFixture: {
    async handle(ctx) {
      return clockReply(ctx, await ctx.app.store.clockOffset(ctx.account.id));
    },
  },

  advanceClockFixture: {
    async handle(ctx) {
      const { seconds } = ctx.body as { seconds: number };
      const maxOffsetMs = LATEST_ACCOUNT_TIME_MS - ctx.app.baseNow().getTime();
      const offset = await ctx.app.store.advanceClock(ctx.account.id, seconds * 1000, maxOffsetMs);
      if (offset === null) {
        const detail = `body/seconds: the account's clock cannot pass ${new Date(LATEST_ACCOUNT_TIME_MS).toISOString()} (RFC 3339 writes years up to 9999); the clock was not moved.`;
        return controlError(400, "VALIDATION_ERROR", "The request is invalid.", detail);
      }
      // Retries the advance made due are sent now (the schedule runs on the account's clock).
      ctx.app.webhooks.wake();
      return clockReply(ctx, offset);
    },
  },

  getWebhookSecretsFixture: {
    precheck: secretScopeCheck,
    async handle(ctx) {
      const { secrets, previousUntilMs } = await ctx.app.webhooks.signingSecrets(ctx.account.id);
      return { status: 200, body: { secrets, previousUntil: previousUntilMs === null ? null : new Date(previousUntilMs).toISOString() } };
    },
  },

  rotateWebhookSecretFixture: {
    precheck: secretScopeCheck,
    async handle(ctx) {
      const { current, previous, previousUntilMs } = await ctx.app.webhooks.rotateSecret(ctx.account.id);
      return { status: 200, body: { current, previous, previousUntil: new Date(previousUntilMs).toISOString() } };
    },
  },

  getWebhookEndpointFixture: {
    async handle(ctx) {
      return { status: 200, body: { url: await ctx.app.webhooks.endpoint(ctx.account.id) } };
    },
  },

  listWebhookDeliveriesFixture: {
    async handle(ctx) {
      const page = ctx.query.page as number;
      const limit = ctx.query.limit as number;
      const offset = (page - 1) * limit;
      if (!Number.isSafeInteger(offset)) return controlError(400, "VALIDATION_ERROR", "The request is invalid.", "query page: too large");
      const { items, total } = await ctx.app.store.outboxDeliveries(ctx.account.id, offset, limit);
      const iso = (ms: number) => new Date(ms).toISOString();
      return {
        status: 200,
        body: {
          items: items.map((event) => ({
            id: event.id,
            type: event.type,
            url: event.url,
            state: event.state,
            createdAt: iso(event.createdMs),
            nextAttemptAt: event.state === "pending" ? iso(event.nextAttemptMs) : null,
            attempts: event.attemptLog.map((a) => ({
              attempt: a.attempt,
              startedAt: iso(a.startedMs),
              endedAt: iso(a.endedMs),
              instance: a.instance,
              outcome: a.outcome,
              error: a.error,
              nextAttemptAt: a.nextAttemptMs === null ? null : iso(a.nextAttemptMs),
            })),
          })),
          page,
          limit,
          total,
          totalPages: Math.ceil(total / limit),
        },
      };
    },
  },

  setWebhookEndpointFixture: {
    async handle(ctx) {
      const { url } = ctx.body as { url: string | null };
      // The checks of a charge's webhook_url: scheme, length, credentials, non-public targets.
      const problem = url === null ? null : ctx.app.webhooks.urlProblem(url);
      if (problem) return controlError(400, "VALIDATION_ERROR", "The request is invalid.", `body/url: ${problem}`);
      await ctx.app.webhooks.setEndpoint(ctx.account.id, url);
      return { status: 200, body: { url } };
    },
  },
};
