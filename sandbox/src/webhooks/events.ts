/**
 * Webhook events as they enter the outbox: `{type, timestamp, data}` (e.g. `charge.paid`) with
 * a stable id (`msg_<ulid>`), sent as `webhook-id` on every attempt, so that a duplicate
 * (delivery is at least once) always carries the same id. The payload's `timestamp` is the
 * event time on the account's clock.
 */
import { ulid } from "../domain/ids.ts";
import type { SandboxAccount } from "../keys.ts";
import type { OutboxEventInput } from "../store/types.ts";

/** The outbox entry of an event, to store with the change it reports (`UpdateDecision.events`). */
export function outboxEvent(account: SandboxAccount, url: string, type: string, data: unknown, at: Date): OutboxEventInput {
  const createdMs = Date.now();
  return { id: `msg_${ulid(createdMs)}`, accountId: account.id, url, type, payload: JSON.stringify({ type, timestamp: at.toISOString(), data }), createdMs };
}
