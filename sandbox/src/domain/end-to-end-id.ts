/**
 * EndToEndId of a PIX payment (BCB): `E` + the 8-character ISPB of the participant +
 * `yyyyMMddHHmm` in UTC + 11 letters or digits, 32 characters in all.
 */
import { alphanumeric } from "./ids.ts";

/** ISPB the sandbox writes into the EndToEndIds it issues (not a real participant's). */
export const SANDBOX_ISPB = "99999999";

export function endToEndId(at: Date, ispb: string = SANDBOX_ISPB): string {
  const iso = at.toISOString(); // yyyy-MM-ddTHH:mm:ss.sssZ
  const stamp = iso.slice(0, 4) + iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(11, 13) + iso.slice(14, 16);
  return `E${ispb}${stamp}${alphanumeric(11)}`;
}
