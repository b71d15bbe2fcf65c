/**
 * Which error code the refusal of a malformed request carries.
 *
 * The document ties a code to one constraint of one member (`ODE003`: a cancel's reason over
 * 200 characters). The contract carries such a tie on the member's schema, as
 * `x-refusal-codes: {<keyword>: <code>}` (a tie a decision makes would be marked `x-decided`
 * like any keyword). A request malformed in any other way is refused with the one code both
 * families give malformed requests: `VALIDATION_ERROR` (D21 in family A, D32 in family B, D18
 * on the cancel, whose 400 also holds `ODE003`).
 */
import { isObject } from "./json.ts";

export const REFUSAL_CODES_EXTENSION = "x-refusal-codes";

/** The code of a malformed request no tie names (D21, D32, D18). */
export const MALFORMED_REQUEST_CODE = "VALIDATION_ERROR";

/** The code a value breaking `keyword` of this member's schema is refused with, when the contract ties one. */
export function tiedRefusalCode(schema: unknown, keyword: string): string | undefined {
  const ties = isObject(schema) ? schema[REFUSAL_CODES_EXTENSION] : undefined;
  const code = isObject(ties) ? ties[keyword] : undefined;
  return typeof code === "string" ? code : undefined;
}
