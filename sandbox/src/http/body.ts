/**
 * Reading and parsing request bodies defensively: a size limit, a JSON media type, JSON that
 * parses, and a bounded nesting depth (so that no later step can overflow the stack).
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

/** Depth of a parsed JSON value, computed without recursion. */
export function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (depth > max) max = depth;
    if (depth > MAX_JSON_DEPTH) return depth;
    if (current !== null && typeof current === "object") {
      for (const child of Object.values(current as Record<string, unknown>)) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return max;
}

/** Refuses invalid UTF-8; without `stream` a decode keeps no state, so one decoder serves all. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

export type ParsedBody = { kind: "ok"; value: unknown } | { kind: "invalid"; reason: string };

/** Parses a JSON body: valid UTF-8, valid JSON, bounded depth. */
export function parseJsonBody(bytes: Buffer): ParsedBody {
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
  if (jsonDepth(value) > MAX_JSON_DEPTH) return { kind: "invalid", reason: `the body is nested deeper than ${MAX_JSON_DEPTH} levels` };
  return { kind: "ok", value };
}
