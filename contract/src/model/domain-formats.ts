/**
 * The domain checks (contract/src/domain/domain-checks.ts) as JSON Schema string formats, so
 * a schema can say `format: cpf-cnpj` and every validator built by the model enforces the
 * check digits. The generated documents do not use these formats yet (their fields carry
 * patterns only); the formats are registered anyway so that the contract can adopt them
 * without touching any validator.
 */
import {
  bankLineProblem,
  barCodeProblem,
  brCodeProblem,
  cpfCnpjProblem,
  endToEndIdProblem,
  postalCodeProblem,
  txidProblem,
} from "../domain/domain-checks.ts";

/** Format name -> the domain check behind it (null: valid, else the reason). */
export const DOMAIN_FORMATS = {
  "cpf-cnpj": cpfCnpjProblem,
  "br-code": brCodeProblem,
  "boleto-barcode": barCodeProblem,
  "boleto-bank-line": bankLineProblem,
  "end-to-end-id": endToEndIdProblem,
  txid: txidProblem,
  "postal-code": postalCodeProblem,
} as const satisfies Record<string, (value: string) => string | null>;

export type DomainFormat = keyof typeof DOMAIN_FORMATS;

/** Why a value breaks a domain format, or null when it satisfies it. */
export function domainFormatProblem(format: DomainFormat, value: string): string | null {
  return DOMAIN_FORMATS[format](value);
}

/** Registers every domain format on an ajv instance (string formats; other types pass). */
export function addDomainFormats(ajv: { addFormat(name: string, format: { type: "string"; validate: (value: string) => boolean }): unknown }): void {
  for (const [name, problem] of Object.entries(DOMAIN_FORMATS)) {
    ajv.addFormat(name, { type: "string", validate: (value: string) => problem(value) === null });
  }
}
