/**
 * Reading and parsing request bodies defensively: a size limit, a JSON media type, a bounded
 * structure (nesting depth, array length, number of values: checked on the bytes before
 * parsing, so that no later step, schema validation or idempotency fingerprint, can take long
 * or overflow the stack), and JSON that parses.
 */
import type { IncomingMessage } from "node:http";

/** Bodies larger than this are refused with the family's 400 error. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Beyond this the rest of a refused body is not read: the connection is closed instead. */
export const MAX_DRAINED_BYTES = 64 * 1024 * 1024;
/** JSON nested deeper than this is refused. */
export const MAX_JSON_DEPTH = 64;

export type RawBody = { kind: "ok"; bytes: Buffer } | { kind: "too_large"; drained: boolean } | { kind: "aborted" };

/** Reads the whole body, keeping at most `maxBytes`. */
export function readBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<RawBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: RawBody) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else if (size > MAX_DRAINED_BYTES) {
        req.pause();
        finish({ kind: "too_large", drained: false });
      }
    });
    req.on("end", () => finish(size > maxBytes ? { kind: "too_large", drained: true } : { kind: "ok", bytes: Buffer.concat(chunks) }));
    req.on("error", () => finish({ kind: "aborted" }));
    req.on("close", () => finish({ kind: "aborted" }));
  });
}

/** Whether a Content-Type names JSON (`application/json`, `application/*+json`, any parameters). */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const media = contentType.split(";")[0].trim().toLowerCase();
  return media === "application/json" || (media.startsWith("application/") && media.endsWith("+json"));
}

/** Items an array of a body may hold (every array of the contract's bodies is far smaller). */
export const MAX_JSON_ARRAY_ITEMS = 1_000;
/** Values (members, items, scalars) a body may hold in all. */
export const MAX_JSON_NODES = 10_000;

/**
 * Per open container of the scan below: whether it is an array, and its items so far (commas
 * + 1). Allocated once: typed arrays cost far more to create than the scan of a usual body,
 * and the scan is synchronous, so one pair serves every call (each slot is set when its
 * container opens).
 */
const OPEN_IS_ARRAY = new Uint8Array(MAX_JSON_DEPTH + 2);
const OPEN_ITEMS = new Uint32Array(MAX_JSON_DEPTH + 2);

/**
 * Why a JSON text is too large in structure (too deep, an array too long, too many values), or
 * null. Runs on the raw bytes BEFORE JSON.parse and before anything walks the value: one pass,
 * no allocation, stopping at the first limit crossed, so that a 1 MiB body of one huge array
 * costs a scan of its bytes and nothing more. Strings are skipped (their brackets and commas do
 * not count). Malformed JSON is left to JSON.parse.
 */
export function jsonStructureProblem(bytes: Uint8Array): string | null {
  let depth = 0;
  let nodes = 1;
  const isArray = OPEN_IS_ARRAY;
  const items = OPEN_ITEMS;
  const length = bytes.length;
  for (let i = 0; i < length; i++) {
    const c = bytes[i];
    if (c === 0x22) {
      // Skip the string: up to the next unescaped quote.
      for (i++; i < length; i++) {
        const d = bytes[i];
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > MAX_JSON_DEPTH) return `the body is nested deeper than ${MAX_JSON_DEPTH} levels`;
      isArray[depth] = c === 0x5b ? 1 : 0;
      items[depth] = 1;
    } else if (c === 0x5d || c === 0x7d) {
      if (depth > 0) depth--;
    } else if (c === 0x2c && depth > 0) {
      items[depth]++;
      if (++nodes > MAX_JSON_NODES) return `the body holds more than ${MAX_JSON_NODES} values`;
      if (isArray[depth] === 1 && items[depth] > MAX_JSON_ARRAY_ITEMS) return `an array of the body has more than ${MAX_JSON_ARRAY_ITEMS} items`;
    }
  }
  return null;
}

/** Refuses invalid UTF-8; without `stream` a decode keeps no state, so one decoder serves all. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

export type ParsedBody = { kind: "ok"; value: unknown } | { kind: "invalid"; reason: string };

/** Parses a JSON body: bounded structure (checked first, on the bytes), valid UTF-8, valid JSON. */
export function parseJsonBody(bytes: Buffer): ParsedBody {
  const tooLarge = jsonStructureProblem(bytes);
  if (tooLarge) return { kind: "invalid", reason: tooLarge };
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return { kind: "invalid", reason: "the body is not valid UTF-8" };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: "invalid", reason: `the body is not valid JSON (${(error as Error).message})` };
  }
  return { kind: "ok", value };
}

/**
 * A header value as the text the client wrote: Node reads header bytes as Latin-1, so a UTF-8
 * `é` arrives as two characters. Non-ASCII values that are valid UTF-8 are decoded; others
 * (and every ASCII value, the usual case, without copying) stay as they are.
 */
export function headerText(value: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[^\x00-\x7f]/.test(value)) return value;
  try {
    return UTF8.decode(Buffer.from(value, "latin1"));
  } catch {
    return value;
  }
}

/** Length in characters (Unicode code points), as JSON Schema's maxLength counts. */
export function characterCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}
