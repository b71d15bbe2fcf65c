/**
 * Idempotency keys on the operations whose contract declares one (family A: POST /v1/charges
 * with `Idempotency-Key`; family B: POST /pix, /pix/payment, /transactions with
 * `X-Idempotency-Key`, decision D36). Which operations, which header and which lengths come
 * from the generated contract facts.
 *
 * The key is added to the call's options once per call, before openapi-fetch builds the
 * request: every retry of the call (in the transport, further down) repeats the same key and
 * the service can recognise the repeat.
 */
import { IdempotencyKeyError } from "./errors.ts";

/** How one operation takes its idempotency key (from the generated `contract` facts). */
export interface IdempotencyKeyRule {
  readonly name: string;
  readonly minLength: number;
  readonly maxLength: number | null;
}

/** A fresh random key (a UUID: 36 characters, well within 8..255). Browser and Node. */
export function generateIdempotencyKey(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto?.randomUUID === "function") return crypto.randomUUID();
  // Older browsers outside secure contexts: a v4 UUID from getRandomValues.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A call's options as far as this step cares: where a caller may have put a key. */
export interface CallOptions {
  params?: { header?: Record<string, unknown> } & Record<string, unknown>;
  headers?: HeadersInit | Record<string, unknown>;
  [option: string]: unknown;
}

/** The value of header `name` in any shape openapi-fetch accepts (Headers, pairs, record). */
function headerIn(headers: CallOptions["headers"], name: string): string | undefined {
  if (headers === undefined || headers === null) return undefined;
  if (typeof Headers !== "undefined" && headers instanceof Headers) return headers.get(name) ?? undefined;
  const lower = name.toLowerCase();
  const entries = Array.isArray(headers) ? headers : Object.entries(headers);
  const found = entries.find(([key]) => String(key).toLowerCase() === lower);
  return found?.[1] === undefined || found[1] === null ? undefined : String(found[1]);
}

/**
 * Adds a generated key to a call's options when the caller gave none; refuses a caller's key
 * outside the contract's lengths (the service would reject it anyway, after a round trip).
 * `rules` is keyed by `"METHOD /path/template"`; the call is identified by its method and
 * the path template it was made with. Returns the options to call openapi-fetch with.
 */
export function idempotencyStep(
  rules: Readonly<Record<string, IdempotencyKeyRule>>,
  newKey: () => string = generateIdempotencyKey,
): (method: string, path: string, options: CallOptions | undefined) => CallOptions | undefined {
  return (method, path, options) => {
    const rule = rules[`${method} ${path}`];
    if (rule === undefined) return options;
    const raw = options?.params?.header?.[rule.name];
    const given = raw === undefined || raw === null ? headerIn(options?.headers, rule.name) : String(raw);
    if (given === undefined) {
      // In params.header, which openapi-fetch merges last: nothing can override it by accident.
      // Copies then assignments rather than `{ ...options, params }`: V8 adds a key to a
      // spread copy through its slow path, about a microsecond per call.
      const header: Record<string, unknown> = Object.assign({}, options?.params?.header);
      header[rule.name] = newKey();
      const params: NonNullable<CallOptions["params"]> = Object.assign({}, options?.params);
      params.header = header;
      const withKey: CallOptions = Object.assign({}, options);
      withKey.params = params;
      return withKey;
    }
    if (given.length < rule.minLength || (rule.maxLength !== null && given.length > rule.maxLength)) {
      throw new IdempotencyKeyError(rule.name, given.length, rule.minLength, rule.maxLength);
    }
    return options;
  };
}
