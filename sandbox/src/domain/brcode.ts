/**
 * Dynamic PIX BR Codes (EMV merchant-presented mode, Manual de Padroes para Iniciacao do Pix),
 * built with pix-utils: point of initiation `12` (one-time payment), the payload location
 * URL in field 26/25, txid `***` in field 62/05 and the CRC16 in field 63.
 *
 * Every code of one merchant and kind differs only in the txid at the end of the payload
 * location URL, and txids of one length leave every EMV length field unchanged. So pix-utils
 * builds one template per (merchant, kind, txid length) with a placeholder txid; a charge's
 * code is the template with its txid in place of the placeholder and the CRC16/CCITT-FALSE
 * (the `crc` package) computed again, continuing from the CRC of the unchanged part before the
 * txid. The result is byte for byte what pix-utils would build for that txid (tested), at a
 * fraction of the cost: creating charges is the sandbox's hottest path.
 */
import { crc16ccitt } from "crc";
import crc16ccittBytes from "crc/calculators/crc16ccitt";
import { createDynamicPix, hasError } from "pix-utils";

/** Host of the (fictitious) payload locations the sandbox writes into its BR Codes. */
export const PAYLOAD_LOCATION_HOST = "pix.sandbox.payments.example";

export interface BrCodeMerchant {
  /** At most 25 characters (EMV field 59). */
  merchantName: string;
  /** At most 15 characters (EMV field 60). */
  merchantCity: string;
}

type Kind = "cob" | "cobv";

/**
 * A BR Code payload that ends with the CRC field's tag and length (`6304`), completed with its
 * CRC16/CCITT-FALSE: four upper-case hex digits, leading zeros kept.
 */
export function withBrCodeCrc(payload: string): string {
  return `${payload}${crc16ccitt(payload).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The BR Code pix-utils builds for a payload at `<host>/qr/v2/<kind>/<txid>`. */
export function buildDynamicBrCode(merchant: BrCodeMerchant, txid: string, kind: Kind = "cob"): string {
  const pix = createDynamicPix({
    merchantName: merchant.merchantName,
    merchantCity: merchant.merchantCity,
    url: `${PAYLOAD_LOCATION_HOST}/qr/v2/${kind}/${txid}`,
    oneTime: true,
  });
  if (hasError(pix)) throw new Error(`BR Code: ${pix.message}`);
  return pix.toBRCode();
}

interface Template {
  /** Everything before the txid. */
  head: string;
  /** CRC state after `head`. */
  headCrc: number;
  /** Everything after the txid up to and including the CRC field's tag and length (`6304`). */
  tail: string;
  /**
   * The bytes the CRC continues over: the txid's place, rewritten for each code, then the tail
   * (UTF-8, encoded once). The CRC runs on these bytes directly: the `crc` package's string entry point
   * copies its input into a new Buffer on every call.
   */
  scratch: Buffer;
}

const templates = new Map<string, Template>();
/** Characters a txid may use (EMV alphanumeric); the placeholder must not occur elsewhere. */
const TXID = /^[A-Za-z0-9]{1,35}$/;

function templateFor(merchant: BrCodeMerchant, kind: Kind, length: number): Template | undefined {
  const cacheKey = `${merchant.merchantName}\u0000${merchant.merchantCity}\u0000${kind}\u0000${length}`;
  let template = templates.get(cacheKey);
  if (template === undefined) {
    const placeholder = "~".repeat(length);
    const code = buildDynamicBrCode(merchant, placeholder, kind);
    const at = code.indexOf(placeholder);
    if (at === -1 || code.indexOf(placeholder, at + 1) !== -1) return undefined;
    const head = code.slice(0, at);
    const tail = code.slice(at + length, -4);
    template = { head, headCrc: crc16ccitt(head), tail, scratch: Buffer.from(placeholder + tail, "utf8") };
    templates.set(cacheKey, template);
  }
  return template;
}

/**
 * The BR Code of a charge whose payload is served at `<host>/qr/v2/<kind>/<txid>` (`cob` for
 * an immediate charge, `cobv` for a charge with a due date such as a boleto's PIX block).
 */
export function dynamicBrCode(merchant: BrCodeMerchant, txid: string, kind: Kind = "cob"): string {
  const template = TXID.test(txid) ? templateFor(merchant, kind, txid.length) : undefined;
  if (template === undefined) return buildDynamicBrCode(merchant, txid, kind);
  // The txid is ASCII letters and digits (TXID): one byte per character, as in UTF-8.
  template.scratch.write(txid, 0, "latin1");
  const crc = crc16ccittBytes(template.scratch, template.headCrc);
  return `${template.head}${txid}${template.tail}${crc.toString(16).toUpperCase().padStart(4, "0")}`;
}
