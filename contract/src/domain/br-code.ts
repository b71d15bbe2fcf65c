/**
 * The structure of a PIX BR Code as the Central Bank defines it (BCB, Manual de Padrões para
 * Iniciação do Pix, on EMV QRCPS-MPM): a sequence of data objects, each a two-digit ID, a
 * two-digit length and a value of that length, with the fields a PIX payment needs:
 *
 *   00 payload format indicator, first, "01"      52 merchant category code, 4 digits
 *   01 point of initiation, "11" or "12" if given   53 currency, "986" (BRL)
 *   26 merchant account: 00 GUI br.gov.bcb.pix,     54 amount, if given: digits, at most two
 *      with 01 (the key) or 25 (the payload URL:       decimals, at most 13 characters
 *      host and path, no scheme)
 *   58 country, "BR"                                59 merchant name, 1 to 25 characters
 *   60 merchant city, 1 to 15 characters            62 additional data with 05 (the txid)
 *   63 the CRC, last, 4 characters (its value is checked by the caller)
 *
 * Only what the manual requires of every code is asked: templates and fields it leaves to the
 * payee (text in 26/02, other additional data, reserved templates) are read, never judged.
 */

export interface DataObject {
  id: string;
  value: string;
}

/** The data objects of a TLV string, or why it is not one. */
export function dataObjects(text: string): DataObject[] | string {
  const objects: DataObject[] = [];
  let at = 0;
  while (at < text.length) {
    const head = text.slice(at, at + 4);
    if (!/^\d{4}$/.test(head)) return `no two-digit id and length at position ${at}`;
    const length = Number(head.slice(2));
    const value = text.slice(at + 4, at + 4 + length);
    if (length === 0 || value.length !== length) return `field ${head.slice(0, 2)} at position ${at} announces ${length} characters, ${value.length} follow`;
    objects.push({ id: head.slice(0, 2), value });
    at += 4 + length;
  }
  return objects;
}

const PIX_GUI = "br.gov.bcb.pix";

/**
 * A payload location as the manual writes it in 26/25: the URL of the payload without its scheme
 * (`https://` is implied), so a host name (labels of letters, digits and hyphens, with at least
 * one dot), an optional port, then its path.
 */
const PAYLOAD_URL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+(?::\d{1,5})?(?:\/\S*)?$/i;

/** What the manual requires of a template 26 (merchant account information of PIX). */
function merchantAccountProblem(value: string): string | null {
  const objects = dataObjects(value);
  if (typeof objects === "string") return `field 26: ${objects}`;
  const gui = objects.find((o) => o.id === "00")?.value;
  // The GUI is compared without case, as EMV globally unique identifiers are.
  if (gui?.toLowerCase() !== PIX_GUI) return `field 26 does not start with the PIX GUI ${PIX_GUI} (found ${gui === undefined ? "none" : JSON.stringify(gui)})`;
  if (!objects.some((o) => o.id === "01" || o.id === "25")) return "field 26 carries neither a PIX key (01) nor a payload URL (25)";
  const url = objects.find((o) => o.id === "25")?.value;
  if (url !== undefined && !PAYLOAD_URL.test(url)) return `the payload URL 26/25 ${JSON.stringify(url)} is not a host name and path without a scheme`;
  return null;
}

/** Why a string is not a well-formed PIX BR Code (the CRC's value aside), or null. */
export function brCodeStructureProblem(code: string): string | null {
  const objects = dataObjects(code);
  if (typeof objects === "string") return `not EMV TLV: ${objects}`;
  const field = (id: string) => objects.find((o) => o.id === id)?.value;
  if (objects[0]?.id !== "00" || objects[0].value !== "01") return "the payload format indicator 00 = 01 is not the first field";
  if (objects.at(-1)?.id !== "63") return "the CRC field 63 is not the last field";
  if (objects.at(-1)!.value.length !== 4) return "the CRC field 63 is not 4 characters long";
  for (const id of new Set(objects.map((o) => o.id))) {
    if (objects.filter((o) => o.id === id).length > 1) return `field ${id} appears more than once`;
  }
  const initiation = field("01");
  if (initiation !== undefined && initiation !== "11" && initiation !== "12") return `the point of initiation 01 is ${JSON.stringify(initiation)}, not 11 or 12`;
  const account = field("26");
  if (account === undefined) return "no PIX merchant account field 26";
  const accountProblem = merchantAccountProblem(account);
  if (accountProblem) return accountProblem;
  if (!/^\d{4}$/.test(field("52") ?? "")) return "the merchant category code 52 is missing or not 4 digits";
  if (field("53") !== "986") return `the currency 53 is ${JSON.stringify(field("53"))}, not 986 (BRL)`;
  const amount = field("54");
  if (amount !== undefined && (amount.length > 13 || !/^\d+(\.\d{1,2})?$/.test(amount))) return `the amount 54 ${JSON.stringify(amount)} is not at most 13 characters of digits with at most two decimals`;
  if (field("58") !== "BR") return `the country 58 is ${JSON.stringify(field("58"))}, not BR`;
  const name = field("59");
  if (name === undefined || name.length > 25) return "the merchant name 59 is missing or longer than 25 characters";
  const city = field("60");
  if (city === undefined || city.length > 15) return "the merchant city 60 is missing or longer than 15 characters";
  const additional = field("62");
  const additionalObjects = additional === undefined ? undefined : dataObjects(additional);
  if (typeof additionalObjects === "string") return `field 62: ${additionalObjects}`;
  if (!additionalObjects?.some((o) => o.id === "05")) return "no txid: the additional data field 62 lacks its field 05";
  return null;
}
