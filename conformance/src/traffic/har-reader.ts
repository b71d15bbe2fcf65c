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
  const stack: Frame[] = [];
  let inString = false;
  let escaped = false;
  let keyText: string[] | undefined;
  let started = false;
  let entryParts: string[] | undefined;
  let entryStartDepth = -1;
  let entryIndex = 0;
  let offset = 0;
  let sawEntries = false;
  let finished = false;
  const inEntries = () => stack.length === 3 && stack[2]!.type === "array" && stack[0]!.key === "log" && stack[1]!.key === "entries";

  const stream = createReadStream(path, { highWaterMark: 1 << 16 });
  try {
    for await (const raw of stream as AsyncIterable<Buffer>) {
      const chunk = decoder.write(raw);
      let captureFrom = entryParts ? 0 : -1;
      const ready: string[] = [];
      for (let i = 0; i < chunk.length; i++) {
        const c = chunk[i]!;
        if (inString) {
          if (escaped) escaped = false;
          else if (c === "\\") escaped = true;
          else if (c === '"') {
            inString = false;
            if (keyText) {
              stack[stack.length - 1]!.key = keyText.join("");
              keyText = undefined;
            }
          } else if (keyText && keyText.length < 64) keyText.push(c);
          continue;
        }
        if (c === " " || c === "\n" || c === "\r" || c === "\t") continue;
        if (!started) {
          if (c !== "{") throw new HarError(`not a HAR file: not JSON (it begins with ${JSON.stringify(chunk.slice(i, i + 20))})`);
          started = true;
        } else if (finished) {
          throw new HarError(`not a HAR file: text after the end of the JSON document (byte ${offset + i})`);
        }
        // A value starts inside log.entries: an entry begins.
        if (!entryParts && inEntries() && c !== "," && c !== "]") {
          if (c !== "{") throw new HarError(`entry ${entryIndex + 1}: not an object`);
          entryParts = [];
          captureFrom = i;
          entryStartDepth = stack.length;
        }
        const top = stack[stack.length - 1];
        if (c === '"') {
          inString = true;
          if (top?.type === "object" && top.expectKey) {
            top.expectKey = false;
            if (stack.length <= 2) keyText = [];
          }
        } else if (c === "{" || c === "[") {
          if (c === "[" && stack.length === 2 && stack[0]!.key === "log" && stack[1]!.key === "entries") sawEntries = true;
          stack.push({ type: c === "{" ? "object" : "array", expectKey: c === "{" });
        } else if (c === "}" || c === "]") {
          const closing = stack.pop();
          if (!closing || (closing.type === "object") !== (c === "}")) throw new HarError(`not a HAR file: not JSON (unexpected ${c} at byte ${offset + i})`);
          if (stack.length === 0) finished = true;
        } else if (c === ",") {
          if (top?.type === "object") {
            top.expectKey = true;
            top.key = undefined;
          }
        } else if (c === ":") {
          // the value of the current key follows
        } else if (!/[-0-9tfnrueals.eE+]/.test(c)) {
          throw new HarError(`not a HAR file: not JSON (unexpected ${JSON.stringify(c)} at byte ${offset + i}${entryParts ? `, in entry ${entryIndex + 1}` : ""})`);
        }
        // The entry ends when the scanner is back at the entries array's depth.
        if (entryParts && c === "}" && stack.length === entryStartDepth) {
          entryParts.push(chunk.slice(captureFrom, i + 1));
          ready.push(entryParts.join(""));
          entryParts = undefined;
          captureFrom = -1;
          entryIndex += 1;
        }
      }
      if (entryParts && captureFrom >= 0) entryParts.push(chunk.slice(captureFrom));
      offset += chunk.length;
      for (const text of ready) yield text;
    }
  } finally {
    stream.destroy();
  }
  if (!started) throw new HarError("not a HAR file: the file is empty");
  if (entryParts || inString || stack.length > 0) {
    const where = entryParts ? `inside entry ${entryIndex + 1}` : sawEntries ? `after entry ${entryIndex}, before log.entries closes` : "before log.entries";
    throw new HarError(`truncated HAR file: it ends ${where} (byte ${offset})`);
  }
  if (!sawEntries) throw new HarError("not a HAR file: no log.entries array");
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
