/**
 * The bundle's exchanges.har: every exchange of the run as a HAR 1.2 entry, in the order the
 * requests went out, secrets replaced by their fingerprints. HAR's custom members (an
 * underscore first) carry what the run knows of each entry:
 *
 * - `_checks`: the results of report.json the exchange belongs to (the check that sent it, or
 *   for a generic check class the result it was judged for);
 * - `_tags`: every name it was sent under, results or not (`provision/charge`, `exhaust`,
 *   `preflight`, a generic class's unit);
 * - `_direction: "received"`: a webhook delivery the run received (the server's request, the
 *   run's answer);
 * - `_retried: true`: a 429 the run answered by waiting and sending the request again;
 * - `_error`: why a request got no answer (its response has status 0, as browsers record one).
 *
 * One entry per line, so that the file reads and diffs line by line; the traffic engine's
 * streaming reader reads it as any HAR.
 */
import { STATUS_CODES } from "node:http";
import { HarError, exchangeOfParsedEntry } from "../traffic/har-reader.ts";
import type { TrafficExchange } from "../traffic/exchange.ts";
import { tagsOf, type RecordedExchange } from "./recorder.ts";
import type { Redactor } from "./secrets.ts";

export interface HarCreator {
  name: string;
  version: string;
}

/** What verify reads of an entry beside the exchange itself. */
export interface BundleEntry {
  exchange: TrafficExchange & { noResponse?: boolean };
  checks: string[];
  tags: string[];
  received: boolean;
  retried: boolean;
  /** The response body was recorded as bytes (base64): its text is not the run's own reading. */
  binary: boolean;
}

const TEXT_TYPES = /^(text\/|application\/([\w.+-]*\+)?(json|xml|x-www-form-urlencoded))/i;

function mediaType(headers: Record<string, string>): string {
  return headers["content-type"] ?? "";
}

function harHeaders(headers: Record<string, string>, redactor: Redactor): Array<{ name: string; value: string }> {
  return Object.entries(headers).map(([name, value]) => ({ name, value: redactor.redact(value) }));
}

/** The response body as HAR content: text where the bytes are text, else base64. */
function content(exchange: RecordedExchange, redactor: Redactor): { size: number; mimeType: string; text: string; encoding?: "base64" } {
  const mimeType = mediaType(exchange.responseHeaders);
  const bytes = exchange.responseBytes;
  if (bytes && !TEXT_TYPES.test(mimeType) && !Buffer.from(exchange.responseBody, "utf8").equals(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))) {
    return { size: bytes.byteLength, mimeType, text: Buffer.from(bytes).toString("base64"), encoding: "base64" };
  }
  const text = redactor.redact(exchange.responseBody);
  return { size: Buffer.byteLength(text), mimeType, text };
}

function entryOf(exchange: RecordedExchange, results: ReadonlySet<string>, redactor: Redactor): Record<string, unknown> {
  const url = redactor.redact(exchange.url);
  const time = Math.max(0, exchange.endedAt - exchange.startedAt);
  const tags = tagsOf(exchange);
  const body = redactor.redact(exchange.requestBody);
  return {
    startedDateTime: new Date(exchange.startedAt).toISOString(),
    time,
    request: {
      method: exchange.method,
      url,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: harHeaders(exchange.requestHeaders, redactor),
      queryString: [...new URL(url).searchParams].map(([name, value]) => ({ name, value })),
      ...(body !== undefined ? { postData: { mimeType: mediaType(exchange.requestHeaders), text: body } } : {}),
      headersSize: -1,
      bodySize: body === undefined ? 0 : Buffer.byteLength(body),
    },
    response: {
      status: exchange.status,
      statusText: STATUS_CODES[exchange.status] ?? "",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: harHeaders(exchange.responseHeaders, redactor),
      content: content(exchange, redactor),
      redirectURL: exchange.responseHeaders.location ?? "",
      headersSize: -1,
      bodySize: exchange.responseBytes?.byteLength ?? Buffer.byteLength(exchange.responseBody),
    },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    _checks: tags.filter((tag) => results.has(tag)),
    _tags: tags,
    ...(exchange.direction === "received" ? { _direction: "received" } : {}),
    ...(exchange.retried ? { _retried: true } : {}),
    ...(exchange.error ? { _error: redactor.redact(exchange.error) } : {}),
  };
}

/** The HAR text of a run's exchanges; `results`: the ids of report.json's results. */
export function harText(exchanges: RecordedExchange[], results: ReadonlySet<string>, redactor: Redactor, creator: HarCreator): string {
  const head = JSON.stringify({ version: "1.2", creator, pages: [] }).slice(0, -1);
  const entries = exchanges.map((exchange) => JSON.stringify(entryOf(exchange, results, redactor)));
  return `{"log":${head},"entries":[\n${entries.join(",\n")}\n]}}\n`;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

/** The entries of a bundle's HAR text; a HarError names the entry and what is wrong. */
export function bundleEntries(text: string): BundleEntry[] {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new HarError(`not JSON (${(error as Error).message})`);
  }
  const entries = (document as { log?: { entries?: unknown } } | null)?.log?.entries;
  if (!Array.isArray(entries)) throw new HarError("no log.entries array");
  return entries.map((entry, index) => {
    const exchange = exchangeOfParsedEntry(entry, index, Number.POSITIVE_INFINITY);
    const raw = entry as Record<string, unknown>;
    const content = (raw.response as { content?: { encoding?: unknown } } | undefined)?.content;
    return { exchange, checks: strings(raw._checks), tags: strings(raw._tags), received: raw._direction === "received", retried: raw._retried === true, binary: content?.encoding === "base64" };
  });
}
