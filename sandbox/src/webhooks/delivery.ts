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

/** How much of a receiver's answer is read (only its status matters); the rest is dropped. */
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
      agent: false,
      // The certificate is checked against the URL's name, not the address connected to.
      ...(https ? { servername: target.host } : {}),
    });
    req.once("error", reject);
    req.once("response", (res: IncomingMessage) => {
      let read = 0;
      const status = res.statusCode ?? 0;
      const done = () => {
        res.removeAllListeners("data");
        req.destroy();
        resolve(status);
      };
      res.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_RESPONSE_BYTES) done();
      });
      res.once("end", done);
      res.once("error", done);
      res.once("aborted", done);
    });
    req.end(body);
  });
}

/** Delays between attempts (decision D26). */
export const DEFAULT_RETRY_DELAYS_MS = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400].map((s) => s * 1000);

/** Longest delay setTimeout accepts. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Events claimed per look at the outbox. */
const CLAIM_BATCH = 100;
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

/** Starts delivering: events left by an earlier run (a restart) are picked up at once. */
export function startOutboxDelivery(
  store: SandboxStore,
  guard: TargetGuard,
  secrets: (accountId: string) => Promise<string[]>,
  options: DeliveryOptions,
): OutboxDelivery {
  const { retryDelaysMs: delays, jitter, timeoutMs } = options;
  const controllers = new Set<AbortController>();
  const inFlight = new Set<Promise<void>>();
  const log: DeliveryAttempt[] = [];
  let timer: NodeJS.Timeout | undefined;
  let unavailableSince: number | undefined;
  let pumping = false;
  let pumpAgain = false;
  let closed = false;

  const record = (entry: DeliveryAttempt) => {
    log.push(entry);
    if (log.length > ATTEMPTS_KEPT) log.shift();
  };

  /** Settles a claimed attempt and logs it (nothing happens when the lease was lost meanwhile). */
  async function settle(
    event: ClaimedEvent,
    change: Pick<OutboxEvent, "state" | "attempts" | "nextAttemptMs" | "lastError">,
    log: Omit<AttemptLog, "instance" | "nextAttemptMs" | "attempt">,
  ): Promise<void> {
    const attempt: AttemptLog = { ...log, attempt: change.attempts, instance: options.instance, nextAttemptMs: change.state === "pending" ? change.nextAttemptMs : null };
    await store.outboxSettle(event.id, event.lease, change, attempt);
  }

  /** One attempt at one claimed event, then its new state in the outbox. */
  async function deliver(event: ClaimedEvent): Promise<void> {
    const number = event.attempts + 1;
    const startedMs = Date.now();
    const target = await guard.resolveTarget(event.url);
    if (target.kind === "refused") {
      // A target that may not be called will not become callable by waiting: give up now.
      const endedMs = Date.now();
      record({ eventId: event.id, type: event.type, url: event.url, attempt: number, outcome: "refused", detail: target.problem, startedMs, endedMs });
      await settle(event, { state: "failed", attempts: number, nextAttemptMs: startedMs, lastError: target.problem }, { startedMs, endedMs, outcome: "refused", error: target.problem });
      return;
    }
    let detail: string;
    let delivered = false;
    if (target.kind === "transient") {
      // A name that does not resolve now (EAI_AGAIN, ENOTFOUND) may resolve later: retried like a refused connection.
      detail = target.problem;
    } else {
      const signing = await secrets(event.accountId);
      const sentAt = new Date();
      const controller = new AbortController();
      controllers.add(controller);
      const abort = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      try {
        const status = await post(
          target,
          {
            "content-type": "application/json",
            "user-agent": "payment-collection-sandbox",
            "webhook-id": event.id,
            "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
            // One `v1,<signature>` per secret in use (several during a rotation).
            "webhook-signature": signing.map((secret) => new Webhook(secret).sign(event.id, sentAt, event.payload)).join(" "),
          },
          event.payload,
          controller.signal,
        );
        delivered = status >= 200 && status < 300;
        detail = `HTTP ${status}`;
      } catch (error) {
        detail = controller.signal.aborted ? String((controller.signal.reason as Error)?.message ?? "timed out") : (error as Error).message;
      } finally {
        clearTimeout(abort);
        controllers.delete(controller);
      }
    }
    const endedMs = Date.now();
    record({ eventId: event.id, type: event.type, url: event.url, attempt: number, outcome: delivered ? "delivered" : "failed", detail, startedMs, endedMs });
    const log = { startedMs, endedMs, outcome: delivered ? ("delivered" as const) : ("failed" as const), error: delivered ? null : detail };
    if (delivered) {
      await settle(event, { state: "delivered", attempts: number, nextAttemptMs: endedMs, lastError: null }, log);
    } else if (number > delays.length) {
      await settle(event, { state: "failed", attempts: number, nextAttemptMs: endedMs, lastError: detail }, log);
    } else {
      const delay = delays[number - 1] * (1 + jitter * (2 * Math.random() - 1));
      await settle(event, { state: "pending", attempts: number, nextAttemptMs: endedMs + Math.round(delay), lastError: detail }, log);
    }
  }

  /** Runs the pump again in `ms` (replacing an earlier timer). */
  function arm(ms: number): void {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void pump(), ms);
    timer.unref();
  }

  /** Starts every due event, then sleeps until the next one is due. */
  async function pump(): Promise<void> {
    if (closed || options.paused) return;
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = true;
    try {
      let claimed = 0;
      do {
        pumpAgain = false;
        const nowMs = Date.now();
        // The lease outlasts the attempt (its timeout) and the guard's name resolution.
        const due = closed ? [] : await store.outboxClaim(nowMs, CLAIM_BATCH, nowMs + timeoutMs + (delays[0] ?? 0), options.instance);
        claimed = due.length;
        for (const event of due) {
          if (closed) break;
          const running: Promise<void> = deliver(event)
            .catch((error: unknown) => {
              if (!closed) console.error("sandbox: webhook delivery failed", error);
            })
            .finally(() => {
              inFlight.delete(running);
              void pump();
            });
          inFlight.add(running);
        }
      } while ((pumpAgain || claimed === CLAIM_BATCH) && !closed);
      if (closed) return;
      const next = await store.outboxNextDueMs();
      let wait = next === undefined ? MAX_TIMER_MS : Math.min(MAX_TIMER_MS, Math.max(0, next - Date.now()));
      // Another instance may write events, or die holding leases: a shared store is polled.
      if (store.info.shared) wait = Math.min(wait, options.pollIntervalMs);
      if (unavailableSince !== undefined) {
        console.error(`sandbox: webhook outbox available again after ${Date.now() - unavailableSince} ms`);
        unavailableSince = undefined;
      }
      arm(wait);
    } catch (error) {
      if (!closed) {
        // The database is down (or restarting): look again shortly, log once per outage.
        if (unavailableSince === undefined) {
          unavailableSince = Date.now();
          console.error(`sandbox: webhook outbox unavailable: ${(error as Error).message}`);
        }
        arm(1000);
      }
    } finally {
      pumping = false;
    }
  }

  // Events left by an earlier run (a restart) are picked up at start.
  void pump();

  return {
    wake() {
      void pump();
    },
    attempts: () => log,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const controller of controllers) controller.abort(new Error("sandbox closing"));
      await Promise.allSettled([...inFlight]);
    },
  };
}
