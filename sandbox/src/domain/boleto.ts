/**
 * FEBRABAN bank boleto numbers: the 44-digit barcode and the 47-digit typed line (linha
 * digitavel), with their check digits and the due-date factor.
 *
 * Barcode: bank (3) + currency `9` + general check digit + due-date factor (4) + amount in
 * centavos (10) + free field (25). The general check digit is mod 11 over the other 43
 * digits (weights 2..9 from the right; 0, 10 and 11 become 1). The typed line is three fields
 * of the barcode, each followed by its mod-10 digit (weights 2,1 from the right), then the
 * general check digit, then factor + amount.
 *
 * Due-date factor: days since 1997-10-07, which reached 9999 on 2025-02-21; from 2025-02-22
 * it restarts at 1000 (FEBRABAN's 2025 rule) and wraps every 9000 days.
 */
import { bankLineFieldCheckDigit } from "@payment-collection/contract/domain/domain-checks.ts";

const DAY_MS = 86_400_000;
const FACTOR_BASE_1997 = Date.UTC(1997, 9, 7);
const FACTOR_RESTART_2025 = Date.UTC(2025, 1, 22);

/** The due-date factor of a calendar date `YYYY-MM-DD`. */
export function dueDateFactor(date: string): string {
  const [year, month, day] = date.split("-").map(Number);
  const time = Date.UTC(year, month - 1, day);
  const factor =
    time < FACTOR_RESTART_2025 ? Math.round((time - FACTOR_BASE_1997) / DAY_MS) : 1000 + (Math.round((time - FACTOR_RESTART_2025) / DAY_MS) % 9000);
  if (factor < 1) throw new RangeError(`no due-date factor before 1997-10-08: ${date}`);
  return String(factor).padStart(4, "0");
}

/** Mod-10 check digit (weights 2,1,2,1... from the right; products above 9 add their digits): the contract's own. */
export const mod10 = bankLineFieldCheckDigit;

/** The weighted sum of the general check digit modulo 11 (weights 2..9 from the right). */
export function barcodeRemainder(digits43: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits43.length - 1; i >= 0; i--) {
    sum += Number(digits43[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  return sum % 11;
}

/** The barcode's general check digit: 11 minus the remainder; 0, 10 and 11 become 1. */
export function barcodeCheckDigit(digits43: string): number {
  const digit = 11 - barcodeRemainder(digits43);
  return digit === 0 || digit === 10 || digit === 11 ? 1 : digit;
}

/**
 * Whether the general check digit is the same under the bank rule and under the collection
 * (arrecadacao) rule, which gives 0 instead of 1 for remainders 0 and 1. Some validators,
 * boleto-utils among them, apply the collection rule to bank boletos; the sandbox only issues
 * numbers on which both agree, so that no client validator refuses them.
 */
export function checkDigitIsUnambiguous(input: Omit<BoletoNumbersInput, "freeField"> & { freeField: string }): boolean {
  const head = `${input.bankCode}9`;
  const tail = dueDateFactor(input.dueDate) + String(input.amountCents).padStart(10, "0") + input.freeField;
  return barcodeRemainder(head + tail) > 1;
}

export interface BoletoNumbersInput {
  /** Three-digit bank code, e.g. `341`. */
  bankCode: string;
  /** Amount in centavos, at most 10 digits. */
  amountCents: number;
  /** Due date `YYYY-MM-DD`. */
  dueDate: string;
  /** The bank's 25-digit free field. */
  freeField: string;
}

export function boletoNumbers(input: BoletoNumbersInput): { barCode: string; bankLine: string } {
  if (!/^\d{3}$/.test(input.bankCode)) throw new RangeError("bank code must be 3 digits");
  if (!/^\d{25}$/.test(input.freeField)) throw new RangeError("free field must be 25 digits");
  if (!Number.isInteger(input.amountCents) || input.amountCents < 0 || input.amountCents > 9_999_999_999) {
    throw new RangeError("amount must fit 10 digits of centavos");
  }
  const head = `${input.bankCode}9`;
  const tail = dueDateFactor(input.dueDate) + String(input.amountCents).padStart(10, "0") + input.freeField;
  const general = barcodeCheckDigit(head + tail);
  const barCode = `${head}${general}${tail}`;
  const field1 = barCode.slice(0, 4) + barCode.slice(19, 24);
  const field2 = barCode.slice(24, 34);
  const field3 = barCode.slice(34, 44);
  const bankLine = `${field1}${mod10(field1)}${field2}${mod10(field2)}${field3}${mod10(field3)}${general}${barCode.slice(5, 19)}`;
  return { barCode, bankLine };
}

/**
 * Free field of the Itau layout (bank 341): carteira (3) + nosso numero (8) + its mod-10
 * digit + agency (4) + account (5) + the account's mod-10 digit + `000`.
 */
export function itauFreeField(carteira: string, nossoNumero: string, agency: string, account: string): string {
  const nossoDigit = mod10(agency + account + carteira + nossoNumero);
  const accountDigit = mod10(agency + account);
  return `${carteira}${nossoNumero}${nossoDigit}${agency}${account}${accountDigit}000`;
}
