/**
 * Retries of 429 and 503 responses and of network errors, in the transport given to
 * openapi-fetch as its `fetch`. Because it runs after the key was added, every attempt of one
 * call sends the very same request, headers included: the idempotency key is reused on each
 * retry by construction.
 *
 * Rules:
 * - Only requests that are safe to repeat are retried: idempotent methods (GET, HEAD,
 *   OPTIONS, PUT, DELETE) and other requests that carry an idempotency key header.
 * - The wait honours `Retry-After` (seconds or HTTP date), then `X-RateLimit-Reset` (Unix
 *   seconds); otherwise capped exponential backoff with full jitter.
 * - Attempts are bounded; a server-requested wait above `maxRetryAfterMs` is not honoured
 *   by waiting: the response goes back to the caller instead.
 */
import type { RequestLike } from "./client-request.ts";
import { NetworkError } from "./errors.ts";

export interface RetryEvent {
  /** 1-based number of the attempt that just failed. */
  attempt: number;
  /** Milliseconds the client waits before the next attempt. */
  delayMs: number;
  /** Where the wait comes from. */
  source: "retry-after" | "rate-limit-reset" | "backoff";
  /** HTTP status that triggered the retry; undefined for a network error. */
  status?: number;
  method: string;
  url: string;
}

export interface RetryOptions {
  /** Total attempts of one call, the first included (default 3; 1 disables retries). */
  maxAttempts?: number;
  /** First backoff step in milliseconds (default 200), doubled at each attempt. */
  baseDelayMs?: number;
  /** Cap of the backoff in milliseconds (default 5 000). */
  maxDelayMs?: number;
  /** Longest server-requested wait (Retry-After, X-RateLimit-Reset) the client honours (default 60 000). */
  maxRetryAfterMs?: number;
  /** Response statuses that are retried (default 429 and 503). */
  statuses?: readonly number[];
  /** Waits `ms` milliseconds; injectable so that tests need not really wait. */
  sleep?: (ms: number, signal?: AbortSignal | null) => Promise<void>;
  /** Current time in milliseconds since the epoch (default Date.now). */
  now?: () => number;
  /** Random number in [0, 1) for the jitter (default Math.random). */
  random?: () => number;
  /** Called before each wait; for logging and metrics. */
  onRetry?: (event: RetryEvent) => void;
}

/** Sends one request (one attempt). */
type Transport = (request: RequestLike) => Promise<Response>;

const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"]);

/** Sleeps, or rejects as soon as the request's signal aborts. Timer-based: works in browsers. */
export function defaultSleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Milliseconds the response asks the client to wait, and where that comes from. */
function serverRequestedDelay(response: Response, now: number): { ms: number; source: RetryEvent["source"] } | undefined {
  const retryAfter = response.headers.get("Retry-After");
  if (retryAfter !== null && retryAfter.trim() !== "") {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return { ms: Math.max(0, seconds * 1000), source: "retry-after" };
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return { ms: Math.max(0, date - now), source: "retry-after" };
  }
  const reset = Number(response.headers.get("X-RateLimit-Reset") ?? Number.NaN);
  if (Number.isFinite(reset) && reset * 1000 > now) return { ms: reset * 1000 - now, source: "rate-limit-reset" };
  return undefined;
}

/**
 * Wraps `send` (one attempt) with the retry policy. `keyHeaders` are the idempotency key headers of
 * the family: a non-idempotent request is retried only when it carries one of them.
 */
export function withRetries(send: Transport, options: RetryOptions | false | undefined, keyHeaders: readonly string[]): Transport {
  /** One attempt, no retry: a network failure becomes NetworkError (an abort stays as it is). */
  const sendOnce: Transport = async (request) => {
    try {
      return await send(request);
    } catch (error) {
      throw request.signal?.aborted ? error : new NetworkError(1, { cause: error });
    }
  };
  if (options === false || (options?.maxAttempts ?? 3) <= 1) return sendOnce;
  const maxAttempts = options?.maxAttempts ?? 3;
  const baseDelayMs = options?.baseDelayMs ?? 200;
  const maxDelayMs = options?.maxDelayMs ?? 5_000;
  const maxRetryAfterMs = options?.maxRetryAfterMs ?? 60_000;
  const statuses = new Set(options?.statuses ?? [429, 503]);
  const sleep = options?.sleep ?? defaultSleep;
  const now = options?.now ?? Date.now;
  const random = options?.random ?? Math.random;
  const onRetry = options?.onRetry;

  const mayRepeat = (request: RequestLike) =>
    IDEMPOTENT_METHODS.has(request.method) || keyHeaders.some((name) => request.headers.has(name));
  const backoff = (attempt: number) => Math.floor(random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1)));

  return async function fetchWithRetries(request: RequestLike): Promise<Response> {
    if (!mayRepeat(request)) return sendOnce(request);
    for (let attempt = 1; ; attempt += 1) {
      const last = attempt === maxAttempts;
      // A body can be read once: keep the original intact for the next attempt.
      const sending = last || request.body === null ? request : request.clone();
      let response: Response;
      try {
        response = await send(sending);
      } catch (error) {
        if (request.signal?.aborted) throw error;
        if (last) throw new NetworkError(attempt, { cause: error });
        const delayMs = backoff(attempt);
        onRetry?.({ attempt, delayMs, source: "backoff", method: request.method, url: request.url });
        await sleep(delayMs, request.signal);
        continue;
      }
      if (last || !statuses.has(response.status)) return response;
      const requested = serverRequestedDelay(response, now());
      if (requested && requested.ms > maxRetryAfterMs) return response;
      const delay = requested ?? { ms: backoff(attempt), source: "backoff" as const };
      await response.body?.cancel(); // release the connection before waiting
      onRetry?.({ attempt, delayMs: delay.ms, source: delay.source, status: response.status, method: request.method, url: request.url });
      await sleep(delay.ms, request.signal);
    }
  };
}
