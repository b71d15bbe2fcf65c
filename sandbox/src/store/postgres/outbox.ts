/**
 * The webhook outbox on the PostgreSQL store: events claimed with FOR UPDATE SKIP LOCKED and
 * leased, each attempt settled only under its lease and logged with the instance that made it.
 */
import { randomUUID } from "node:crypto";
import type { AttemptLog, ClaimedEvent, DeliveryLogEntry, OutboxEvent, SandboxStore } from "../types.ts";
import { ATTEMPT_COLUMNS, OUTBOX_COLUMNS, toAttemptLog, toOutboxEvent, type AttemptRow, type OutboxRow } from "../sqlite/outbox.ts";
import type { PooledQuery } from "./pool.ts";

type OutboxQueries = Pick<SandboxStore, "outboxClaim" | "outboxNextDueMs" | "outboxGet" | "outboxSettle" | "outboxDeliveries">;

export function outboxQueries(q: PooledQuery): OutboxQueries {
  return {
    async outboxClaim(nowMs, limit, leaseUntilMs, instance) {
      const { rows } = await q<OutboxRow & { lease: string }>(
        `UPDATE webhook_outbox o SET next_attempt_ms = $3, lease = $4 || ':' || o.id, lease_owner = $5
         FROM (SELECT id FROM webhook_outbox WHERE state = 'pending' AND next_attempt_ms <= $1 ORDER BY next_attempt_ms, id LIMIT $2 FOR UPDATE SKIP LOCKED) due
         WHERE o.id = due.id
         RETURNING o.id, o.account_id, o.url, o.type, o.payload, o.state, o.attempts, o.next_attempt_ms, o.created_ms, o.last_error, o.lease`,
        [nowMs, limit, leaseUntilMs, randomUUID(), instance],
      );
      return rows
        .map((row): ClaimedEvent => ({ ...toOutboxEvent(row), lease: row.lease }))
        .sort((a, b) => a.nextAttemptMs - b.nextAttemptMs || (a.id < b.id ? -1 : 1));
    },

    async outboxNextDueMs() {
      const { rows } = await q<{ due: number | null }>("SELECT min(next_attempt_ms) AS due FROM webhook_outbox WHERE state = 'pending'");
      return rows[0]?.due ?? undefined;
    },

    async outboxGet(id) {
      const { rows } = await q<OutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM webhook_outbox WHERE id = $1`, [id]);
      return rows[0] ? toOutboxEvent(rows[0]) : undefined;
    },

    async outboxSettle(id: string, lease: string, change: Pick<OutboxEvent, "state" | "attempts" | "nextAttemptMs" | "lastError">, attempt: AttemptLog) {
      // One statement: the event's new state (only under this lease) and its attempt in the log.
      const { rows } = await q<{ settled: number }>(
        `WITH settled AS (
           UPDATE webhook_outbox SET state = $1, attempts = $2, next_attempt_ms = $3, last_error = $4, lease = NULL, lease_owner = NULL
           WHERE id = $5 AND lease = $6 RETURNING id
         ), logged AS (
           INSERT INTO webhook_attempts (${ATTEMPT_COLUMNS})
           SELECT id, $7, $8, $9, $10, $11, $12, $13 FROM settled
           ON CONFLICT (event_id, attempt) DO UPDATE SET started_ms = excluded.started_ms, ended_ms = excluded.ended_ms, instance = excluded.instance,
             outcome = excluded.outcome, error = excluded.error, next_attempt_ms = excluded.next_attempt_ms
           RETURNING 1
         ) SELECT (SELECT count(*) FROM settled)::int AS settled`,
        [
          change.state,
          change.attempts,
          change.nextAttemptMs,
          change.lastError,
          id,
          lease,
          attempt.attempt,
          attempt.startedMs,
          attempt.endedMs,
          attempt.instance,
          attempt.outcome,
          attempt.error,
          attempt.nextAttemptMs,
        ],
      );
      return rows[0].settled === 1;
    },

    async outboxDeliveries(accountId, offset, limit) {
      const total = (await q<{ n: number }>("SELECT count(*)::int AS n FROM webhook_outbox WHERE account_id = $1", [accountId])).rows[0].n;
      const { rows } = await q<OutboxRow>(
        `SELECT ${OUTBOX_COLUMNS} FROM webhook_outbox WHERE account_id = $1 ORDER BY created_ms DESC, id DESC LIMIT $2 OFFSET $3`,
        [accountId, limit, offset],
      );
      const attempts = rows.length
        ? (await q<AttemptRow>(`SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts WHERE event_id = ANY($1) ORDER BY event_id, attempt`, [rows.map((r) => r.id)])).rows
        : [];
      const byEvent = new Map<string, AttemptLog[]>();
      for (const a of attempts) {
        const list = byEvent.get(a.event_id) ?? [];
        list.push(toAttemptLog(a));
        byEvent.set(a.event_id, list);
      }
      const items: DeliveryLogEntry[] = rows.map((row) => ({ ...toOutboxEvent(row), attemptLog: byEvent.get(row.id) ?? [] }));
      return { items, total };
    },
  };
}
