/**
 * The domain checks (contract/src/domain/domain-checks.ts) as JSON Schema, so a schema can
 * say `format: cpf-cnpj` and every validator built by the model enforces the check digits.
 * The generated documents name them with the extension `x-domain-format` (json-schema.ts
 * turns it into these): on a string or a number, a format; on an object, a rule relating its members
 * (the barcode and the typed line of one boleto), which no format can express.
 */
import type { FuncKeywordDefinition, SchemaValidateFunction } from "ajv";
import {
  bankLineProblem,
  bankSlipProblem,
  barCodeProblem,
  boletoChargeProblem,
  chargeIdTimeProblem,
  pixKeyInfoProblem,
  brCodeProblem,
  cpfCnpjProblem,
  endToEndIdProblem,
  pixKeyProblem,
  postalCodeProblem,
  reaisAmountProblem,
  txidProblem,
} from "../domain/domain-checks.ts";
import { valueAtInstancePath } from "./refs.ts";

/** Format name -> the domain check behind it (null: valid, else the reason). */
export const DOMAIN_FORMATS = {
  "cpf-cnpj": cpfCnpjProblem,
  "br-code": brCodeProblem,
  "boleto-barcode": barCodeProblem,
  "boleto-bank-line": bankLineProblem,
  "end-to-end-id": endToEndIdProblem,
  txid: txidProblem,
  "postal-code": postalCodeProblem,
  "pix-key": pixKeyProblem,
} as const satisfies Record<string, (value: string) => string | null>;

export type DomainFormat = keyof typeof DOMAIN_FORMATS;

/** Number format name -> the domain check behind it (an amount in reais: whole centavos). */
export const DOMAIN_NUMBER_FORMATS = {
  "brl-amount": reaisAmountProblem,
} as const satisfies Record<string, (value: number) => string | null>;

/** Object format name -> the rule relating the object's members (null: valid, else the reason). */
export const DOMAIN_OBJECT_FORMATS = {
  "boleto-bank-slip": bankSlipProblem,
  "boleto-charge": boletoChargeProblem,
  "charge-id-time": chargeIdTimeProblem,
  "pix-key-info": pixKeyInfoProblem,
} as const satisfies Record<string, (value: Record<string, unknown>) => string | null>;

export type DomainObjectFormat = keyof typeof DOMAIN_OBJECT_FORMATS;

/** The ajv keyword an object format becomes (`domainObjectFormat: boleto-bank-slip`). */
export const DOMAIN_OBJECT_KEYWORD = "domainObjectFormat";

/** Why a value breaks a domain format, or null when it satisfies it. */
export function domainFormatProblem(format: DomainFormat, value: string): string | null {
  return DOMAIN_FORMATS[format](value);
}

/**
 * Why the value a validator's `format` error points at breaks its domain format (the check's
 * own reason, for the text of an error or a finding); undefined for any other error. `data` is
 * the value that was validated.
 */
export function domainFormatReason(error: { keyword: string; params?: Record<string, unknown>; instancePath: string }, data: unknown): string | undefined {
  if (error.keyword !== "format") return undefined;
  const format = String(error.params?.format);
  const value = valueAtInstancePath(data, error.instancePath);
  const problem =
    Object.hasOwn(DOMAIN_FORMATS, format) && typeof value === "string"
      ? DOMAIN_FORMATS[format as DomainFormat](value)
      : Object.hasOwn(DOMAIN_NUMBER_FORMATS, format) && typeof value === "number"
        ? DOMAIN_NUMBER_FORMATS[format as keyof typeof DOMAIN_NUMBER_FORMATS](value)
        : null;
  return problem ?? undefined;
}

/**
 * A validator's error in words, for the text of an error body or a finding: the validator's
 * message, the members a `required` or `additionalProperties` error names, and a domain
 * format's reason (`domainFormatReason`). `data` is the value that was validated.
 */
export function schemaErrorText(error: { keyword: string; message?: string; params?: Record<string, unknown>; instancePath: string }, data: unknown): string {
  const members = error.keyword === "additionalProperties" || error.keyword === "required" ? ` (${JSON.stringify(error.params)})` : "";
  const reason = domainFormatReason(error, data);
  return `${error.message ?? error.keyword}${members}${reason === undefined ? "" : `: ${reason}`}`;
}

/** The part of an ajv instance the domain formats need. */
interface AjvLike {
  addFormat(name: string, format: { type: "string"; validate: (value: string) => boolean } | { type: "number"; validate: (value: number) => boolean }): unknown;
  addKeyword(definition: FuncKeywordDefinition): unknown;
}

/**
 * Registers every domain format on an ajv instance: string formats (other types pass) and the
 * object keyword (other types pass). An unknown object format name fails the value, so a
 * typo in the contract shows up instead of passing silently.
 */
export function addDomainFormats(ajv: AjvLike): void {
  for (const [name, problem] of Object.entries(DOMAIN_FORMATS)) {
    ajv.addFormat(name, { type: "string", validate: (value: string) => problem(value) === null });
  }
  for (const [name, problem] of Object.entries(DOMAIN_NUMBER_FORMATS)) {
    ajv.addFormat(name, { type: "number", validate: (value: number) => problem(value) === null });
  }
  const validate: SchemaValidateFunction = (format: string, data: Record<string, unknown>) => {
    const rule = (DOMAIN_OBJECT_FORMATS as Record<string, (value: Record<string, unknown>) => string | null>)[format];
    const problem = rule ? rule(data) : `unknown domain object format ${format}`;
    // ajv fills in where the error happened (instancePath, schemaPath).
    validate.errors = problem === null ? undefined : [{ keyword: DOMAIN_OBJECT_KEYWORD, params: { format }, message: `must be a ${format}: ${problem}` }];
    return problem === null;
  };
  ajv.addKeyword({ keyword: DOMAIN_OBJECT_KEYWORD, type: "object", schemaType: "string", errors: true, validate });
}
