/**
 * CPF and CNPJ check digits (Receita Federal mod-11 rules), computed with cpf-cnpj-validator's
 * digit functions. Only the rule is applied: the library's `isValid` also refuses a list of
 * well-known test numbers whose check digits are right (12345678909, the contract's own
 * example), which decision D23 does not ask for. Repeated-digit strings are refused, as every
 * CPF/CNPJ validator does. Alphanumeric CNPJ is not accepted yet (D23).
 */
import { cnpj, cpf } from "cpf-cnpj-validator";

/** Why a CPF (11 digits) or CNPJ (14 digits) is not valid, or null when it is. */
export function documentProblem(value: string): string | null {
  if (!/^(\d{11}|\d{14})$/.test(value)) return "must be a CPF (11 digits) or a CNPJ (14 digits), digits only";
  if (/^(\d)\1+$/.test(value)) return "must not repeat one digit";
  const validator = value.length === 11 ? cpf : cnpj;
  const body = value.slice(0, -2);
  const first = String(validator.verifierDigit(body));
  const second = String(validator.verifierDigit(body + first));
  if (value.slice(-2) !== first + second) return `${value.length === 11 ? "CPF" : "CNPJ"} check digits are wrong`;
  return null;
}

/** A CPF or CNPJ with the middle digits masked, as a PIX key lookup shows its owner. */
export function maskTaxId(value: string): string {
  if (value.length === 11) return `***.${value.slice(3, 6)}.${value.slice(6, 9)}-**`;
  return `**.${value.slice(2, 5)}.${value.slice(5, 8)}/${value.slice(8, 12)}-**`;
}
