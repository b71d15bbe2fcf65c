/**
 * Webhook delivery (decisions D24 to D26): `charge.paid` is POSTed to the charge's
 * `webhook_url` as `{type, timestamp, data}` and signed with the account's secret following
 * Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`; standardwebhooks
 * package). Only a 2xx answer is a success; redirects are not followed; failures are retried
 * after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (with jitter), with the
 * same `webhook-id`.
 *
 * The payload's `timestamp` is the event time on the account's clock; `webhook-timestamp` is
 * the real time of the attempt, because receivers check it against their own clock.
 *
 * Targets on loopback, private, link-local and other non-public addresses are refused
 * (server-side request forgery) unless `allowPrivateTargets` is set, which tests and local
 * development need. Deliveries are kept in memory: a restart drops pending retries.
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { Webhook } from "standardwebhooks";
import { ulid } from "./domain/ids.ts";
import type { SandboxAccount } from "./keys.ts";

/** Delays between attempts (decision D26). */
export const DEFAULT_RETRY_DELAYS_MS = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400].map((s) => s * 1000);

export interface WebhookOptions {
  allowPrivateTargets?: boolean;
  retryDelaysMs?: readonly number[];
  /** Time allowed for one attempt (default 10 s). */
  timeoutMs?: number;
}

export interface DeliveryAttempt {
  eventId: string;
  type: string;
  url: string;
  attempt: number;
  outcome: "delivered" | "failed" | "refused";
  detail: string;
}

export interface WebhookSender {
  /** Queues an event for delivery; never throws and never blocks the caller. */
  send(account: SandboxAccount, url: string, type: string, data: unknown, at: Date): void;
  /** Attempts made so far (most recent last; the last 1000 are kept). */
  attempts(): readonly DeliveryAttempt[];
  close(): Promise<void>;
}

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

/** Why a target may not be called, or null. */
async function targetProblem(url: string, allowPrivate: boolean): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "not a URL";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return `scheme ${parsed.protocol} is not http or https`;
  if (allowPrivate) return null;
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0) return `${host} does not resolve`;
  const blocked = addresses.find(isNonPublic);
  return blocked ? `${host} resolves to the non-public address ${blocked}` : null;
}

export function createWebhookSender(options: WebhookOptions = {}): WebhookSender {
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const timers = new Set<NodeJS.Timeout>();
  const controllers = new Set<AbortController>();
  const log: DeliveryAttempt[] = [];
  let closed = false;

  const record = (entry: DeliveryAttempt) => {
    log.push(entry);
    if (log.length > 1000) log.shift();
  };

  async function attempt(account: SandboxAccount, url: string, eventId: string, type: string, payload: string, number: number): Promise<void> {
    if (closed) return;
    const problem = await targetProblem(url, options.allowPrivateTargets === true);
    if (problem) {
      record({ eventId, type, url, attempt: number, outcome: "refused", detail: problem });
      return;
    }
    const sentAt = new Date();
    const controller = new AbortController();
    controllers.add(controller);
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let detail: string;
    let delivered = false;
    try {
      const response = await fetch(url, {
        method: "POST",
        redirect: "manual",
        signal: controller.signal,
        headers: {
          "content-type": "application/json",
          "user-agent": "payment-collection-sandbox",
          "webhook-id": eventId,
          "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
          "webhook-signature": new Webhook(account.webhookSecret).sign(eventId, sentAt, payload),
        },
        body: payload,
      });
      await response.arrayBuffer().catch(() => undefined);
      delivered = response.status >= 200 && response.status < 300;
      detail = `HTTP ${response.status}`;
    } catch (error) {
      detail = (error as Error).message;
    } finally {
      clearTimeout(timer);
      controllers.delete(controller);
    }
    record({ eventId, type, url, attempt: number, outcome: delivered ? "delivered" : "failed", detail });
    if (delivered || closed || number > delays.length) return;
    const base = delays[number - 1];
    const retry = setTimeout(() => {
      timers.delete(retry);
      void attempt(account, url, eventId, type, payload, number + 1);
    }, base * (0.9 + Math.random() * 0.2));
    retry.unref();
    timers.add(retry);
  }

  return {
    send(account, url, type, data, at) {
      if (closed) return;
      const eventId = `msg_${ulid(Date.now())}`;
      const payload = JSON.stringify({ type, timestamp: at.toISOString(), data });
      void attempt(account, url, eventId, type, payload, 1);
    },
    attempts: () => log,
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const controller of controllers) controller.abort();
    },
  };
}
