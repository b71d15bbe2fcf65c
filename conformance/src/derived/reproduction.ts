/**
 * Minimal reproductions of a failure: one curl command line per request, the API key never
 * printed (shown as `$API_KEY`, with the name of the key the target file holds beside it).
 */
/** A request as a class builds it: the operation, the concrete URL, headers without the key, the body. */
export interface PlannedRequest {
  operationId: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** Headers a reproduction leaves out: they say nothing of the fault. */
const NOISE = new Set(["accept", "user-agent", "content-length", "host", "connection"]);

export function curlOf(request: PlannedRequest, keyHeader: string | undefined, keyLabel: string): string {
  const parts = [`curl -i -X ${request.method} ${quote(request.url)}`];
  if (keyHeader) parts.push(`-H "${keyHeader}: $API_KEY"`);
  for (const [name, value] of Object.entries(request.headers)) {
    if (NOISE.has(name.toLowerCase()) || (keyHeader && name.toLowerCase() === keyHeader.toLowerCase())) continue;
    parts.push(`-H ${quote(`${name}: ${value}`)}`);
  }
  if (request.body !== undefined) {
    // curl names a body `application/x-www-form-urlencoded` unless told otherwise: a body sent without a type is sent so.
    if (!Object.keys(request.headers).some((name) => name.toLowerCase() === "content-type")) parts.push(`-H 'Content-Type:'`);
    parts.push(`--data ${quote(request.body)}`);
  }
  const comment = keyHeader ? `  # API_KEY: the target's ${keyLabel} key` : "  # no API key";
  return `${parts.join(" ")}${comment}`;
}
