/**
 * Family B boletos: `GET /sdk/boleto/{boletoId}` and the cancellation
 * `DELETE /api/v1/sdk/boleto/{boletoId}/cancel` (REGISTERED -> CANCELED; otherwise ODE002 and
 * the boleto unchanged; ODE001 for an unknown id, ODE003 for a reason over 200 characters;
 * decisions D17, D18, D33); a cancellation sends `boleto.canceled` to the account's webhook
 * endpoint (D24). Boletos are created by the sandbox control (the published
 * interface has no creation), with valid FEBRABAN numbers (decision D34).
 */
import type { components } from "../../../generated/types/family-b.ts";
import type { HandlerTable, RequestContext } from "../app.ts";
import { boletoNumbers, checkDigitIsUnambiguous, itauFreeField, mod10 } from "../domain/boleto.ts";
import { dynamicBrCode } from "../domain/brcode.ts";
import { digits, hex32, uuid } from "../domain/ids.ts";
import { operationError, operationValidationError, success } from "../envelopes.ts";
import type { SandboxAccount } from "../keys.ts";
import type { StoredRecord } from "../store/types.ts";

export type BoletoCharge = components["schemas"]["BoletoCharge"];
export type BoletoStatus = components["schemas"]["BoletoStatus"];

/** The debtor written on sandbox boletos. */
const SANDBOX_DEBTOR: BoletoCharge["debtor"] = {
  // Stryker disable next-line StringLiteral: the content of a boleto the sandbox's control makes (the published interface has no boleto creation, D16): the contract gives the debtor's name no form, so any text is right (its document's check digits stay mutated)
  name: "Carla Nogueira Dias",
  document: "93013060425",
  // Stryker disable StringLiteral: the content of a boleto the sandbox's control makes (the published interface has no boleto creation, D16): the contract gives these members of the debtor no form, so any text is right
  postalCode: "01310100",
  publicArea: "Avenida Paulista",
  number: 1578,
  complement: "Conjunto 42",
  neighborhood: "Bela Vista",
  city: "São Paulo",
  state: "SP",
};
// Stryker restore StringLiteral

const BANK = { code: "341", name: "itau", carteira: "109" };

export interface NewBoleto {
  status: BoletoStatus;
  /** Reais, two decimals. */
  amount: number;
  /** `YYYY-MM-DD`. */
  duedate: string;
  withPix: boolean;
}

/** A boleto of the account with valid barcode, typed line and (optionally) PIX block. */
export function buildBoleto(account: SandboxAccount, input: NewBoleto): BoletoCharge {
  const id = uuid();
  const agency = account.receiver.agency;
  // Stryker disable next-line StringLiteral: equivalent, the sandbox's accounts (keys.ts) are five digits, a dash and a digit: whatever replaces the dash, the first five characters are the same digits, and none needs padding
  const accountNumber = account.receiver.account.replace(/\D/g, "").slice(0, 5).padStart(5, "0");
  const amountCents = Math.round(input.amount * 100);
  // A new "nosso numero" until the general check digit reads the same under every rule.
  let nossoNumero: string;
  let numbers: { barCode: string; bankLine: string };
  do {
    nossoNumero = digits(8);
    numbers = boletoNumbers({ bankCode: BANK.code, amountCents, dueDate: input.duedate, freeField: itauFreeField(BANK.carteira, nossoNumero, agency, accountNumber) });
  } while (
    // Stryker disable next-line ConditionalExpression,BooleanLiteral: a number whose general check digit the collection rule reads otherwise is still right by the bank rule, which D34 and D43 hold a boleto to; the loop only spares client validators that apply the other rule
    !checkDigitIsUnambiguous(numbers.barCode)
  );
  const pixTxid = hex32();
  return {
    transactionId: id,
    // Stryker disable next-line StringLiteral: the content of a boleto the sandbox's control makes (the published interface has no boleto creation, D16): the contract gives clientCode no form, so any text is right
    clientCode: `SANDBOX-${digits(6)}`,
    amount: input.amount,
    amountConfirmed: input.status === "CONFIRMED" ? input.amount : null,
    duedate: input.duedate,
    status: input.status,
    debtor: { ...SANDBOX_DEBTOR },
    receiver: { name: account.receiver.name, document: account.receiver.document, account: account.receiver.account },
    // Stryker disable next-line all: the content of a boleto the sandbox's control makes (the published interface has no boleto creation, D16): the contract gives instructions only as an array of strings that may be empty (D34)
    instructions: ["Não receber após o vencimento."],
    boleto: {
      transactionId: id,
      status: input.status,
      bankEmissor: BANK.name,
      bankNumber: nossoNumero,
      bankAgency: agency,
      // Stryker disable next-line all: the content of a boleto the sandbox's control makes (the published interface has no boleto creation, D16): the contract gives bankAccount no form (only the barcode and the typed line have one, D34)
      bankAccount: `${accountNumber}-${mod10(agency + accountNumber)}`,
      barCode: numbers.barCode,
      bankLine: numbers.bankLine,
      bankAssignor: account.receiver.name,
    },
    pix: input.withPix
      ? {
          transactionId: id,
          transactionIdentification: pixTxid,
          status: "PENDING",
          key: account.pixKey,
          emv: dynamicBrCode(account.brCode, pixTxid),
        }
      : null,
  };
}

export function boletoRecord(ctx: Pick<RequestContext, "account" | "now">, boleto: BoletoCharge): StoredRecord {
  return {
    kind: "boleto",
    accountId: ctx.account.id,
    id: boleto.transactionId,
    status: boleto.status,
    customerId: null,
    uniqueKey: null,
    createdMs: ctx.now.getTime(),
    data: boleto as unknown as Record<string, unknown>,
  };
}

/** The boleto moved to a final status, its bank slip and PIX block with it. */
export function withStatus(boleto: BoletoCharge, status: BoletoStatus, amountConfirmed?: number): BoletoCharge {
  return {
    ...boleto,
    status,
    amountConfirmed: amountConfirmed ?? boleto.amountConfirmed,
    boleto: { ...boleto.boleto, status },
    pix: boleto.pix ? { ...boleto.pix, status } : null,
  };
}

function notFound(ctx: Pick<RequestContext, "app">, id: string) {
  return operationError(404, ctx.app.contract.version("family-b"), "ODE001", `No boleto found for the identifier ${id}.`);
}

export const boletoHandlers: HandlerTable = {
  getBoleto: {
    // A header that breaks its schema (D45) is answered in the operation's envelope 2.
    invalid: operationValidationError,
    async handle(ctx) {
      const found = await ctx.app.store.get("boleto", ctx.account.id, ctx.params.boletoId);
      if (!found) return notFound(ctx, ctx.params.boletoId);
      return success(200, found.data, ctx.now);
    },
  },

  cancelBoleto: {
    invalid(ctx, problems) {
      const version = ctx.app.contract.version("family-b");
      // Stryker disable next-line MethodExpression: a body whose reason is over its maxLength breaks nothing else (`reason` is its only member, and a string), so its problems are that one
      if (problems.some((p) => p.error?.keyword === "maxLength" && p.error.instancePath === "/reason")) {
        return operationError(400, version, "ODE003", "The reason must have at most 200 characters.");
      }
      // Envelope 2 with the project code VALIDATION_ERROR (decision D18): OBE001 means an
      // internal error during the call and is never used for a client error.
      return operationValidationError(ctx, problems);
    },
    async handle(ctx) {
      const id = ctx.params.boletoId;
      // The boleto canceled, or the status that refused its cancellation.
      type Cancel = BoletoCharge | BoletoStatus;
      const endpoint = await ctx.app.webhooks.endpoint(ctx.account.id);
      const outcome = await ctx.app.store.update<Cancel>("boleto", ctx.account.id, id, (current) => {
        const boleto = current.data as unknown as BoletoCharge;
        if (boleto.status !== "REGISTERED") return { result: boleto.status };
        const next = withStatus(boleto, "CANCELED");
        // The boleto.canceled event (D24) commits with the cancellation, to the account's endpoint if set.
        const events = endpoint ? [ctx.app.webhooks.event(ctx.account, endpoint, "boleto.canceled", next, ctx.now)] : [];
        // Stryker disable next-line StringLiteral: the record's status column, which no published operation selects boletos by (a reading returns the record's data, whose status is CANCELED)
        return { next: { ...current, status: "CANCELED", data: next as unknown as Record<string, unknown> }, result: next, events };
      });
      if (!outcome.found) return notFound(ctx, id);
      if (typeof outcome.result === "string") {
        return operationError(409, ctx.app.contract.version("family-b"), "ODE002", `Only charges with status REGISTERED can be cancelled; this boleto is ${outcome.result}.`);
      }
      // The event, if any, is due now (a look at an outbox with nothing due finds nothing).
      ctx.app.webhooks.wake();
      return success(200, outcome.result, ctx.now);
    },
  },
};
