/**
 * Domain rules that JSON Schema cannot express: check digits of CPF/CNPJ, the forms of a PIX
 * key, the CRC of a PIX BR Code, boleto barcodes and typed lines (check digits, agreement with
 * each other, due date and amount), EndToEndId and txid shapes, QR code images, postal codes
 * and timestamps.
 *
 * `checkDomainValues` walks any JSON value and applies the rules by property name, so the same
 * checks run on the contract's examples and on what a server returns. Each single-value check
 * returns `null` when the value is valid, or the reason it is not.
 */
import { cnpj, cpf } from "cpf-cnpj-validator";
import jsQRModule from "jsqr";
// The calculator takes bytes: the package's string entry point needs Node's Buffer, which the
// portal's console (this module bundled for the browser) does not have.
import crc16ccitt from "crc/calculators/crc16ccitt";
import { brCodeStructureProblem } from "./br-code.ts";
import pngjs from "pngjs";

export type DomainCheck =
  | "cpf-cnpj"
  | "br-code"
  | "boleto-barcode"
  | "boleto-bank-line"
  | "boleto-pair"
  | "boleto-due-date"
  | "boleto-amount"
  | "end-to-end-id"
  | "txid"
  | "qr-image"
  | "postal-code"
  | "timestamp";

export const DOMAIN_CHECKS: readonly DomainCheck[] = [
  "cpf-cnpj",
  "br-code",
  "boleto-barcode",
  "boleto-bank-line",
  "boleto-pair",
  "boleto-due-date",
  "boleto-amount",
  "end-to-end-id",
  "txid",
  "qr-image",
  "postal-code",
  "timestamp",
];

export interface DomainProblem {
  check: DomainCheck;
  /** Where the value sits, as dotted property names from the walked root. */
  path: string;
  value: unknown;
  problem: string;
}

export interface DomainReport {
  problems: DomainProblem[];
  /** How many values each check looked at (valid or not). */
  checked: Record<DomainCheck, number>;
}

// ---------------------------------------------------------------------------------------------
// Single values

/** A CPF as Receita Federal writes it: 11 digits, bare or as 000.000.000-00. */
const CPF_FORMS = /^(?:\d{11}|\d{3}\.\d{3}\.\d{3}-\d{2})$/;
/**
 * A CNPJ as Receita Federal writes it: 14 characters, bare or as 00.000.000/0000-00; the first
 * 12 may be upper-case letters (alphanumeric CNPJ, IN RFB 2229/2024, issued from July 2026),
 * the two check digits are digits.
 */
const CNPJ_FORMS = /^(?:[0-9A-Z]{12}\d{2}|[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2})$/;

/**
 * The two check digits of a CPF (9-digit body) or CNPJ (12-character body): mod 11 with the
 * Receita Federal weights, a remainder under 2 giving 0; each character counts as its ASCII
 * code minus 48, so digits count as themselves (cpf-cnpj-validator's digit functions).
 */
export function taxIdCheckDigits(body: string): string {
  const validator = body.length === 9 ? cpf : cnpj;
  const first = String(validator.verifierDigit(body));
  return first + String(validator.verifierDigit(body + first));
}

/**
 * A CPF or a CNPJ with right check digits, in any of the forms Receita Federal writes it
 * (whether a field takes only the bare digits is the field's pattern, not this check).
 * Strings of one repeated character are refused, as Receita Federal issues none. Only the rule
 * is applied: cpf-cnpj-validator's `isValid` also refuses well-known numbers whose check
 * digits are right (12345678909), which are CPFs all the same.
 */
export function cpfCnpjProblem(value: string): string | null {
  const kind = CPF_FORMS.test(value) ? "CPF" : CNPJ_FORMS.test(value) ? "CNPJ" : undefined;
  if (kind === undefined) return "not a CPF (11 digits, or 000.000.000-00) or a CNPJ (14 characters, or 00.000.000/0000-00)";
  const bare = value.replace(/[./-]/g, "");
  if (/^(.)\1+$/.test(bare)) return `${kind} repeats one digit`;
  const expected = taxIdCheckDigits(bare.slice(0, -2));
  return bare.endsWith(expected) ? null : `${kind} check digits are ${bare.slice(-2)}, should be ${expected}`;
}

/** The types of PIX key the DICT registers (decision D14's `keyType`). */
export type PixKeyType = "CPF" | "CNPJ" | "PHONE" | "EMAIL" | "EVP";

/** A random key (EVP): a UUID in lower case. */
const PIX_EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A phone key: E.164, `+` and up to 15 digits, as the DICT writes it (`+55`, area code and number in Brazil). */
const PIX_PHONE = /^\+[1-9]\d{1,14}$/;
/** An e-mail key: in lower case, a domain of dot-separated labels (the DICT's form). */
const PIX_EMAIL = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
/** The longest PIX key (an e-mail key; the other forms are shorter). */
const PIX_KEY_MAX_LENGTH = 77;

/**
 * The type of a PIX key by its form (decision D14, after the BCB DICT key formats), or why it
 * is no key: a CPF (11 digits) or CNPJ (14 digits) with right check digits, a phone in E.164,
 * a random key (EVP) or an e-mail address, both in lower case, at most 77 characters. A string
 * of 11 or 14 digits is a CPF or CNPJ key or none: it is never read as another form.
 */
export function pixKeyTypeOf(key: string): { type: PixKeyType } | { problem: string } {
  if (/^\d{11}$/.test(key) || /^\d{14}$/.test(key)) {
    const type = key.length === 11 ? "CPF" : "CNPJ";
    const problem = cpfCnpjProblem(key);
    return problem === null ? { type } : { problem: `${type} key: ${problem.replace(`${type} `, "")}` };
  }
  if (PIX_PHONE.test(key)) return { type: "PHONE" };
  if (PIX_EVP.test(key)) return { type: "EVP" };
  if (key.length <= PIX_KEY_MAX_LENGTH && PIX_EMAIL.test(key)) return { type: "EMAIL" };
  return { problem: "not a PIX key: a CPF or CNPJ (digits only), a phone in E.164 (+55...), a lower-case e-mail address of at most 77 characters or a lower-case random key (EVP)" };
}

/** Why a string is no PIX key (any of the DICT's forms), or null when it is one. */
export function pixKeyProblem(key: string): string | null {
  const kind = pixKeyTypeOf(key);
  return "problem" in kind ? kind.problem : null;
}

/** A queried key's `keyType` is the type its form gives (only judged when the key is one). */
export function pixKeyInfoProblem(info: { key?: unknown; keyType?: unknown }): string | null {
  if (typeof info.key !== "string") return null;
  const kind = pixKeyTypeOf(info.key);
  if ("problem" in kind || info.keyType === kind.type) return null;
  return `keyType ${JSON.stringify(info.keyType)}, but ${info.key} is a ${kind.type} key`;
}

/**
 * A PIX BR Code: the fields the Central Bank's manual requires, well formed (br-code.ts), and a
 * CRC16 (CCITT-FALSE, four upper-case hex digits) that matches, computed by the `crc` package
 * over the code up to the CRC's value (as the sandbox computes it when it writes one).
 */
export function brCodeProblem(value: string): string | null {
  if (!value.startsWith("000201")) return "does not start with the payload format indicator 000201";
  if (!/6304[0-9A-F]{4}$/.test(value)) return "does not end with 6304 and four upper-case hex digits (CRC16)";
  let problem = brCodesParsed.get(value);
  if (problem === undefined) {
    problem = brCodeStructureProblem(value) ?? brCodeCrcProblem(value);
    // Bounded: the most recent codes only.
    if (brCodesParsed.size >= 1000) brCodesParsed.delete(brCodesParsed.keys().next().value as string);
    brCodesParsed.set(value, problem);
  }
  return problem;
}

/**
 * An amount in reais as a JSON number: whole centavos, so at most two decimals. Exact for every
 * amount a client can write: the number must be the double nearest to a whole number of
 * centavos divided by 100 (what JSON.parse gives for `10.5`, `0.29` or `1e-2`), so `0.29` is one
 * although `0.29 * 100` is 28.999999999999996, while `10.000000001` and `0.30000000000000004`
 * (other doubles) are not.
 */
export function reaisAmountProblem(value: number): string | null {
  if (!Number.isFinite(value)) return "not a finite number";
  const centavos = Math.round(value * 100);
  if (!Number.isSafeInteger(centavos) || centavos / 100 !== value) return "not a whole number of centavos (at most two decimals)";
  return null;
}

/** The CRC of a well-formed code (its last field, 63, four characters): the CRC16/CCITT-FALSE of all before its value. */
function brCodeCrcProblem(code: string): string | null {
  const expected = crc16ccitt(new TextEncoder().encode(code.slice(0, -4))).toString(16).toUpperCase().padStart(4, "0");
  const written = code.slice(-4);
  return written === expected ? null : `the CRC 63 is ${written}, not the CRC16/CCITT-FALSE of the code (${expected})`;
}

/**
 * The verdicts of the codes parsed last: a charge's code is read again and again (a client
 * polls its charge until paid), and parsing it is the dearest check of an answer.
 */
const brCodesParsed = new Map<string, string | null>();

/**
 * The FEBRABAN general check digit of a bank boleto barcode: mod 11 over the 43 digits
 * without position 5, weights 2..9 from the right; 11 minus the remainder, and 0, 10 and 11
 * become 1. Computed here because boleto-utils applies the collection-slip rule (0 and 1
 * become 0) to bank boletos too, and so refuses about 2 in 11 valid barcodes.
 */
export function boletoGeneralCheckDigit(barCode: string): number {
  const digits = barCode.slice(0, 4) + barCode.slice(5);
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const digit = 11 - (sum % 11);
  return digit === 0 || digit === 10 || digit === 11 ? 1 : digit;
}

/** A bank boleto barcode: 44 digits, currency 9 (real), FEBRABAN general check digit right. */
export function barCodeProblem(value: string): string | null {
  if (!/^\d{44}$/.test(value)) return "not 44 digits";
  if (value[3] !== "9") return `currency code ${value[3]} is not 9 (real)`;
  const expected = boletoGeneralCheckDigit(value);
  if (Number(value[4]) !== expected) return `general check digit ${value[4]} should be ${expected}`;
  return null;
}

/** The typed line as banks print it: `AAAAA.AAAAA BBBBB.BBBBBB CCCCC.CCCCCC D EEEEEEEEEEEEEE`. */
const PRINTED_BANK_LINE = /^(\d{5})\.(\d{5}) (\d{5})\.(\d{6}) (\d{5})\.(\d{6}) (\d) (\d{14})$/;

/** The 47 digits of a typed line, bare or printed; null when it is neither. */
function bankLineDigits(value: string): string | null {
  if (/^\d{47}$/.test(value)) return value;
  const printed = PRINTED_BANK_LINE.exec(value);
  return printed ? printed.slice(1).join("") : null;
}

/** The fields of a typed line that carry a mod-10 check digit: [name, start, end (the digit's index)]. */
const CHECKED_FIELDS = [
  ["first", 0, 9],
  ["second", 10, 20],
  ["third", 21, 31],
] as const;

/**
 * The FEBRABAN check digit of a typed-line field: weights 2, 1, 2, ... from the right, products
 * above 9 count the sum of their digits; 10 minus the sum modulo 10, and 10 becomes 0.
 */
export function bankLineFieldCheckDigit(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    const product = Number(digits[i]) * weight;
    sum += product > 9 ? product - 9 : product;
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

/**
 * A bank boleto typed line: 47 digits (bare or printed with its dots and spaces), each field
 * check digit right, and the barcode it encodes valid too (its general check digit is the
 * line's fourth field). Computed here, not with boleto-utils: that library reads a line that
 * starts with 8 as a collection slip and refuses it.
 */
export function bankLineProblem(value: string): string | null {
  const line = bankLineDigits(value);
  if (line === null) return "not 47 digits (bare, or printed as AAAAA.AAAAA BBBBB.BBBBBB CCCCC.CCCCCC D EEEEEEEEEEEEEE)";
  for (const [name, start, end] of CHECKED_FIELDS) {
    const expected = bankLineFieldCheckDigit(line.slice(start, end));
    if (Number(line[end]) !== expected) return `check digit of the ${name} field is ${line[end]}, should be ${expected}`;
  }
  const barcodeProblem = barCodeProblem(bankLineToBarCode(line));
  return barcodeProblem === null ? null : `the barcode it encodes is invalid: ${barcodeProblem}`;
}

/** The barcode a typed line (bare or printed) encodes: the line's fields back in barcode order. */
export function bankLineToBarCode(bankLine: string): string {
  const line = bankLineDigits(bankLine) ?? bankLine;
  return line.slice(0, 4) + line[32] + line.slice(33, 47) + line.slice(4, 9) + line.slice(10, 20) + line.slice(21, 31);
}

/** The typed line (47 digits, no formatting) of a bank boleto barcode. */
export function barCodeToBankLine(barCode: string): string {
  const fields = [barCode.slice(0, 4) + barCode.slice(19, 24), barCode.slice(24, 34), barCode.slice(34, 44)];
  return fields.map((field) => `${field}${bankLineFieldCheckDigit(field)}`).join("") + barCode[4] + barCode.slice(5, 19);
}

/**
 * A boleto's barcode and typed line describe the same boleto: the line is the barcode
 * rearranged with field check digits. Only judged when each is valid alone; a broken one is
 * its own format's problem, reported there.
 */
export function bankSlipProblem(slip: { barCode?: unknown; bankLine?: unknown }): string | null {
  const { barCode, bankLine } = slip;
  if (typeof barCode !== "string" || typeof bankLine !== "string") return null;
  if (barCodeProblem(barCode) !== null || bankLineProblem(bankLine) !== null) return null;
  const encoded = bankLineToBarCode(bankLine);
  return encoded === barCode ? null : `bankLine encodes barcode ${encoded}, not the barCode ${barCode}`;
}

/** A valid barcode's due-date factor (positions 6-9) against the boleto's due date (FEBRABAN). */
export function barCodeDueDateProblem(barCode: string, dueDate: string): string | null {
  const expected = boletoDueDateFactor(dueDate);
  const actual = barCode.slice(5, 9);
  return actual === expected ? null : `due-date factor ${actual}, but ${dueDate} is factor ${expected}`;
}

/** A valid barcode's amount field (positions 10-19, centavos) against the boleto's amount in reais. */
export function barCodeAmountProblem(barCode: string, amount: number): string | null {
  const expected = String(Math.round(amount * 100)).padStart(10, "0");
  const actual = barCode.slice(9, 19);
  return actual === expected ? null : `amount field ${actual}, but amount ${amount} is ${expected} centavos`;
}

/**
 * A boleto and its bank slip describe one payment: the barcode's due-date factor and amount
 * field are the boleto's `duedate` and `amount` (D34). Only judged when the barcode and the
 * values are valid alone; a broken one is its own format's problem. And a boleto's
 * `amountConfirmed` is set exactly when it is `CONFIRMED` (D16: set when it is paid).
 */
export function boletoChargeProblem(charge: { amount?: unknown; duedate?: unknown; boleto?: unknown; status?: unknown; amountConfirmed?: unknown }): string | null {
  return barCodeOfItsBoletoProblem(charge) ?? amountConfirmedProblem(charge);
}

function barCodeOfItsBoletoProblem(charge: { amount?: unknown; duedate?: unknown; boleto?: unknown }): string | null {
  const barCode = isObject(charge.boleto) ? charge.boleto.barCode : undefined;
  if (typeof barCode !== "string" || barCodeProblem(barCode) !== null) return null;
  const dueDate = typeof charge.duedate === "string" && timestampProblem(charge.duedate) === null ? barCodeDueDateProblem(barCode, charge.duedate) : null;
  const amount = typeof charge.amount === "number" ? barCodeAmountProblem(barCode, charge.amount) : null;
  return dueDate ?? amount;
}

function amountConfirmedProblem(charge: { status?: unknown; amountConfirmed?: unknown }): string | null {
  if (typeof charge.status !== "string") return null;
  const confirmed = charge.status === "CONFIRMED";
  const set = charge.amountConfirmed !== undefined && charge.amountConfirmed !== null;
  if (confirmed === set) return null;
  return confirmed ? "a CONFIRMED boleto without amountConfirmed (D16: set when it is paid)" : `amountConfirmed ${JSON.stringify(charge.amountConfirmed)} on a ${charge.status} boleto (D16: set when it is paid, CONFIRMED)`;
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A charge id's ULID carries the charge's creation time (D49): its first ten characters, in
 * Crockford's base 32, are the milliseconds of `created_at`. Only judged when the id has the
 * ULID's form and `created_at` is a date-time; a broken one is its own pattern's problem.
 */
export function chargeIdTimeProblem(charge: { id?: unknown; created_at?: unknown }): string | null {
  const ulid = typeof charge.id === "string" ? /^ch_([0-9A-HJKMNP-TV-Z]{10})[0-9A-HJKMNP-TV-Z]{16}$/.exec(charge.id) : null;
  if (!ulid || typeof charge.created_at !== "string" || timestampProblem(charge.created_at) !== null) return null;
  const idMs = [...ulid[1]!].reduce((ms, digit) => ms * 32 + CROCKFORD.indexOf(digit), 0);
  if (idMs === Date.parse(charge.created_at)) return null;
  return `the id's time part is ${new Date(idMs).toISOString()}, but created_at is ${charge.created_at} (D49: a charge id's ULID time is its creation time)`;
}

const DAY_MS = 86_400_000;
const FACTOR_BASE_1997 = Date.UTC(1997, 9, 7);
/** FEBRABAN restarted the due-date factor at 1000 on 2025-02-22 (9999 was 2025-02-21). */
const FACTOR_RESTART_2025 = Date.UTC(2025, 1, 22);

/** The four-digit due-date factor of a boleto due on the given date (YYYY-MM-DD). */
export function boletoDueDateFactor(isoDate: string): string {
  const time = calendarDate(isoDate.slice(0, 10));
  if (time === null) throw new RangeError(`not a date: ${isoDate}`);
  const factor =
    time < FACTOR_RESTART_2025
      ? Math.round((time - FACTOR_BASE_1997) / DAY_MS)
      : 1000 + (Math.round((time - FACTOR_RESTART_2025) / DAY_MS) % 9000);
  return String(factor).padStart(4, "0");
}

/** The date (UTC ms) of `YYYY-MM-DD` when it is a real calendar date, else null. */
function calendarDate(text: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  return realDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

function realDate(year: number, month: number, day: number): number | null {
  const time = Date.UTC(year, month - 1, day);
  const date = new Date(time);
  const same = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return same ? time : null;
}

const END_TO_END_ID = /^E[0-9A-Z]{8}\d{12}[A-Za-z0-9]{11}$/;

/** BCB EndToEndId: E + ISPB + yyyyMMddHHmm (a real UTC minute) + 11 alphanumerics. */
export function endToEndIdProblem(value: string): string | null {
  if (!END_TO_END_ID.test(value)) return `does not match ${END_TO_END_ID.source}`;
  const stamp = value.slice(9, 21);
  const [year, month, day, hour, minute] = [0, 4, 6, 8, 10].map((at, i) => Number(stamp.slice(at, at + (i === 0 ? 4 : 2))));
  if (realDate(year, month, day) === null || hour > 23 || minute > 59) return `embedded date ${stamp} is not a real date`;
  return null;
}

const TXID = /^[a-zA-Z0-9]{26,35}$/;

export function txidProblem(value: string): string | null {
  return TXID.test(value) ? null : `does not match ${TXID.source}`;
}

export function postalCodeProblem(value: string): string | null {
  return /^\d{8}$/.test(value) ? null : "not 8 digits (CEP)";
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/;

/** An RFC 3339 date-time with a zone, or a full date, that names a real instant or day. */
export function timestampProblem(value: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return calendarDate(value) === null ? "not a real date" : null;
  const match = DATE_TIME.exec(value);
  if (!match) return "not an ISO 8601 date-time with a time zone (RFC 3339)";
  const [, day, hour, minute, second, , , offsetHour, offsetMinute] = match;
  if (calendarDate(day) === null) return "not a real date";
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return "not a real time of day";
  if (offsetHour !== undefined && (Number(offsetHour) > 23 || Number(offsetMinute) > 59)) return "not a real offset";
  if (Number.isNaN(Date.parse(value))) return "Date.parse refuses it";
  return null;
}

// jsqr and pngjs are CommonJS: under NodeNext their default export may arrive wrapped.
function interopDefault<T>(module: T | { default: T }): T {
  return (module as { default?: T }).default ?? (module as T);
}
const jsQR = interopDefault(jsQRModule as unknown as typeof jsQRModule.default);

/** The text of the QR code in a PNG image (base64, or a data: URL), or null when none is found. */
export function decodeQrPng(image: string): string | null {
  const base64 = image.replace(/^data:image\/png;base64,/, "");
  let png: { width: number; height: number; data: Buffer };
  try {
    png = pngjs.PNG.sync.read(Buffer.from(base64, "base64"));
  } catch {
    return null;
  }
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

// ---------------------------------------------------------------------------------------------
// Walking a value

type SingleCheck = { check: DomainCheck; problem: (value: string) => string | null };

/** Property names that carry a domain value, and the check each gets. */
const FIELD_CHECKS: Record<string, SingleCheck> = {
  document: { check: "cpf-cnpj", problem: cpfCnpjProblem },
  documentNumber: { check: "cpf-cnpj", problem: cpfCnpjProblem },
  br_code: { check: "br-code", problem: brCodeProblem },
  brCode: { check: "br-code", problem: brCodeProblem },
  emv: { check: "br-code", problem: brCodeProblem },
  barCode: { check: "boleto-barcode", problem: barCodeProblem },
  bankLine: { check: "boleto-bank-line", problem: bankLineProblem },
  end_to_end_id: { check: "end-to-end-id", problem: endToEndIdProblem },
  endToEndId: { check: "end-to-end-id", problem: endToEndIdProblem },
  txid: { check: "txid", problem: txidProblem },
  postalCode: { check: "postal-code", problem: postalCodeProblem },
};

/** Names of timestamp and date fields: created_at, createdAt, timestamp, duedate, startDate ... */
const TIMESTAMP_FIELD = /^(timestamp|date|duedate)$|_(at|date)$|[a-z](At|Date)$/;

function fieldCheck(name: string): SingleCheck | undefined {
  if (Object.hasOwn(FIELD_CHECKS, name)) return FIELD_CHECKS[name];
  if (TIMESTAMP_FIELD.test(name)) return { check: "timestamp", problem: timestampProblem };
  return undefined;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The nearest value of `name` on the object or its ancestors (innermost first). */
function nearest(lineage: JsonObject[], names: string[]): unknown {
  for (let i = lineage.length - 1; i >= 0; i--) {
    for (const name of names) if (lineage[i][name] !== undefined && lineage[i][name] !== null) return lineage[i][name];
  }
  return undefined;
}

class Walker {
  readonly problems: DomainProblem[] = [];
  readonly checked = Object.fromEntries(DOMAIN_CHECKS.map((c) => [c, 0])) as Record<DomainCheck, number>;

  private record(check: DomainCheck, path: string, value: unknown, problem: string | null): void {
    this.checked[check] += 1;
    if (problem !== null) this.problems.push({ check, path, value, problem });
  }

  walk(value: unknown, path: string, lineage: JsonObject[]): void {
    if (Array.isArray(value)) {
      value.forEach((item, index) => this.walk(item, `${path}[${index}]`, lineage));
      return;
    }
    if (!isObject(value)) return;
    const chain = [...lineage, value];
    for (const [name, field] of Object.entries(value)) {
      const fieldPath = path ? `${path}.${name}` : name;
      const single = fieldCheck(name);
      // null is how the contract says "absent" (nullable fields); schemas decide if it is allowed.
      if (single && field !== null && !isObject(field) && !Array.isArray(field)) {
        this.record(single.check, fieldPath, field, typeof field === "string" ? single.problem(field) : "not a string");
      }
      this.walk(field, fieldPath, chain);
    }
    this.crossFieldChecks(value, path, chain);
  }

  /** Rules that relate several fields of one object (or of an object and its ancestors). */
  private crossFieldChecks(object: JsonObject, path: string, chain: JsonObject[]): void {
    const at = (name: string) => (path ? `${path}.${name}` : name);
    const { barCode, bankLine, image, brCode } = object;
    if (typeof barCode === "string" && barCodeProblem(barCode) === null) {
      if (typeof bankLine === "string" && bankLineProblem(bankLine) === null) {
        this.record("boleto-pair", at("bankLine"), bankLine, bankSlipProblem({ barCode, bankLine }));
      }
      const dueDate = nearest(chain, ["duedate", "dueDate", "due_date"]);
      if (typeof dueDate === "string" && timestampProblem(dueDate) === null) {
        this.record("boleto-due-date", at("barCode"), barCode, barCodeDueDateProblem(barCode, dueDate));
      }
      const amount = nearest(chain, ["amount"]);
      if (typeof amount === "number") this.record("boleto-amount", at("barCode"), barCode, barCodeAmountProblem(barCode, amount));
    }
    if (typeof image === "string" && typeof brCode === "string") {
      const decoded = decodeQrPng(image);
      const problem = decoded === null ? "no QR code found in the PNG image" : decoded === brCode ? null : `QR code holds ${decoded}, not the brCode`;
      this.record("qr-image", at("image"), `${image.slice(0, 24)}...`, problem);
    }
  }
}

/** Applies every domain rule to `value` (any JSON), by property name. */
export function checkDomainValues(value: unknown, path = ""): DomainReport {
  const walker = new Walker();
  walker.walk(value, path, []);
  return { problems: walker.problems, checked: walker.checked };
}

/** Adds the counts of `more` into `total`. */
export function addDomainCounts(total: Record<DomainCheck, number>, more: Record<DomainCheck, number>): void {
  for (const check of DOMAIN_CHECKS) total[check] += more[check];
}
