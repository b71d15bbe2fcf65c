/**
 * Sends the suites' requests the way a careful client does, so that no check fails because
 * the suite itself exceeded a rate limit:
 *
 * - it reads `X-RateLimit-Remaining` / `X-RateLimit-Reset` from every response and, when a
 *   window is used up, waits for it to renew before sending more on that account;
 * - on a 429 the check did not ask for, it waits `Retry-After` seconds (or until the reset)
 *   and sends the request again.
 *
 * Limits are per account, so requests are grouped in buckets (one per account the target
 * names); within an account, each limit the server reports (general, PIX creations, queries...)
 * is followed on its own. A request that deliberately exhausts a limit is marked
 * `expectRateLimited` and gets its 429 back unchanged.
 *
 * Every exchange is kept (bounded) so that a failing check can show what went over the wire.
 */
import { connectionProblem } from "./connection-problem.ts";
import { sendHttp, type HttpAnswer } from "./http-client.ts";
import { currentCheck } from "./check-scope.ts";
import type { ObservedResponse } from "./validate.ts";

export interface OutgoingRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Rate-limit bucket (an account); requests without one are not paced. */
  bucket?: string;
  /** The check wants a 429: return it instead of waiting and retrying. */
  expectRateLimited?: boolean;
  /** Id of the check that sent it, for the exchange log. */
  checkId?: string;
}

/** A request and its response, as text. */
interface RequestAndResponse {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
}

export interface Exchange extends RequestAndResponse {
  checkId?: string;
  durationMs: number;
  /** 429s answered by waiting and sending again. */
  retries: number;
}

/**
 * One exchange as it went over the wire, for a recording of the whole run (the bundle's HAR):
 * every request, also the 429s answered by waiting and sending again, and the exchanges a check
 * makes outside the pacer (a webhook delivery it received, a request it had to send as is).
 */
export interface WireExchange extends RequestAndResponse {
  /** Order in which the requests went out (or the deliveries came in), from 1. */
  seq: number;
  /** Epoch milliseconds. */
  startedAt: number;
  endedAt: number;
  /** The check that named itself on the request, and the check running when it went out (check-scope.ts). */
  checkId?: string;
  scope?: string;
  /** `sent`: the run's request; `received`: a request the server made to the run (a webhook delivery). */
  direction: "sent" | "received";
  /** The response body's bytes, when it was read as bytes (a PNG is not text). */
  responseBytes?: Uint8Array;
  /** A 429 the pacer answered by waiting and sending the request again. */
  retried?: boolean;
  /** The request got no answer (status 0): why ("POST /v1/charges: connection closed"). */
  error?: string;
}

interface BucketState {
  remaining?: number;
  /** Epoch milliseconds at which the window renews. */
  resetAt?: number;
}

export interface PacerOptions {
  /** Longest single wait, in seconds (a Retry-After beyond it is capped). */
  maxWaitSeconds?: number;
  /** How many times a request refused with 429 is sent again. */
  maxRetries?: number;
  /** Per-request timeout in milliseconds. */
  timeoutMs?: number;
  /** Keep at most this many exchanges. */
  keepExchanges?: number;
  /** Called with a line whenever the pacer waits. */
  onWait?: (line: string) => void;
  /** Called with the length of each wait and its reason, for a countdown. */
  onPause?: (ms: number, why: string) => void;
  /** Called with every exchange as it ends, for a recording of the run. */
  onExchange?: (exchange: WireExchange) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds or Unix time in `X-RateLimit-Reset`: both are seen in the wild. */
export function resetInstant(raw: string | undefined, now = Date.now()): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw.trim());
  if (!Number.isFinite(value) || value < 0) return undefined;
  return value > 1e9 ? value * 1000 : now + value * 1000;
}

/** A non-negative integer header value; anything else is ignored. */
function integerHeader(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw.trim());
  return Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * The kind of a request for rate limiting: its method and path with the segments that look
 * like ids (any digit) generalised, so that GET /pix/123 and GET /pix/456 are one kind.
 */
export function requestKind(request: Pick<OutgoingRequest, "method" | "url">): string {
  const path = new URL(request.url).pathname.replace(/[^/]*\d[^/]*/g, ":id");
  return `${request.method.toUpperCase()} ${path}`;
}

/** What the server admitted on one bucket (account): in all, and by the limit it reported. */
export interface BucketUsage {
  bucket: string;
  requests: number;
  /** Admitted requests by the X-RateLimit-Limit their response reported. */
  byLimit: Record<string, number>;
}

/** Methods whose request may be sent again after a connection failure (RFC 9110 §9.2.1). */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** A failure because the server closed or reset the connection under the request (the error or one of its causes says so). */
function closedConnection(error: unknown): boolean {
  for (let err = error as { code?: string; cause?: unknown } | undefined; err; err = err.cause as typeof err) {
    if (["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"].includes(err.code ?? "")) return true;
  }
  return false;
}

export class Pacer {
  private readonly buckets = new Map<string, BucketState>();
  private readonly options: Required<Omit<PacerOptions, "onWait" | "onPause" | "onExchange">> & Pick<PacerOptions, "onWait" | "onPause" | "onExchange">;
  readonly exchanges: Exchange[] = [];
  /** Wall-clock time spent waiting for windows to renew, in milliseconds. */
  waitedMs = 0;
  requests = 0;
  private readonly admitted = new Map<string, BucketUsage>();

  /** Requests the server admitted (anything but a 429), per bucket: what the run's pacing had to fit in the windows. */
  usage(): BucketUsage[] {
    return [...this.admitted.values()];
  }

  private count(bucket: string, response: ObservedResponse): void {
    if (response.status === 429) return;
    let usage = this.admitted.get(bucket);
    if (!usage) {
      usage = { bucket, requests: 0, byLimit: {} };
      this.admitted.set(bucket, usage);
    }
    usage.requests += 1;
    const limit = integerHeader(response.headers["x-ratelimit-limit"]);
    if (limit !== undefined) usage.byLimit[limit] = (usage.byLimit[limit] ?? 0) + 1;
  }

  constructor(options: PacerOptions = {}) {
    this.options = { maxWaitSeconds: 120, maxRetries: 5, timeoutMs: 30_000, keepExchanges: 2_000, ...options };
  }

  /**
   * A server may report, on each response, the limit closest to exhaustion among several that
   * apply (the document's general, PIX, transaction and query limits): the state is kept per
   * account and reported limit, and each kind of request remembers which limit it last saw.
   */
  private readonly limitOfRequest = new Map<string, string>();

  private limitState(key: string): BucketState {
    let state = this.buckets.get(key);
    if (!state) {
      state = {};
      this.buckets.set(key, state);
    }
    return state;
  }

  private waiting = 0;
  private waitingSince = 0;

  private async wait(ms: number, why: string): Promise<void> {
    const capped = Math.min(Math.max(ms, 0), this.options.maxWaitSeconds * 1000);
    if (capped <= 0) return;
    this.options.onWait?.(`waiting ${(capped / 1000).toFixed(1)} s: ${why}`);
    this.options.onPause?.(capped, why);
    // Wall-clock time during which some request waited (parallel waits count once).
    if (this.waiting === 0) this.waitingSince = Date.now();
    this.waiting += 1;
    try {
      // A timer may end a millisecond or so before Date.now() reaches its end (it is timed on
      // another clock, in whole milliseconds): what is left is slept again, so that a check that
      // waited until a moment finds it reached (one or two waits in a hundred ended early).
      const end = Date.now() + capped;
      for (let left = capped; left > 0; left = end - Date.now()) await sleep(left);
    } finally {
      this.waiting -= 1;
      if (this.waiting === 0) this.waitedMs += Date.now() - this.waitingSince;
    }
  }

  /** Waits until `atMs` (epoch) for a check that needs a fresh window; counted as pacing. */
  async waitUntil(atMs: number, why: string): Promise<void> {
    await this.wait(atMs - Date.now(), why);
  }

  /** The limit a request counts against, as far as the server told: `<bucket> <limit>`. */
  private limitKey(bucket: string, request: OutgoingRequest): string | undefined {
    return this.limitOfRequest.get(`${bucket} ${requestKind(request)}`);
  }

  /**
   * What the run knows of the current window of the limit this request counts against on its
   * bucket: the requests left (the server's answers, less the run's own requests in flight) and
   * when it renews; undefined when nothing is known (no answer yet, or the window has renewed).
   */
  knownWindow(request: OutgoingRequest): { remaining: number; resetAt?: number } | undefined {
    const key = request.bucket === undefined ? undefined : this.limitKey(request.bucket, request);
    const state = key === undefined ? undefined : this.buckets.get(key);
    if (state?.remaining === undefined || (state.resetAt !== undefined && Date.now() >= state.resetAt)) return undefined;
    return { remaining: state.remaining, resetAt: state.resetAt };
  }

  /** Waits until the request's limit has room, then reserves one request in it. */
  private async acquire(bucket: string, request: OutgoingRequest): Promise<void> {
    const key = this.limitKey(bucket, request);
    if (!key) return;
    const state = this.limitState(key);
    const now = Date.now();
    if (state.resetAt !== undefined && now >= state.resetAt) {
      state.remaining = undefined;
      state.resetAt = undefined;
    }
    if (state.remaining !== undefined && state.remaining <= 0) {
      const until = state.resetAt ?? now + 1000;
      await this.wait(until - now + 100, `rate-limit window of ${bucket} used up (limit ${key.slice(bucket.length + 1)})`);
      // The next response tells how the window stands now.
      state.remaining = undefined;
      state.resetAt = undefined;
    }
    if (state.remaining !== undefined) state.remaining -= 1;
  }

  private observe(bucket: string, request: OutgoingRequest, headers: Record<string, string>): void {
    const limit = integerHeader(headers["x-ratelimit-limit"]);
    const remaining = integerHeader(headers["x-ratelimit-remaining"]);
    const resetAt = resetInstant(headers["x-ratelimit-reset"]);
    if (remaining === undefined && resetAt === undefined) return;
    const key = `${bucket} ${limit ?? "?"}`;
    this.limitOfRequest.set(`${bucket} ${requestKind(request)}`, key);
    const state = this.limitState(key);
    // A reset instant other than the known one means a new window: trust the server's count.
    const newWindow = resetAt !== undefined && state.resetAt !== undefined && Math.abs(resetAt - state.resetAt) > 1000;
    if (remaining !== undefined) {
      // Otherwise keep the lower of the server's count and ours (requests still in flight).
      state.remaining = Math.max(0, newWindow ? remaining : Math.min(remaining, state.remaining ?? remaining));
    }
    if (resetAt !== undefined) state.resetAt = resetAt;
  }

  /** After a 429: requests of that limit wait until it renews. */
  private exhausted(bucket: string, request: OutgoingRequest, untilMs: number): void {
    const key = this.limitKey(bucket, request) ?? `${bucket} ?`;
    this.limitOfRequest.set(`${bucket} ${requestKind(request)}`, key);
    const state = this.limitState(key);
    state.remaining = 0;
    state.resetAt = Math.max(state.resetAt ?? 0, untilMs);
  }

  /** Exchanges begun so far (sent or received): the order of the recording. */
  private begun = 0;

  /**
   * Records an exchange a check made outside the pacer (a webhook delivery it received, a
   * request sent as is): numbered in the run's order and passed to `onExchange`.
   */
  record(exchange: Omit<WireExchange, "seq" | "scope">): void {
    if (!this.options.onExchange) return;
    this.begun += 1;
    this.options.onExchange({ ...exchange, seq: this.begun, scope: currentCheck() });
  }

  private async once(request: OutgoingRequest): Promise<{ response: ObservedResponse; durationMs: number; wire: WireExchange }> {
    const started = Date.now();
    this.begun += 1;
    const seq = this.begun;
    // A body without a Content-Type goes without one (fetch gave a text body `text/plain`; this client adds none).
    const send = () => sendHttp({ method: request.method, url: request.url, headers: request.headers, body: request.body }, this.options.timeoutMs);
    const sent = { seq, startedAt: started, checkId: request.checkId, scope: currentCheck(), direction: "sent" as const, method: request.method, url: request.url, requestHeaders: request.headers, requestBody: request.body };
    let response: HttpAnswer;
    try {
      response = await send();
    } catch (error) {
      // A kept-alive connection the server closed just as it was reused: a safe request is
      // sent once more on a new connection, as careful clients do. Anything else is reported.
      if (!SAFE_METHODS.has(request.method.toUpperCase()) || !closedConnection(error)) throw this.unanswered(request, sent, error);
      response = await send().catch((again: unknown) => {
        throw this.unanswered(request, sent, again);
      });
    }
    // The text the way response.text() reads it: a recording keeps the bytes.
    const bytes = response.bytes;
    const body = new TextDecoder().decode(bytes);
    this.requests += 1;
    const headers = response.headers;
    const ended = Date.now();
    const wire: WireExchange = { ...sent, endedAt: ended, status: response.status, responseHeaders: headers, responseBody: body, responseBytes: bytes };
    return { response: { status: response.status, headers, body }, durationMs: ended - started, wire };
  }

  /**
   * A request that got no answer, named with why: "POST /v1/charges: connection closed". It went
   * out all the same, so the recording holds it, with status 0 (HAR's "no response").
   */
  private unanswered(request: OutgoingRequest, sent: Omit<WireExchange, "endedAt" | "status" | "responseHeaders" | "responseBody">, error: unknown): Error {
    const failure = new Error(`${request.method} ${new URL(request.url).pathname}: ${connectionProblem(error, this.options.timeoutMs)}`, { cause: error });
    this.options.onExchange?.({ ...sent, endedAt: Date.now(), status: 0, responseHeaders: {}, responseBody: "", error: failure.message });
    return failure;
  }

  /** Sends a request, pacing it and retrying it after an unexpected 429. */
  async send(request: OutgoingRequest): Promise<ObservedResponse> {
    let retries = 0;
    for (;;) {
      // A request that wants the 429 goes out at once: waiting would defeat it.
      if (request.bucket && !request.expectRateLimited) await this.acquire(request.bucket, request);
      const { response, durationMs, wire } = await this.once(request);
      if (request.bucket) {
        this.observe(request.bucket, request, response.headers);
        this.count(request.bucket, response);
      }
      const refused = response.status === 429 && !request.expectRateLimited;
      this.options.onExchange?.({ ...wire, retried: refused && retries < this.options.maxRetries });
      if (!refused || retries >= this.options.maxRetries) {
        this.keep({ request, response, durationMs, retries });
        return response;
      }
      retries += 1;
      const retryAfter = integerHeader(response.headers["retry-after"]);
      const resetAt = resetInstant(response.headers["x-ratelimit-reset"]);
      const waitMs = retryAfter !== undefined ? retryAfter * 1000 : resetAt !== undefined ? resetAt - Date.now() : 1000;
      if (request.bucket) this.exhausted(request.bucket, request, Date.now() + Math.max(waitMs, 1000));
      else await this.wait(Math.max(waitMs, 1000), `429 on ${request.method} ${new URL(request.url).pathname}`);
    }
  }

  private keep(entry: { request: OutgoingRequest; response: ObservedResponse; durationMs: number; retries: number }): void {
    const { request, response } = entry;
    this.exchanges.push({
      checkId: request.checkId,
      method: request.method,
      url: request.url,
      requestHeaders: request.headers,
      requestBody: request.body,
      status: response.status,
      responseHeaders: response.headers,
      responseBody: response.body,
      durationMs: entry.durationMs,
      retries: entry.retries,
    });
    if (this.exchanges.length > this.options.keepExchanges) this.exchanges.splice(0, this.exchanges.length - this.options.keepExchanges);
  }
}
