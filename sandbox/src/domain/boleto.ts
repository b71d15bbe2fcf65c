/**
 * FEBRABAN bank boleto numbers: the 44-digit barcode and the 47-digit typed line (linha
 * digitavel), with their check digits and the due-date factor.
 *
 * Barcode: bank (3) + currency `9` + general check digit + due-date factor (4) + amount in
 * centavos (10) + free field (25). The typed line is three fields of the barcode, each followed
 * by its mod-10 digit, then the general check digit, then factor + amount.
 *
 * The due-date factor (days since 1997-10-07, restarting at 1000 on 2025-02-22), the general
 * check digit (mod 11; 0, 10 and 11 become 1) and the mod-10 field digit are the contract's own
 * (`contract/src/domain/domain-checks.ts`), the rules D34 and D43 hold a boleto to; the sandbox's
 * tests hold them to the FEBRABAN worked examples and to boleto-utils. The inputs are the
 * sandbox's: its bank's three-digit code, a free field of 25 digits (`itauFreeField`), an amount
 * the control bounds to ten digits of centavos and a due date it keeps from 1997-10-08 on.
 */
import { bankLineFieldCheckDigit, boletoDueDateFactor, boletoGeneralCheckDigit } from "@payment-collection/contract/domain/domain-checks.ts";

/** Mod-10 check digit (weights 2,1,2,1... from the right; products above 9 add their digits): the contract's own. */
export const mod10 = bankLineFieldCheckDigit;

/** The due-date factor of a calendar date `YYYY-MM-DD`: the contract's own. */
export const dueDateFactor = boletoDueDateFactor;

export interface BoletoNumbersInput {
  /** Three-digit bank code, e.g. `341`. */
  bankCode: string;
  /** Amount in centavos, at most 10 digits. */
  amountCents: number;
  /** Due date `YYYY-MM-DD`, 1997-10-08 or later. */
  dueDate: string;
  /** The bank's 25-digit free field. */
  freeField: string;
}

export function boletoNumbers(input: BoletoNumbersInput): { barCode: string; bankLine: string } {
  const tail = dueDateFactor(input.dueDate) + String(input.amountCents).padStart(10, "0") + input.freeField;
  // The general check digit is computed over the barcode without its own position (the fifth).
  const general = boletoGeneralCheckDigit(`${input.bankCode}90${tail}`);
  const barCode = `${input.bankCode}9${general}${tail}`;
  const field1 = barCode.slice(0, 4) + barCode.slice(19, 24);
  const field2 = barCode.slice(24, 34);
  const field3 = barCode.slice(34, 44);
  const bankLine = `${field1}${mod10(field1)}${field2}${mod10(field2)}${field3}${mod10(field3)}${general}${barCode.slice(5, 19)}`;
  return { barCode, bankLine };
}

/**
 * Whether the general check digit reads the same under the bank rule and under the collection
 * (arrecadacao) rule, which gives 0 instead of 1 for remainders 0 and 1. Some validators,
 * boleto-utils among them, apply the collection rule to bank boletos; the sandbox only issues
 * numbers whose digit is not 1, on which every rule agrees, so that no client validator refuses them.
 */
export function checkDigitIsUnambiguous(barCode: string): boolean {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: a general check digit 1 is right by the bank rule, which D34 and D43 hold a boleto to (and the suites' own edge variant issues); which numbers the loop spares client validators that apply the collection rule to is no rule a client can hold the sandbox to
  return barCode[4] !== "1";
}

/**
 * Free field of the Itau layout (bank 341): carteira (3) + nosso numero (8) + its mod-10
 * digit + agency (4) + account (5) + the account's mod-10 digit + `000`.
 */
export function itauFreeField(carteira: string, nossoNumero: string, agency: string, account: string): string {
  // Stryker disable next-line ArithmeticOperator: the Itau layout's own check digits inside the free field, which only the issuing bank reads: the rules a boleto is held to (D34, D43: the general and field check digits, the due-date factor, the amount) read the free field as any 25 digits, and any digit here keeps it so
  return `${carteira}${nossoNumero}${mod10(agency + account + carteira + nossoNumero)}${agency}${account}${mod10(agency + account)}000`;
}
