/**
 * The sandbox's directory of PIX keys (DICT) that `POST /pix/query` finds. A key's form is the
 * contract's (`x-domain-format: pix-key`, decision D14): the request validation refuses a
 * malformed key before a lookup, and a well-formed key that is not in the directory is not found
 * (404), as a real directory lookup of an unregistered key.
 */
import { pixKeyTypeOf, type PixKeyType } from "@payment-collection/contract/domain/domain-checks.ts";
import type { components as FamilyB } from "../../../generated/types/family-b.ts";

export type PixKeyInfo = FamilyB["schemas"]["PixKeyInfo"];

/** The type of a key the request validation let through: well formed, so its form names one. */
export function keyTypeOf(key: string): PixKeyType {
  return (pixKeyTypeOf(key) as { type: PixKeyType }).type;
}
