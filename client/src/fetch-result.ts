/**
 * The result of a direct call, made exactly as openapi-fetch 0.17 makes it at the end of its
 * `coreFetch`, so a caller cannot tell which path a call took:
 * - no body to read (204, a HEAD request, `Content-Length: 0` unless chunked):
 *   `{ data: undefined }` or `{ error: undefined }` by `response.ok`;
 * - 2xx: `data` read as `parseAs` ("json" by default; JSON without Content-Length is read as
 *   text and an empty text gives undefined; "stream" gives the body stream as it is);
 * - otherwise `error`: the body parsed as JSON, or the raw text when it is not JSON.
 * Written with `then` rather than `await`: one promise per step, nothing more per call.
 */

export interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** openapi-fetch's `parseAs` values; a direct call takes only these (see direct-call.ts). */
export const PARSE_AS = new Set(["json", "text", "blob", "arrayBuffer", "stream"] as const);
export type ParseAs = typeof PARSE_AS extends Set<infer Value> ? Value : never;

export function readResult(response: Response, method: string, parseAs: ParseAs): FetchResult | Promise<FetchResult> {
  const contentLength = response.headers.get("Content-Length");
  if (
    response.status === 204 ||
    method === "HEAD" ||
    (contentLength === "0" && !response.headers.get("Transfer-Encoding")?.includes("chunked"))
  ) {
    return response.ok ? { data: undefined, response } : { error: undefined, response };
  }
  if (response.ok) {
    if (parseAs === "stream") return { data: response.body, response };
    if (parseAs === "json" && !contentLength) {
      return response.text().then((raw) => ({ data: raw ? JSON.parse(raw) : undefined, response }));
    }
    const read: Promise<unknown> =
      parseAs === "json" ? response.json() : parseAs === "text" ? response.text() : parseAs === "blob" ? response.blob() : response.arrayBuffer();
    return read.then((data) => ({ data, response }));
  }
  return response.text().then((text) => {
    let error: unknown = text;
    try {
      error = JSON.parse(text);
    } catch {
      // not JSON: the raw text is the error, as in openapi-fetch
    }
    return { error, response };
  });
}
