/**
 * Webhook delivery (decisions D24 to D26) through a durable outbox.
 *
 * An event (`{type, timestamp, data}`, e.g. `charge.paid`) enters the outbox table of the
 * store in the same transaction as the change it reports (`UpdateDecision.events`), so an
 * acknowledged payment always has its event stored, and a restart resumes delivery from the
 * table. Each event has a stable id (`msg_<ulid>`), sent as `webhook-id` on every attempt:
 * delivery is at least once, and a duplicate always carries the same id.
 *
 * Attempts follow Standard Webhooks: the body is signed with the account's secret
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature`; `standardwebhooks` package); only a
 * 2xx answer is a success; redirects are not followed; an attempt that takes longer than the
 * timeout fails; failures are retried after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h,
 * 20 h and 24 h, each with random jitter, then the event is given up (`failed`).
 *
 * Before an attempt starts, its event is leased (its next attempt is pushed past the timeout),
 * so an attempt cut short by a crash is made again after a restart, never lost.
 *
 * The payload's `timestamp` is the event time on the account's clock; `webhook-timestamp` is
 * the real time of the attempt, because receivers check it against their own clock.
 *
 * Secrets: each account starts with its seeded secret (`SANDBOX_KEYS.webhookSecrets`); a
 * rotation stores a new one and keeps signing with the previous one too (both signatures in
 * `webhook-signature`) for an overlap period, so receivers can switch without losing events.
 * The overlap ends on the account's clock, like every other sandbox deadline, so that advancing
 * the clock ends it.
 *
 * Targets: `charge.paid` goes to the charge's `webhook_url`; family B events (`boleto.paid`,
 * `boleto.canceled`) go to the account's webhook endpoint, set through a sandbox control and
 * kept in the store as a record of kind `webhook_endpoint` (one per account).
 *
 * Targets on loopback, private, link-local and other non-public addresses are refused
 * (server-side request forgery) unless `allowPrivateTargets` is set, which tests and local
 * development need: literal addresses and `localhost` already when the charge is created,
 * names resolving to such addresses at each attempt.
 */
import { randomBytes } from "node:crypto";
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { Webhook } from "standardwebhooks";
import { ulid } from "./domain/ids.ts";
import type { KeyRing, SandboxAccount } from "./keys.ts";
import type { OutboxEvent, OutboxEventInput, SandboxStore, StoredRecord, WebhookSecrets } from "./store/types.ts";

/** Delays between attempts (decision D26). */
export const DEFAULT_RETRY_DELAYS_MS = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400].map((s) => s * 1000);

/** Longest webhook URL accepted (decision D01). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

export interface WebhookOptions {
  allowPrivateTargets?: boolean;
  retryDelaysMs?: readonly number[];
  /** Random spread of each retry delay, as a fraction (default 0.1: from 90 % to 110 %). */
  jitter?: number;
  /** Time allowed for one attempt (default 10 s). */
  timeoutMs?: number;
  /** How long the previous secret keeps signing after a rotation (default 24 h). */
  rotationOverlapMs?: number;
  /** Store events but send nothing (a sandbox that stops before delivering, for restart tests). */
  paused?: boolean;
  /** The base clock; each account's clock runs ahead of it by the account's offset (default: the real clock). */
  now?: () => Date;
}

/** The secrets signing an account's events, and when the previous one stops (account clock, ms). */
export interface SigningSecrets {
  /** The current secret first; the previous one follows it during a rotation's overlap. */
  secrets: string[];
  previousUntilMs: number | null;
}

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

export interface WebhookSender {
  /** The outbox entry of an event, to store with the change it reports (`UpdateDecision.events`). */
  event(account: SandboxAccount, url: string, type: string, data: unknown, at: Date): OutboxEventInput;
  /** Looks for due events now; call after committing events. Never throws. */
  wake(): void;
  /** Why `url` may not be a webhook target (checked when a charge is created), or null. */
  urlProblem(url: string): string | null;
  /** The secrets that sign the account's events now, the current one first. */
  secrets(accountId: string): Promise<string[]>;
  /** The same, with the end of the rotation overlap while the previous secret still signs. */
  signingSecrets(accountId: string): Promise<SigningSecrets>;
  /**
   * Replaces the account's secret; the previous one keeps signing until `previousUntilMs`
   * (the account's clock). Rotating during an overlap drops the oldest secret.
   */
  rotateSecret(accountId: string): Promise<WebhookSecrets & { previous: string; previousUntilMs: number }>;
  /** The account's webhook endpoint (family B events), or null. */
  endpoint(accountId: string): Promise<string | null>;
  /** Sets or (null) removes the account's webhook endpoint; check `urlProblem` first. */
  setEndpoint(accountId: string, url: string | null): Promise<void>;
  /** Attempts made by this process so far (most recent last; the last 1000 are kept). */
  attempts(): readonly DeliveryAttempt[];
  close(): Promise<void>;
}

/** How many webhook URLs keep their checked shape (urlProblem) before the memo starts over. */
const CHECKED_URLS_KEPT = 1_000;

const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv6");
}

function isNonPublic(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return NON_PUBLIC.check(mapped[1], "ipv4");
  return NON_PUBLIC.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
}

/** Why a URL is not an acceptable target, without resolving names. */
function urlShapeProblem(url: string, allowPrivate: boolean): { problem: string } | { parsed: URL; host: string } {
  if (url.length > MAX_WEBHOOK_URL_LENGTH) return { problem: `longer than ${MAX_WEBHOOK_URL_LENGTH} characters` };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: "not a URL" };
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return { problem: `scheme ${parsed.protocol} is not http or https` };
  if (parsed.username || parsed.password) return { problem: "credentials in the URL are not accepted" };
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate) {
    if (isIP(host) && isNonPublic(host)) return { problem: `${host} is a non-public address` };
    if (host === "localhost" || host.endsWith(".localhost")) return { problem: `${host} is a loopback name` };
  }
  return { parsed, host };
}

/** Why a target may not be called now (names resolved), or null. */
async function targetProblem(url: string, allowPrivate: boolean): Promise<string | null> {
  const shape = urlShapeProblem(url, allowPrivate);
  if ("problem" in shape) return shape.problem;
  if (allowPrivate) return null;
  const { host } = shape;
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0) return `${host} does not resolve`;
  const blocked = addresses.find(isNonPublic);
  return blocked ? `${host} resolves to the non-public address ${blocked}` : null;
}

/** A new Standard Webhooks secret: `whsec_` and the base64 of 24 random bytes. */
function newSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/** Longest delay setTimeout accepts. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Id of the one `webhook_endpoint` record of an account. */
const ENDPOINT_RECORD_ID = "account";

export function createWebhookSender(store: SandboxStore, keyRing: KeyRing, options: WebhookOptions = {}): WebhookSender {
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const jitter = options.jitter ?? 0.1;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const overlapMs = options.rotationOverlapMs ?? 86_400_000;
  const allowPrivate = options.allowPrivateTargets === true;
  const baseNow = options.now ?? (() => new Date());
  /** Endpoints by account, read once from the store (this process is the store's only writer). */
  const endpoints = new Map<string, string | null>();
  /** What urlProblem found for a URL (the check depends on the URL text alone). */
  const checkedUrls = new Map<string, string | null>();
  let settingsWrites: Promise<unknown> = Promise.resolve();
  const controllers = new Set<AbortController>();
  const inFlight = new Set<Promise<void>>();
  const log: DeliveryAttempt[] = [];
  let timer: NodeJS.Timeout | undefined;
  let pumping = false;
  let pumpAgain = false;
  let closed = false;

  const record = (entry: DeliveryAttempt) => {
    log.push(entry);
    if (log.length > 1000) log.shift();
  };

  async function accountNowMs(accountId: string): Promise<number> {
    return baseNow().getTime() + (await store.clockOffset(accountId));
  }

  async function signingSecrets(accountId: string): Promise<SigningSecrets> {
    const stored = await store.webhookSecrets(accountId);
    if (!stored) {
      const account = keyRing.accounts.get(accountId);
      return { secrets: account ? [account.webhookSecret] : [], previousUntilMs: null };
    }
    if (stored.previous !== null && stored.previousUntilMs !== null && stored.previousUntilMs > (await accountNowMs(accountId))) {
      return { secrets: [stored.current, stored.previous], previousUntilMs: stored.previousUntilMs };
    }
    return { secrets: [stored.current], previousUntilMs: null };
  }

  async function secrets(accountId: string): Promise<string[]> {
    return (await signingSecrets(accountId)).secrets;
  }

  /**
   * Runs the read-then-write changes of an account's settings (secret rotation, endpoint) one
   * at a time, so that two concurrent requests cannot both build on the same old state.
   */
  function serially<T>(change: () => Promise<T>): Promise<T> {
    const run = settingsWrites.then(change);
    settingsWrites = run.catch(() => undefined);
    return run;
  }

  /** Replaces (or first creates) the account's endpoint record, then the cached value. */
  async function writeEndpoint(accountId: string, url: string | null): Promise<void> {
    const replace = () => store.update("webhook_endpoint", accountId, ENDPOINT_RECORD_ID, (current) => ({ next: { ...current, data: { url } }, result: null }));
    if (!(await replace()).found) {
      const record: StoredRecord = {
        kind: "webhook_endpoint",
        accountId,
        id: ENDPOINT_RECORD_ID,
        status: "set",
        customerId: null,
        uniqueKey: null,
        createdMs: await accountNowMs(accountId),
        data: { url },
      };
      await store.create({ record });
    }
    endpoints.set(accountId, url);
  }

  /** One attempt at one event, then its new state in the outbox. */
  async function deliver(event: OutboxEvent): Promise<void> {
    const number = event.attempts + 1;
    // Lease: if the process dies during the attempt, the event is due again after it.
    await store.outboxSettle(event.id, { state: "pending", attempts: event.attempts, nextAttemptMs: Date.now() + timeoutMs + (delays[0] ?? 0), lastError: event.lastError });
    const startedMs = Date.now();
    const problem = await targetProblem(event.url, allowPrivate);
    if (problem) {
      // A target that may not be called will not become callable by waiting: give up now.
      record({ eventId: event.id, type: event.type, url: event.url, attempt: number, outcome: "refused", detail: problem, startedMs, endedMs: Date.now() });
      await store.outboxSettle(event.id, { state: "failed", attempts: number, nextAttemptMs: startedMs, lastError: problem });
      return;
    }
    const signing = await secrets(event.accountId);
    const sentAt = new Date();
    const controller = new AbortController();
    controllers.add(controller);
    const abort = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    let detail: string;
    let delivered = false;
    try {
      const response = await fetch(event.url, {
        method: "POST",
        redirect: "manual",
        signal: controller.signal,
        headers: {
          "content-type": "application/json",
          "user-agent": "payment-collection-sandbox",
          "webhook-id": event.id,
          "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
          // One `v1,<signature>` per secret in use (two during a rotation).
          "webhook-signature": signing.map((secret) => new Webhook(secret).sign(event.id, sentAt, event.payload)).join(" "),
        },
        body: event.payload,
      });
      await response.arrayBuffer().catch(() => undefined);
      delivered = response.status >= 200 && response.status < 300;
      detail = `HTTP ${response.status}`;
    } catch (error) {
      const cause = (error as Error & { cause?: Error }).cause;
      detail = controller.signal.aborted ? String((controller.signal.reason as Error)?.message ?? "timed out") : (cause?.message ?? (error as Error).message);
    } finally {
      clearTimeout(abort);
      controllers.delete(controller);
    }
    const endedMs = Date.now();
    record({ eventId: event.id, type: event.type, url: event.url, attempt: number, outcome: delivered ? "delivered" : "failed", detail, startedMs, endedMs });
    if (delivered) {
      await store.outboxSettle(event.id, { state: "delivered", attempts: number, nextAttemptMs: endedMs, lastError: null });
    } else if (number > delays.length) {
      await store.outboxSettle(event.id, { state: "failed", attempts: number, nextAttemptMs: endedMs, lastError: detail });
    } else {
      const delay = delays[number - 1] * (1 + jitter * (2 * Math.random() - 1));
      await store.outboxSettle(event.id, { state: "pending", attempts: number, nextAttemptMs: endedMs + Math.round(delay), lastError: detail });
    }
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
      do {
        pumpAgain = false;
        const due = await store.outboxDue(Date.now(), 100);
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
        // Each started delivery leases its event first; let those leases land before looking again.
        if (due.length > 0) await new Promise((done) => setImmediate(done));
      } while (pumpAgain && !closed);
      if (closed) return;
      const next = await store.outboxNextDueMs();
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (next !== undefined) {
        timer = setTimeout(() => void pump(), Math.min(MAX_TIMER_MS, Math.max(0, next - Date.now())));
        timer.unref();
      }
    } catch (error) {
      if (!closed) console.error("sandbox: webhook outbox unavailable", error);
    } finally {
      pumping = false;
    }
  }

  // Events left by an earlier run (a restart) are picked up at start.
  void pump();

  return {
    event(account, url, type, data, at) {
      const createdMs = Date.now();
      return { id: `msg_${ulid(createdMs)}`, accountId: account.id, url, type, payload: JSON.stringify({ type, timestamp: at.toISOString(), data }), createdMs };
    },
    wake() {
      void pump();
    },
    urlProblem(url) {
      // Integrations send the same few URLs on every charge: parse each once.
      let problem = checkedUrls.get(url);
      if (problem === undefined) {
        const shape = urlShapeProblem(url, allowPrivate);
        problem = "problem" in shape ? shape.problem : null;
        if (checkedUrls.size >= CHECKED_URLS_KEPT) checkedUrls.clear();
        checkedUrls.set(url, problem);
      }
      return problem;
    },
    secrets,
    signingSecrets,
    rotateSecret(accountId) {
      return serially(async () => {
        const [current] = await secrets(accountId);
        if (current === undefined) throw new Error(`no webhook secret for account ${accountId}`);
        const rotated = { current: newSecret(), previous: current, previousUntilMs: (await accountNowMs(accountId)) + overlapMs };
        await store.saveWebhookSecrets(accountId, rotated);
        return rotated;
      });
    },
    async endpoint(accountId) {
      if (!endpoints.has(accountId)) {
        const record = await store.get("webhook_endpoint", accountId, ENDPOINT_RECORD_ID);
        // A write that finished meanwhile has already cached the newer value.
        if (!endpoints.has(accountId)) endpoints.set(accountId, (record?.data.url as string | null | undefined) ?? null);
      }
      return endpoints.get(accountId)!;
    },
    setEndpoint(accountId, url) {
      // Serially, also so that the cache ends as the store does when two requests race.
      return serially(() => writeEndpoint(accountId, url));
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
