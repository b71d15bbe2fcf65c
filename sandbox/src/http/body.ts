/**
 * Reading and parsing request bodies defensively: a size limit, a JSON media type, a bounded
 * structure (nesting depth, array length, number of values: checked on the bytes before
 * parsing, so that no later step, schema validation or idempotency fingerprint, can take long
 * or overflow the stack), and JSON that parses.
 */
import type { IncomingMessage } from "node:http";
import type { ValidationProblem } from "../contract/operations.ts";

/** Bodies larger than this are refused with the family's 400 error. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** JSON nested deeper than this is refused. */
export const MAX_JSON_DEPTH = 64;

export type RawBody = { kind: "ok"; bytes: Buffer } | { kind: "too_large" } | { kind: "aborted" };

/**
 * Reads the whole body, keeping at most `maxBytes` (the first event settles the promise: a later
 * resolve is ignored). A body past the limit is still read to its end and dropped, so that the
 * client, still sending, reads the 400 rather than a reset connection; the server's request
 * timeout bounds how long that lasts.
 */
export function readBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<RawBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > maxBytes ? { kind: "too_large" } : { kind: "ok", bytes: Buffer.concat(chunks) }));
    // An aborted request closes without its end (Node emits no error on a request nobody listens to for one).
    // Stryker disable next-line all: a client that aborted its request reads no answer
    req.on("close", () => resolve({ kind: "aborted" }));
  });
}

/**
 * Whether a Content-Type names JSON as D39 reads it: `application/json`, in any case, with any
 * parameters (`; charset=utf-8`). Another media type, even another JSON one
 * (`application/merge-patch+json`), is not sent as `application/json`.
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  return contentType?.split(";")[0].trim().toLowerCase() === "application/json";
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
  // One step past the end would read undefined, which is no byte the scan counts.
  for (let i = 0; i < length; i++) {
    const c = bytes[i];
    if (c === 0x22) {
      // Skip the string: up to the next unescaped quote.
      // Skipped past the end, the outer loop ends too.
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
      // In malformed JSON only, a level may close that never opened, or a comma stand outside
      // any: JSON.parse refuses such a text with the same 400 whatever the scan counted.
      depth--;
    } else if (c === 0x2c) {
      items[depth]++;
      if (++nodes > MAX_JSON_NODES) return `the body holds more than ${MAX_JSON_NODES} values`;
      if (isArray[depth] === 1 && items[depth] > MAX_JSON_ARRAY_ITEMS) return `an array of the body has more than ${MAX_JSON_ARRAY_ITEMS} items`;
    }
  }
  return null;
}

/** Refuses invalid UTF-8; without `stream` a decode keeps no state, so one decoder serves all. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** A body's value, or what is wrong with it (`problems` not empty, `value` undefined). */
export interface ParsedBody {
  value: unknown;
  problems: ValidationProblem[];
}

/** Parses a JSON body: bounded structure (checked first, on the bytes), valid UTF-8, valid JSON. */
export function parseJsonBody(bytes: Buffer): ParsedBody {
  try {
    const tooLarge = jsonStructureProblem(bytes);
    if (tooLarge) throw new RangeError(tooLarge);
    return { value: JSON.parse(UTF8.decode(bytes)), problems: [] };
  } catch (error) {
    // Stryker disable next-line ArrayDeclaration: equivalent, a body that cannot be read validates as no body at all, refused with the same 400 (only the details text differs)
    return { value: undefined, problems: [{ location: "body", message: error instanceof SyntaxError ? `the body is not valid JSON (${error.message})` : (error as Error).message }] };
  }
}

// A header value as the text the client wrote (D45): the contract model's reading, which the
// suites and the traffic checks share.
export { headerText } from "@payment-collection/contract/model/index.ts";

/** Length in characters (Unicode code points), as JSON Schema's maxLength counts: the string iterator steps by code point. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
