/**
 * What the sandbox writes on the boletos its control makes (the published interface has no
 * boleto creation, D16) where the contract gives a member no form, so any text is right: the
 * debtor's name and address, the client code, the instructions (an array of strings that may be
 * empty, D34) and the bank account (only the barcode and the typed line have a form, D34).
 * Fixtures of the same kind as the controls (controls.ts) and the PIX directory: no other server
 * holds them. What a boleto must be (its numbers, its PIX block, its receiver, the debtor's CPF)
 * stays in boletos.ts.
 */
import { mod10 } from "../domain/boleto.ts";
import { digits } from "../domain/ids.ts";
import type { components } from "../../../generated/types/family-b.ts";

type BoletoCharge = components["schemas"]["BoletoCharge"];

/** The debtor written on sandbox boletos, but for the CPF (boletos.ts). */
export const SANDBOX_DEBTOR: Omit<BoletoCharge["debtor"], "document"> = {
  name: "Carla Nogueira Dias",
  postalCode: "01310100",
  publicArea: "Avenida Paulista",
  number: 1578,
  complement: "Conjunto 42",
  neighborhood: "Bela Vista",
  city: "São Paulo",
  state: "SP",
};

export const clientCode = (): string => `SANDBOX-${digits(6)}`;

export const instructions = (): string[] => ["Não receber após o vencimento."];

/** The receiver's account number with its check digit. */
export const bankAccount = (agency: string, accountNumber: string): string => `${accountNumber}-${mod10(agency + accountNumber)}`;
