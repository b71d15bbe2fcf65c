/**
 * The `webhook_outbox` table: webhook events stored with the change they report, and their
 * delivery state (pending, delivered, failed), attempts and next due time.
 */
import type Database from "better-sqlite3";
import type { OutboxEvent, OutboxEventInput } from "../types.ts";

interface OutboxRow {
  id: string;
  account_id: string;
  url: string;
  type: string;
  payload: string;
  state: OutboxEvent["state"];
  attempts: number;
  next_attempt_ms: number;
  created_ms: number;
  last_error: string | null;
}

function toOutboxEvent(row: OutboxRow): OutboxEvent {
  return {
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    type: row.type,
    payload: row.payload,
    state: row.state,
    attempts: row.attempts,
    nextAttemptMs: row.next_attempt_ms,
    createdMs: row.created_ms,
    lastError: row.last_error,
  };
}

const OUTBOX_COLUMNS = "id, account_id, url, type, payload, state, attempts, next_attempt_ms, created_ms, last_error";

export function webhookOutbox(db: Database) {
  const insertOutbox = db.prepare(`INSERT INTO webhook_outbox (${OUTBOX_COLUMNS}) VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, NULL)`);
  const selectOutboxDue = db.prepare<OutboxRow>(
    `SELECT ${OUTBOX_COLUMNS} FROM webhook_outbox WHERE state = 'pending' AND next_attempt_ms <= ? ORDER BY next_attempt_ms, id LIMIT ?`,
  );
  const selectOutboxNext = db.prepare<{ due: number | null }>("SELECT MIN(next_attempt_ms) AS due FROM webhook_outbox WHERE state = 'pending'");
  const selectOutbox = db.prepare<OutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM webhook_outbox WHERE id = ?`);
  const settleOutbox = db.prepare("UPDATE webhook_outbox SET state = ?, attempts = ?, next_attempt_ms = ?, last_error = ? WHERE id = ?");

  return {
    /** Stores a new event, pending and due at its creation (inside the caller's transaction). */
    enqueue(event: OutboxEventInput): void {
      insertOutbox.run(event.id, event.accountId, event.url, event.type, event.payload, event.createdMs, event.createdMs);
    },
    due(nowMs: number, limit: number): OutboxEvent[] {
      return selectOutboxDue.all(nowMs, limit).map(toOutboxEvent);
    },
    nextDueMs(): number | undefined {
      return selectOutboxNext.get()?.due ?? undefined;
    },
    get(id: string): OutboxEvent | undefined {
      const row = selectOutbox.get(id);
      return row ? toOutboxEvent(row) : undefined;
    },
    settle(id: string, change: Pick<OutboxEvent, "state" | "attempts" | "nextAttemptMs" | "lastError">): void {
      if (!db.open) return; // closed while an attempt was in flight: the event stays pending
      settleOutbox.run(change.state, change.attempts, change.nextAttemptMs, change.lastError, id);
    },
  };
}
