/**
 * Values that break one keyword of a member's schema: the negative-data class sends each in
 * place of the member's valid value. Every keyword that constrains a value is covered (pattern,
 * format, the contract's domain formats (a CPF's check digits, a PIX key's forms, an amount's
 * centavos), minimum and maximum with their exclusive forms, minLength). A candidate is kept
 * only when it breaks exactly what it says: the profile's schema of the member refuses it, and
 * the contract's whole schema of the member, that one keyword aside, takes it. So under seed a
 * variant never breaks a decided keyword as well (a `webhook_url` that is no URI must still
 * start with `https://`, which is the project's pattern): a faithful server that decided
 * otherwise there may take it.
 */
import { taxIdCheckDigits } from "@payment-collection/contract/domain/domain-checks.ts";
import { compileOpenApiSchema, DOMAIN_FORMAT_EXTENSION } from "@payment-collection/contract/model/json-schema.ts";
import { keywordOf, typeOf } from "./request-schema.ts";
import { isObject, type Json } from "./shared.ts";

export interface Breaker {
  /** The keyword broken, as the variant's name says it (`not-matching-pattern`, `below-minimum`...). */
  keyword: string;
  /** The schema keyword the value breaks (`pattern`, `x-domain-format`...). */
  breaks: string;
  value: unknown;
}

/** Strings that are no valid instance of a format (the contract's formats and ajv-formats'). */
const FORMAT_BREAKERS: Record<string, string> = {
  email: "not-an-e-mail-address",
  uri: "not a uri",
  "date-time": "2026-13-45T25:61:00Z",
  date: "2026-13-45",
  uuid: "not-a-uuid",
};

/** A CPF or CNPJ with its last check digit changed: the shape holds, the check digit does not. */
function wrongCheckDigit(value: unknown): string | undefined {
  if (typeof value !== "string" || !/\d$/.test(value)) return undefined;
  return `${value.slice(0, -1)}${(Number(value.at(-1)) + 1) % 10}`;
}

/** Variations of a valid string that keep its start (so a prefix pattern still holds) and break its shape. */
function spoiled(current: unknown, ...tails: string[]): string[] {
  const text = typeof current === "string" ? current : "";
  return [...tails.map((tail) => `${text}${tail}`), ...tails];
}

/**
 * A CPF with right check digits made from a value (the codes of its characters, modulo 10, as
 * the 9-digit body; never one repeated digit): a CPF-shaped stand-in for a value of another form.
 */
function cpfOf(value: unknown): string {
  const text = typeof value === "string" && value !== "" ? value : String(value);
  let body = Array.from({ length: 9 }, (_, i) => text.charCodeAt(i % text.length) % 10).join("");
  if (/^(\d)\1+$/.test(body)) body = `${(Number(body[0]) + 1) % 10}${body.slice(1)}`;
  return `${body}${taxIdCheckDigits(body)}`;
}

/**
 * Values that break a string domain format, by format: the variant's keyword and its candidates
 * (the first that breaks the format alone is sent). Derived from the member's valid value where
 * the format has check digits: its last digit changed, or, for a PIX key of another form (an
 * e-mail, a phone), a CPF key made from it with its last digit changed.
 */
const DOMAIN_BREAKERS: Record<string, (current: unknown) => Array<[keyword: string, values: unknown[]]>> = {
  "cpf-cnpj": (current) => [["wrong-check-digit", [wrongCheckDigit(current)]]],
  "pix-key": (current) => [
    ["not-pix-key", [...spoiled(current, " ~"), "~not a pix key~"]],
    ["wrong-check-digit", [wrongCheckDigit(current), wrongCheckDigit(cpfOf(current))]],
  ],
};

function candidates(sub: Json, current: unknown): Breaker[] {
  const type = typeOf(sub);
  const found: Breaker[] = [];
  const keyword = (name: string) => keywordOf(sub, name);
  const each = (breaks: string, name: string, values: unknown[]) => found.push(...values.filter((value) => value !== undefined).map((value) => ({ breaks, keyword: name, value })));
  if (type === "string") {
    if (typeof keyword("pattern") === "string") each("pattern", "not-matching-pattern", ["", "~", ...spoiled(current, "~", " ~"), ...(typeof current === "string" ? [`x${current}`, `~${current}`] : [])]);
    const format = keyword("format");
    if (typeof format === "string") each("format", `not-format-${format}`, [...spoiled(current, " ~", "%", "@@"), FORMAT_BREAKERS[format] ?? "~not a valid value~"]);
    const domainFormat = keyword(DOMAIN_FORMAT_EXTENSION);
    if (typeof domainFormat === "string" && Object.hasOwn(DOMAIN_BREAKERS, domainFormat)) {
      for (const [name, values] of DOMAIN_BREAKERS[domainFormat]!(current)) each(DOMAIN_FORMAT_EXTENSION, name, values);
    }
    const minLength = keyword("minLength");
    if (typeof minLength === "number" && minLength > 0) each("minLength", "under-minLength", [typeof current === "string" ? current.slice(0, minLength - 1) : undefined, "x".repeat(minLength - 1)]);
  }
  if (type === "number" || type === "integer") {
    const [minimum, maximum] = [keyword("minimum"), keyword("maximum")];
    const [exclusiveMinimum, exclusiveMaximum] = [keyword("exclusiveMinimum"), keyword("exclusiveMaximum")];
    // OpenAPI 3.0 writes an exclusive bound as `exclusiveMinimum: true` beside `minimum`; 3.1 as a number.
    if (typeof minimum === "number") each("minimum", "below-minimum", [exclusiveMinimum === true ? minimum : minimum - 1]);
    if (typeof exclusiveMinimum === "number") each("exclusiveMinimum", "below-minimum", [exclusiveMinimum]);
    if (typeof maximum === "number") each("maximum", "above-maximum", [exclusiveMaximum === true ? maximum : maximum + 1]);
    if (typeof exclusiveMaximum === "number") each("exclusiveMaximum", "above-maximum", [exclusiveMaximum]);
    // An amount in reais is whole centavos: a tenth of a centavo more is none.
    if (keyword(DOMAIN_FORMAT_EXTENSION) === "brl-amount") each(DOMAIN_FORMAT_EXTENSION, "fraction-of-centavo", [(typeof current === "number" ? current : 1) + 0.001]);
  }
  return found;
}

/** The schema without one keyword, at its top and in its `allOf` members. */
function without(schema: Json, keyword: string): Json {
  const { [keyword]: _dropped, ...rest } = schema;
  return Array.isArray(rest.allOf) ? { ...rest, allOf: rest.allOf.map((member) => (isObject(member) ? without(member, keyword) : member)) } : rest;
}

const validators = new WeakMap<Json, Map<string, (value: unknown) => boolean>>();
/** The family documents are OpenAPI 3.0; compiled once per schema and keyword left out. */
function validator(schema: Json, leftOut?: string): (value: unknown) => boolean {
  let bySchema = validators.get(schema);
  if (!bySchema) validators.set(schema, (bySchema = new Map()));
  const key = leftOut ?? "";
  let validate = bySchema.get(key);
  if (!validate) bySchema.set(key, (validate = compileOpenApiSchema(leftOut ? without(schema, leftOut) : schema, "3.0") as (value: unknown) => boolean));
  return validate;
}

/**
 * For each keyword of the member the profile holds, the first candidate that breaks it alone:
 * refused by the profile's schema (`sub`), taken by the whole schema (`full`) without it.
 */
export function breakersOf(sub: Json, full: Json, current: unknown): Breaker[] {
  const chosen = new Map<string, Breaker>();
  for (const candidate of candidates(sub, current)) {
    if (chosen.has(candidate.keyword)) continue;
    if (!validator(sub)(candidate.value) && validator(full, candidate.breaks)(candidate.value)) chosen.set(candidate.keyword, candidate);
  }
  return [...chosen.values()];
}
