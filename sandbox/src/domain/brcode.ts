/**
 * Dynamic PIX BR Codes (EMV merchant-presented mode, Manual de Padroes para Iniciacao do Pix),
 * built with pix-utils: point of initiation `12` (one-time payment), the payload location
 * URL in field 26/25, txid `***` in field 62/05 and the CRC16 in field 63.
 */
import { createDynamicPix, hasError } from "pix-utils";

/** Host of the (fictitious) payload locations the sandbox writes into its BR Codes. */
export const PAYLOAD_LOCATION_HOST = "pix.sandbox.payments.example";

export interface BrCodeMerchant {
  /** At most 25 characters (EMV field 59). */
  merchantName: string;
  /** At most 15 characters (EMV field 60). */
  merchantCity: string;
}

/**
 * The BR Code of a charge whose payload is served at `<host>/qr/v2/<kind>/<txid>` (`cob` for
 * an immediate charge, `cobv` for a charge with a due date such as a boleto's PIX block).
 */
export function dynamicBrCode(merchant: BrCodeMerchant, txid: string, kind: "cob" | "cobv" = "cob"): string {
  const pix = createDynamicPix({
    merchantName: merchant.merchantName,
    merchantCity: merchant.merchantCity,
    url: `${PAYLOAD_LOCATION_HOST}/qr/v2/${kind}/${txid}`,
    oneTime: true,
  });
  if (hasError(pix)) throw new Error(`BR Code: ${pix.message}`);
  return pix.toBRCode();
}
