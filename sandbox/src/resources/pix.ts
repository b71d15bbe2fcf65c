/**
 * Family B PIX operations (decisions D11, D13, D14): PIX charges (create, read, QR code), the
 * lookup of a PIX key in the sandbox's directory, and the payment of a looked-up key with the
 * EndToEndId the lookup reserved. Creations honour `X-Idempotency-Key` (decision D36).
 */
import type { components } from "../../../generated/types/family-b.ts";
import type { HandlerTable, RequestContext } from "../app.ts";
import { dynamicBrCode } from "../domain/brcode.ts";
import { endToEndId } from "../domain/end-to-end-id.ts";
import { hex32, uuid } from "../domain/ids.ts";
import { isoTimestamp } from "../domain/timestamps.ts";
import { SANDBOX_DIRECTORY, type DirectoryEntry } from "../domain/pix-directory.ts";
import { keyTypeOf } from "../domain/pix-keys.ts";
import { qrCodePngBase64 } from "../domain/qrcode.ts";
import { sdkError, success } from "../envelopes.ts";
import { createIdempotently } from "../idempotency.ts";
import type { StoredRecord } from "../store/types.ts";

type Schemas = components["schemas"];
export type PixCharge = Schemas["PixCharge"];

export function idempotencyKeyOf(ctx: Pick<RequestContext, "headers">): string | undefined {
  const raw = ctx.headers["x-idempotency-key"];
  // Stryker disable next-line StringLiteral: Node joins a repeated X-Idempotency-Key into one string itself, so the array form is never met
  return Array.isArray(raw) ? raw.join(", ") : raw;
}

/** The PIX charge as it stands at `now`: an active charge past its expiry is removed by the PSP. */
export function pixChargeView(record: StoredRecord, now: Date): PixCharge {
  const pix = record.data as unknown as PixCharge;
  if (pix.status === "ATIVA" && now.getTime() >= Date.parse(pix.expiresAt)) return { ...pix, status: "REMOVIDA_PELO_PSP" };
  return pix;
}

function notFound(detail: string) {
  return sdkError(404, "NOT_FOUND", "Resource not found.", `${detail} in this account.`);
}

/** The directory: the contract's example key (from the queryPixKey example) and the sandbox's keys. */
function directory(ctx: RequestContext): Map<string, DirectoryEntry> {
  // Stryker disable next-line ArrayDeclaration: the sandbox's own directory (sandbox/README.md): no other server holds these keys, so no suite can query them (sandbox/test/pix-transactions.test.ts finds them)
  const entries = new Map(SANDBOX_DIRECTORY.map((e) => [e.key, e]));
  // The contract's queryPixKey always has its example request and its 200's owner and bank.
  const { key } = ctx.op.exampleRequest as { key: string };
  const { owner, bank } = (ctx.op.exampleResponses["200"] as { data: Pick<DirectoryEntry, "owner" | "bank"> }).data;
  return entries.set(key, { key, owner, bank });
}

async function findPixCharge(ctx: RequestContext): Promise<StoredRecord | undefined> {
  return ctx.app.store.get("pix_charge", ctx.account.id, ctx.params.pixId);
}

export const pixHandlers: HandlerTable = {
  createPixCharge: {
    async handle(ctx) {
      const body = ctx.body as Schemas["PixChargeCreateRequest"];
      const defaults = ctx.op.body?.schema.properties as Record<string, { default?: number }> | undefined;
      // Stryker disable next-line OptionalChaining: equivalent, createPixCharge's body schema always declares expiresIn with its default
      const expiresIn = body.expiresIn ?? defaults?.expiresIn?.default ?? 86400;
      const id = hex32();
      const createdMs = ctx.now.getTime();
      const pix: PixCharge = {
        id,
        txid: id,
        status: "ATIVA",
        amount: body.amount,
        description: body.description ?? null,
        brCode: dynamicBrCode(ctx.account.brCode, id),
        createdAt: isoTimestamp(createdMs),
        expiresAt: isoTimestamp(createdMs + expiresIn * 1000),
        paidAt: null,
        endToEndId: null,
      };
      return createIdempotently(ctx, {
        key: idempotencyKeyOf(ctx),
        record: { kind: "pix_charge", accountId: ctx.account.id, id, status: pix.status, customerId: null, uniqueKey: null, createdMs, data: pix },
        reply: success(201, pix, ctx.now),
      });
    },
  },

  getPixCharge: {
    async handle(ctx) {
      const found = await findPixCharge(ctx);
      if (!found) return notFound(`No PIX charge with id ${ctx.params.pixId}`);
      return success(200, pixChargeView(found, ctx.now), ctx.now);
    },
  },

  getPixQrCode: {
    async handle(ctx) {
      const found = await findPixCharge(ctx);
      if (!found) return notFound(`No PIX charge with id ${ctx.params.pixId}`);
      const pix = found.data as unknown as PixCharge;
      const qr: Schemas["PixQrCode"] = { pixId: pix.id, brCode: pix.brCode, mediaType: "image/png", image: await qrCodePngBase64(pix.brCode) };
      return success(200, qr, ctx.now);
    },
  },

  queryPixKey: {
    async handle(ctx) {
      // A malformed key (x-domain-format: pix-key) was refused with the other invalid bodies.
      const { key } = ctx.body as Schemas["PixKeyQueryRequest"];
      const entry = directory(ctx).get(key);
      if (!entry) return notFound(`No PIX key ${key} in the directory`);
      const info: Schemas["PixKeyInfo"] = { key, keyType: keyTypeOf(key), endToEndId: endToEndId(ctx.now), owner: entry.owner, bank: entry.bank };
      await ctx.app.store.create({
        record: {
          kind: "pix_lookup",
          accountId: ctx.account.id,
          id: info.endToEndId,
          // Stryker disable next-line StringLiteral: the lookup record's status column, which no operation selects by (a payment finds its lookup by id)
          status: "RESERVED",
          customerId: null,
          uniqueKey: null,
          createdMs: ctx.now.getTime(),
          data: info as unknown as Record<string, unknown>,
        },
      });
      return success(200, info, ctx.now);
    },
  },

  createPixPayment: {
    async handle(ctx) {
      const body = ctx.body as Schemas["PixPaymentRequest"];
      const lookup = await ctx.app.store.get("pix_lookup", ctx.account.id, body.endToEndId);
      if (!lookup) return notFound(`No PIX key lookup reserved the endToEndId ${body.endToEndId}`);
      const payment: Schemas["PixPayment"] = {
        id: uuid(),
        endToEndId: body.endToEndId,
        key: (lookup.data as unknown as Schemas["PixKeyInfo"]).key,
        amount: body.amount,
        status: "PROCESSING",
        description: body.description ?? null,
        createdAt: ctx.now.toISOString(),
      };
      // Decision D14 reserves the EndToEndId for paying the looked-up key and says nothing of
      // paying it more than once, so a reserved EndToEndId may pay again.
      return createIdempotently(ctx, {
        key: idempotencyKeyOf(ctx),
        record: {
          // Stryker disable next-line StringLiteral: no operation reads a PIX payment back (the contract publishes none): its record's kind only files it
          kind: "pix_payment",
          accountId: ctx.account.id,
          id: payment.id,
          status: payment.status,
          customerId: null,
          uniqueKey: null,
          createdMs: ctx.now.getTime(),
          data: payment as unknown as Record<string, unknown>,
        },
        reply: success(201, payment, ctx.now),
        requires: { kind: "pix_lookup", id: body.endToEndId },
        // Stryker disable next-line ArrowFunction: the lookup was found just above and no lookup is ever removed, so the requirement checked again in the creation's transaction always holds
        refused: () => notFound(`No PIX key lookup reserved the endToEndId ${body.endToEndId}`),
      });
    },
  },
};
