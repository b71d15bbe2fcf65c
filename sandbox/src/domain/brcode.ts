/**
 * Dynamic PIX BR Codes (EMV merchant-presented mode, Manual de Padroes para Iniciacao do Pix):
 * point of initiation `12` (one-time payment), the PIX merchant account 26 with the GUI and
 * the payload location URL in 26/25, merchant category `0000`, currency `986`, country `BR`, the
 * merchant's name and city, txid `***` in 62/05 (a dynamic code's txid is at its location) and
 * the CRC16/CCITT-FALSE (the `crc` package) in field 63. The layout is pix-utils' for a dynamic
 * code, byte for byte (the sandbox's tests compare the two); written out here because creating
 * charges is the sandbox's hottest path, and pix-utils builds and parses objects for every code.
 */
import { crc16ccitt } from "crc";

/** Host of the (fictitious) payload locations the sandbox writes into its BR Codes. */
export const PAYLOAD_LOCATION_HOST = "pix.sandbox.payments.example";

export interface BrCodeMerchant {
  /** At most 25 characters (EMV field 59), as the code carries it: upper-case ASCII letters, digits and spaces. */
  merchantName: string;
  /** At most 15 characters (EMV field 60), as the code carries it. */
  merchantCity: string;
}

/** An EMV data object: two-digit id, two-digit length, the value. */
function dataObject(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, "0")}${value}`;
}

/**
 * A BR Code payload that ends with the CRC field's tag and length (`6304`), completed with its
 * CRC16/CCITT-FALSE: four upper-case hex digits, leading zeros kept.
 */
export function withBrCodeCrc(payload: string): string {
  return `${payload}${(0x10000 + crc16ccitt(payload)).toString(16).slice(1).toUpperCase()}`;
}

/** The BR Code of a charge whose payload is served at `<host>/qr/v2/<txid>`. */
export function dynamicBrCode(merchant: BrCodeMerchant, txid: string): string {
  const account = dataObject("00", "br.gov.bcb.pix") + dataObject("25", `${PAYLOAD_LOCATION_HOST}/qr/v2/${txid}`);
  return withBrCodeCrc(
    dataObject("00", "01") +
      dataObject("01", "12") +
      dataObject("26", account) +
      dataObject("52", "0000") +
      dataObject("53", "986") +
      dataObject("58", "BR") +
      dataObject("59", merchant.merchantName) +
      dataObject("60", merchant.merchantCity) +
      dataObject("62", dataObject("05", "***")) +
      "6304",
  );
}
