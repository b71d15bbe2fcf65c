/**
 * Values that break one keyword of a member's schema: the negative-data class sends each in
 * place of the member's valid value. Every keyword that constrains a value is covered (pattern,
 * format, the contract's domain formats (a CPF's check digits, an amount's centavos), minimum
 * and maximum with their exclusive forms, minLength); a candidate is kept only when the contract's own validator of the member refuses
 * it, so a variant never claims to break what it does not.
 */
import { compileOpenApiSchema } from "@payment-collection/contract/model/json-schema.ts";
import { DOMAIN_FORMAT_EXTENSION } from "@payment-collection/contract/model/json-schema.ts";
import { keywordOf, typeOf } from "./request-schema.ts";
import type { Json } from "./shared.ts";

export interface Breaker {
  /** The keyword broken, as the variant's name says it (`pattern`, `format`, `below-minimum`...). */
  keyword: string;
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
  const last = Number(value.at(-1));
  return `${value.slice(0, -1)}${(last + 1) % 10}`;
}

/** The first candidate the pattern does not match (the empty string usually). */
function patternBreaker(pattern: string, current: unknown): string | undefined {
  const regex = new RegExp(pattern, "u");
  return ["", "~", `${typeof current === "string" ? current : ""}~`, "not matching ~"].find((candidate) => !regex.test(candidate));
}

function candidates(sub: Json, current: unknown): Breaker[] {
  const type = typeOf(sub);
  const found: Array<Breaker | undefined> = [];
  const keyword = (name: string) => keywordOf(sub, name);
  if (type === "string") {
    const pattern = keyword("pattern");
    if (typeof pattern === "string") {
      const value = patternBreaker(pattern, current);
      if (value !== undefined) found.push({ keyword: "not-matching-pattern", value });
    }
    const format = keyword("format");
    if (typeof format === "string") found.push({ keyword: `not-format-${format}`, value: FORMAT_BREAKERS[format] ?? "~not a valid value~" });
    const domain = keyword(DOMAIN_FORMAT_EXTENSION);
    if (domain === "cpf-cnpj") {
      const value = wrongCheckDigit(current);
      if (value !== undefined) found.push({ keyword: "wrong-check-digit", value });
    }
    const minLength = keyword("minLength");
    if (typeof minLength === "number" && minLength > 0) found.push({ keyword: "under-minLength", value: "x".repeat(minLength - 1) });
  }
  if (type === "number" || type === "integer") {
    const minimum = keyword("minimum");
    const maximum = keyword("maximum");
    const exclusiveMinimum = keyword("exclusiveMinimum");
    const exclusiveMaximum = keyword("exclusiveMaximum");
    // OpenAPI 3.0 writes an exclusive bound as `exclusiveMinimum: true` beside `minimum`; 3.1 as a number.
    if (typeof minimum === "number") found.push({ keyword: "below-minimum", value: exclusiveMinimum === true ? minimum : minimum - 1 });
    if (typeof exclusiveMinimum === "number") found.push({ keyword: "below-minimum", value: exclusiveMinimum });
    if (typeof maximum === "number") found.push({ keyword: "above-maximum", value: exclusiveMaximum === true ? maximum : maximum + 1 });
    if (typeof exclusiveMaximum === "number") found.push({ keyword: "above-maximum", value: exclusiveMaximum });
    // An amount in reais is whole centavos: a tenth of a centavo more is none.
    if (keyword(DOMAIN_FORMAT_EXTENSION) === "brl-amount") found.push({ keyword: "fraction-of-centavo", value: (typeof current === "number" ? current : 1) + 0.001 });
  }
  return found.filter((breaker): breaker is Breaker => breaker !== undefined);
}

/** The breakers of a member's schema that its validator refuses (the family documents are OpenAPI 3.0). */
export function breakersOf(sub: Json, current: unknown): Breaker[] {
  const found = candidates(sub, current);
  if (found.length === 0) return [];
  const validate = compileOpenApiSchema(sub, "3.0");
  return found.filter((breaker) => !validate(breaker.value));
}
