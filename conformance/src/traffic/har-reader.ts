/**
 * Reads a HAR 1.2 file as a stream: the file is scanned chunk by chunk and only the entry being
 * read is held in memory (its text, then its exchange), so a HAR of hundreds of megabytes is
 * read with memory bounded by its largest entry. The scanner follows the JSON structure (strings,
 * escapes, nesting) just enough to cut `log.entries[i]` out; each entry is then parsed with
 * JSON.parse and checked for the members a HAR entry must have. A file that is not JSON, is cut
 * short or holds a malformed entry stops the read with a HarError naming the entry and the fault.
 */
import { createReadStream } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { lowerCaseHeaders, type TrafficExchange } from "./exchange.ts";

export class HarError extends Error {}

interface Frame {
  type: "object" | "array";
  /** Key of the member being read (objects), while the scanner tracks keys at this depth. */
  key?: string;
  expectKey: boolean;
}

/** Yields the text of each element of `log.entries`, in order. */
export async function* harEntryTexts(path: string): AsyncGenerator<string> {
  const decoder = new StringDecoder("utf8");
  const scanner = new EntryScanner();
  const stream = createReadStream(path, { highWaterMark: 1 << 16 });
  try {
    for await (const raw of stream as AsyncIterable<Buffer>) for (const text of scanner.scan(decoder.write(raw))) yield text;
  } finally {
    stream.destroy();
  }
  scanner.end();
}

/**
 * Follows the JSON structure of the file chunk by chunk (strings, escapes, nesting, the keys of
 * the two outer levels) and cuts out the text of each entry of `log.entries`.
 */
class EntryScanner {
  private readonly stack: Frame[] = [];
  private inString = false;
  private escaped = false;
  private keyText: string[] | undefined;
  private started = false;
  private finished = false;
  private sawEntries = false;
  /** The parts of the entry being read, from earlier chunks; undefined between entries. */
  private entryParts: string[] | undefined;
  private entryStartDepth = -1;
  private entryIndex = 0;
  /** Characters read before the current chunk. */
  private offset = 0;
  /** Where the entry being read begins in the current chunk (0: it began in an earlier one). */
  private captureFrom = -1;

  /** The entries that end in this chunk, in order. */
  scan(chunk: string): string[] {
    this.captureFrom = this.entryParts ? 0 : -1;
    const ready: string[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (this.inString) this.stringCharacter(c);
      else if (c !== " " && c !== "\n" && c !== "\r" && c !== "\t") {
        this.character(chunk, i);
        const entry = this.entryEnd(chunk, i);
        if (entry !== undefined) ready.push(entry);
      }
    }
    if (this.entryParts && this.captureFrom >= 0) this.entryParts.push(chunk.slice(this.captureFrom));
    this.offset += chunk.length;
    return ready;
  }

  /** After the last chunk: a file cut short, or with no entries, is no HAR. */
  end(): void {
    if (!this.started) throw new HarError("not a HAR file: the file is empty");
    if (this.entryParts || this.inString || this.stack.length > 0) {
      const where = this.entryParts ? `inside entry ${this.entryIndex + 1}` : this.sawEntries ? `after entry ${this.entryIndex}, before log.entries closes` : "before log.entries";
      throw new HarError(`truncated HAR file: it ends ${where} (byte ${this.offset})`);
    }
    if (!this.sawEntries) throw new HarError("not a HAR file: no log.entries array");
  }

  private stringCharacter(c: string): void {
    if (this.escaped) this.escaped = false;
    else if (c === "\\") this.escaped = true;
    else if (c === '"') {
      this.inString = false;
      if (this.keyText) {
        this.stack[this.stack.length - 1]!.key = this.keyText.join("");
        this.keyText = undefined;
      }
    } else if (this.keyText && this.keyText.length < 64) this.keyText.push(c);
  }

  private inEntries(): boolean {
    const { stack } = this;
    return stack.length === 3 && stack[2]!.type === "array" && stack[0]!.key === "log" && stack[1]!.key === "entries";
  }

  /** One character outside strings (not white space). */
  private character(chunk: string, i: number): void {
    const c = chunk[i]!;
    if (!this.started) {
      if (c !== "{") throw new HarError(`not a HAR file: not JSON (it begins with ${JSON.stringify(chunk.slice(i, i + 20))})`);
      this.started = true;
    } else if (this.finished) {
      throw new HarError(`not a HAR file: text after the end of the JSON document (byte ${this.offset + i})`);
    }
    // A value starts inside log.entries: an entry begins.
    if (!this.entryParts && this.inEntries() && c !== "," && c !== "]") {
      if (c !== "{") throw new HarError(`entry ${this.entryIndex + 1}: not an object`);
      this.entryParts = [];
      this.captureFrom = i;
      this.entryStartDepth = this.stack.length;
    }
    this.structure(c, i);
  }

  /** What the character does to the nesting: a string or a container opens or closes, a member ends. */
  private structure(c: string, i: number): void {
    const { stack } = this;
    const top = stack[stack.length - 1];
    if (c === '"') {
      this.inString = true;
      if (top?.type === "object" && top.expectKey) {
        top.expectKey = false;
        if (stack.length <= 2) this.keyText = [];
      }
    } else if (c === "{" || c === "[") {
      if (c === "[" && stack.length === 2 && stack[0]!.key === "log" && stack[1]!.key === "entries") this.sawEntries = true;
      stack.push({ type: c === "{" ? "object" : "array", expectKey: c === "{" });
    } else if (c === "}" || c === "]") {
      const closing = stack.pop();
      if (!closing || (closing.type === "object") !== (c === "}")) throw new HarError(`not a HAR file: not JSON (unexpected ${c} at byte ${this.offset + i})`);
      if (stack.length === 0) this.finished = true;
    } else if (c === ",") {
      if (top?.type === "object") {
        top.expectKey = true;
        top.key = undefined;
      }
    } else if (c !== ":" && !/[-0-9tfnrueals.eE+]/.test(c)) {
      // (":" : the value of the current key follows.)
      throw new HarError(`not a HAR file: not JSON (unexpected ${JSON.stringify(c)} at byte ${this.offset + i}${this.entryParts ? `, in entry ${this.entryIndex + 1}` : ""})`);
    }
  }

  /** The entry's text when the scanner is back at the entries array's depth. */
  private entryEnd(chunk: string, i: number): string | undefined {
    if (!this.entryParts || chunk[i] !== "}" || this.stack.length !== this.entryStartDepth) return undefined;
    this.entryParts.push(chunk.slice(this.captureFrom, i + 1));
    const text = this.entryParts.join("");
    this.entryParts = undefined;
    this.captureFrom = -1;
    this.entryIndex += 1;
    return text;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function headersOf(value: unknown, where: string): Record<string, string> {
  if (!Array.isArray(value)) throw new HarError(`${where} is not a list of {name, value}`);
  return lowerCaseHeaders(
    value.map((h, i) => {
      if (!isObject(h) || typeof h.name !== "string" || typeof h.value !== "string") throw new HarError(`${where}[${i}] is not a {name, value} pair of strings`);
      return [h.name, h.value] as [string, string];
    }),
  );
}

/** One HAR entry as an exchange (`index` counts from 0); a HarError says what is wrong with it. */
export function exchangeOfEntry(text: string, index: number, maxBody: number): TrafficExchange & { noResponse?: boolean } {
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch (error) {
    throw new HarError(`entry ${index + 1}: not JSON (${(error as Error).message})`);
  }
  return exchangeOfParsedEntry(entry, index, maxBody);
}

/** One parsed HAR entry as an exchange (`index` counts from 0); a HarError says what is wrong with it. */
export function exchangeOfParsedEntry(entry: unknown, index: number, maxBody: number): TrafficExchange & { noResponse?: boolean } {
  const label = `entry ${index + 1}`;
  try {
    if (!isObject(entry)) throw new HarError("not an object");
    const { request, response } = entry;
    if (!isObject(request)) throw new HarError("request is missing");
    if (!isObject(response)) throw new HarError("response is missing");
    if (typeof request.method !== "string") throw new HarError("request.method is not a string");
    if (typeof request.url !== "string") throw new HarError("request.url is not a string");
    try {
      new URL(request.url);
    } catch {
      throw new HarError(`request.url is not an absolute URL: ${JSON.stringify(request.url.slice(0, 80))}`);
    }
    if (typeof response.status !== "number") throw new HarError("response.status is not a number");
    const startedAt = typeof entry.startedDateTime === "string" ? Date.parse(entry.startedDateTime) : NaN;
    if (Number.isNaN(startedAt)) throw new HarError("startedDateTime is not an ISO 8601 date");
    const time = typeof entry.time === "number" && entry.time >= 0 ? entry.time : 0;
    const postData = isObject(request.postData) ? request.postData : undefined;
    const requestBody = typeof postData?.text === "string" ? postData.text : undefined;
    const content = isObject(response.content) ? response.content : undefined;
    let responseBody = typeof content?.text === "string" ? content.text : undefined;
    if (responseBody !== undefined && content?.encoding === "base64") responseBody = Buffer.from(responseBody, "base64").toString("utf8");
    const size = typeof content?.size === "number" ? content.size : (responseBody?.length ?? 0);
    const tooLarge = (text?: string) => text !== undefined && Buffer.byteLength(text) > maxBody;
    return {
      id: index + 1,
      startedAt,
      endedAt: startedAt + time,
      method: request.method.toUpperCase(),
      url: request.url,
      requestHeaders: headersOf(request.headers, "request.headers"),
      requestBody: tooLarge(requestBody) ? undefined : requestBody,
      requestBodyTooLarge: tooLarge(requestBody),
      status: response.status,
      responseHeaders: headersOf(response.headers, "response.headers"),
      responseBody: tooLarge(responseBody) ? undefined : responseBody,
      responseBodyTooLarge: tooLarge(responseBody) || size > maxBody,
      responseBodyNotRecorded: responseBody === undefined && size > 0,
      // A browser records status 0 for a request that got no answer (blocked, aborted).
      noResponse: response.status === 0,
    };
  } catch (error) {
    if (error instanceof HarError) throw new HarError(`${label}: ${error.message}`);
    throw error;
  }
}
