/**
 * Webhooks (decisions D24 to D26) through a durable outbox, one module per concern:
 *
 *   events.ts        the event entering the outbox (id, payload)
 *   target-guard.ts  which URLs may receive webhooks
 *   secrets.ts       signing secrets and their rotation
 *   endpoints.ts     the account webhook endpoint (family B events)
 *   delivery.ts      signed attempts, retries, leases
 *   outbox-pump.ts   claims the due events and sleeps until the next is due
 *
 * An event enters the outbox table of the store in the same transaction as the change it
 * reports (`UpdateDecision.events`), so an acknowledged payment always has its event stored,
 * and a restart resumes delivery from the table.
 *
 * Targets: `charge.paid` goes to the charge's `webhook_url`; family B events (`boleto.paid`,
 * `boleto.canceled`) go to the account's webhook endpoint.
 */
import type { KeyRing, SandboxAccount } from "../keys.ts";
import type { OutboxEventInput, SandboxStore } from "../store/types.ts";
import { DEFAULT_RETRY_DELAYS_MS, startOutboxDelivery, type DeliveryAttempt } from "./delivery.ts";
import { createEndpointRegistry } from "./endpoints.ts";
import { outboxEvent } from "./events.ts";
import { createSecretKeeper, type RotatedSecrets, type SigningSecrets } from "./secrets.ts";
import { createTargetGuard, type Resolver } from "./target-guard.ts";

export { DEFAULT_RETRY_DELAYS_MS, type DeliveryAttempt } from "./delivery.ts";
export { MAX_WEBHOOK_URL_LENGTH, type Resolver } from "./target-guard.ts";
export type { SigningSecrets } from "./secrets.ts";

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
  /** Resolves webhook host names (default: the system resolver); tests inject names. */
  resolve?: Resolver;
  /** The base clock; each account's clock runs ahead of it by the account's offset (default: the real clock). */
  now?: () => Date;
  /** This instance's name in the delivery log (default `sandbox`). */
  instance?: string;
  /** On a shared store, how often the outbox is polled besides this instance's own wake-ups (default 1 s). */
  pollIntervalMs?: number;
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
   * (the account's clock). Rotating during an overlap keeps the secrets still signing (up to
   * three earlier ones) until the new overlap ends.
   */
  rotateSecret(accountId: string): Promise<RotatedSecrets>;
  /** The account's webhook endpoint (family B events), or null. */
  endpoint(accountId: string): Promise<string | null>;
  /** Sets or (null) removes the account's webhook endpoint; check `urlProblem` first. */
  setEndpoint(accountId: string, url: string | null): Promise<void>;
  /** Attempts made by this process so far (most recent last; the last 1000 are kept). */
  attempts(): readonly DeliveryAttempt[];
  close(): Promise<void>;
}

export function createWebhookSender(store: SandboxStore, keyRing: KeyRing, options: WebhookOptions = {}): WebhookSender {
  const baseNow = options.now ?? (() => new Date());
  const accountNowMs = async (accountId: string): Promise<number> => baseNow().getTime() + (await store.clockOffset(accountId));
  const guard = createTargetGuard(options.allowPrivateTargets === true, options.resolve);
  const keeper = createSecretKeeper(store, keyRing, accountNowMs, options.rotationOverlapMs ?? 86_400_000);
  const endpoints = createEndpointRegistry(store, accountNowMs);
  const delivery = startOutboxDelivery(store, guard, keeper.secrets, {
    retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    jitter: options.jitter ?? 0.1,
    timeoutMs: options.timeoutMs ?? 10_000,
    // Stryker disable next-line BooleanLiteral: a paused sender is the operator's option (the restart tests'); no client sets it
    paused: options.paused === true,
    // Stryker disable next-line LogicalOperator,StringLiteral: the instance's name is the delivery log's, which only the sandbox's controls show
    instance: options.instance ?? "sandbox",
    // Stryker disable next-line LogicalOperator: the pump polls only on a shared store (several instances); on SQLite it sleeps until the next event is due
    pollIntervalMs: options.pollIntervalMs ?? 1000,
  });

  /**
   * Runs the read-then-write changes of an account's settings (secret rotation, endpoint) one
   * at a time, so that two concurrent requests cannot both build on the same old state.
   */
  let settingsWrites: Promise<unknown> = Promise.resolve();
  function serially<T>(change: () => Promise<T>): Promise<T> {
    const run = settingsWrites.then(change);
    settingsWrites = run.catch(() => undefined);
    return run;
  }

  return {
    event: outboxEvent,
    wake: delivery.wake,
    urlProblem: guard.urlProblem,
    secrets: keeper.secrets,
    signingSecrets: keeper.signingSecrets,
    rotateSecret: (accountId) => serially(() => keeper.rotate(accountId)),
    endpoint: endpoints.get,
    setEndpoint: (accountId, url) => serially(() => endpoints.set(accountId, url)),
    attempts: delivery.attempts,
    close: delivery.close,
  };
}
