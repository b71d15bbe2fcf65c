/**
 * Family A charges: `POST /v1/charges` (idempotent creation, D05, D07, D08) and
 * `GET /v1/charges/{id}` (D06). A charge is created `pending`; it becomes `paid` through the
 * payment control and `expired` once `expires_at` passes on the account's clock (D04).
 */
import { characterCount, headerText } from "../http/body.ts";
import type { components } from "../../../generated/types/family-a.ts";
import type { HandlerTable, RequestContext } from "../app.ts";
import { dynamicBrCode } from "../domain/brcode.ts";
import { chargeId, hex32 } from "../domain/ids.ts";
import { isoTimestamp } from "../domain/timestamps.ts";
import { problem } from "../envelopes.ts";
import { createIdempotently } from "../idempotency.ts";
import type { StoredRecord } from "../store/types.ts";

export type Charge = components["schemas"]["Charge"];
type ChargeCreateRequest = components["schemas"]["ChargeCreateRequest"];

const IDEMPOTENCY_HEADER = "Idempotency-Key";

/** The charge as it stands at `now`: a pending charge past its expiry is expired. */
export function chargeView(record: StoredRecord, now: Date): Charge {
  const charge = record.data as unknown as Charge;
  if (charge.status === "pending" && now.getTime() >= Date.parse(charge.expires_at)) return { ...charge, status: "expired" };
  return charge;
}

/** The key's shortest length, the contract's: at least 8 characters (the document). */
function minLength(ctx: Pick<RequestContext, "op">): number {
  // Stryker disable next-line ConditionalExpression: equivalent, the Idempotency-Key is createCharge's only parameter
  return Number(ctx.op.parameters.find((p) => p.name === IDEMPOTENCY_HEADER)!.schema.minLength);
}

export const chargeHandlers: HandlerTable = {
  createCharge: {
    // A key missing or too short is refused with the document's own code, before the key's
    // schema is read; one over its maximum (D08) breaks the schema: 400 VALIDATION_ERROR.
    precheck(ctx) {
      // Node joins a header sent more than once into one text.
      const sent = ctx.headers["idempotency-key"] as string | undefined;
      // Counted in characters (code points) of the UTF-8 text sent, not in bytes.
      const length = sent === undefined ? 0 : characterCount(headerText(sent));
      if (length < minLength(ctx)) {
        return problem(400, "IDEMPOTENCY_KEY_REQUIRED", `The ${IDEMPOTENCY_HEADER} header is mandatory and must have at least ${minLength(ctx)} characters.`);
      }
      return undefined;
    },
    async handle(ctx) {
      // The body passed the contract's schema (validation.ts): a payer's document is a CPF or a
      // CNPJ there (x-domain-format, D43), so nothing of it is checked twice here.
      const request = ctx.body as ChargeCreateRequest;
      if (request.webhook_url !== undefined) {
        // Scheme, length, and no loopback or private target unless the sandbox allows them (D26).
        const reason = ctx.app.webhooks.urlProblem(request.webhook_url);
        if (reason) return problem(400, "VALIDATION_ERROR", `body/webhook_url: ${reason}`);
      }
      // createCharge's body schema always declares expires_in with its default (D02).
      const expiresIn = request.expires_in ?? (ctx.op.body!.schema.properties as Record<string, { default: number }>).expires_in!.default;
      const createdMs = ctx.now.getTime();
      const txid = hex32();
      const charge: Charge = {
        id: chargeId(createdMs),
        object: "charge",
        status: "pending",
        amount: request.amount,
        currency: "BRL",
        method: "pix",
        reference: request.reference ?? null,
        payer: request.payer ? { name: request.payer.name, document: request.payer.document } : null,
        payer_request: request.payer ? { name: request.payer.name, document: request.payer.document } : null,
        pix: { br_code: dynamicBrCode(ctx.account.brCode, txid), txid, end_to_end_id: null },
        webhook_url: request.webhook_url ?? null,
        expires_at: isoTimestamp(createdMs + expiresIn * 1000),
        paid_at: null,
        created_at: isoTimestamp(createdMs),
      };
      const key = ctx.headers["idempotency-key"] as string;
      return createIdempotently(ctx, {
        key,
        record: { kind: "charge", accountId: ctx.account.id, id: charge.id, status: charge.status, customerId: null, uniqueKey: null, createdMs, data: charge },
        reply: { status: 201, body: charge },
      });
    },
  },

  getCharge: {
    async handle(ctx) {
      const record = await ctx.app.store.get("charge", ctx.account.id, ctx.params.id);
      if (!record) return problem(404, "NOT_FOUND", `No charge with id ${ctx.params.id}.`);
      return { status: 200, body: chargeView(record, ctx.now) };
    },
  },
};
