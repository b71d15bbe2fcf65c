/**
 * The shared store: one PostgreSQL database (driver `pg`, no ORM) serving several sandbox
 * instances. Same interface and behaviour as the SQLite store; what differs is how each
 * guarantee holds across processes:
 *
 * - idempotency: the key is claimed by `INSERT ... ON CONFLICT DO NOTHING` on the primary key
 *   (scope, key) in the same transaction that inserts the record (postgres/creations.ts).
 * - rate limits and clocks: `sandbox_admit_many` (postgres/schema.ts) reads the accounts' clocks
 *   and charges the buckets of a batch of requests in one round trip, shared by every instance;
 *   nothing is cached (postgres/admissions.ts).
 * - webhook outbox: events are claimed with FOR UPDATE SKIP LOCKED and leased; each attempt is
 *   settled only under its lease and logged with the instance that made it.
 * - preconditions (a transaction naming a customer): the customer row is read FOR SHARE, and a
 *   customer's delete locks it FOR UPDATE before counting its open transactions.
 *
 * Round trips: a request is admitted in one (shared by the requests of one event-loop turn),
 * a creation committed in one (likewise shared), a lookup by id read in one (likewise).
 *
 * Faults: connections time out after 2 s, queries after 5 s (client side and
 * `statement_timeout`); a connection error, a timeout or a server shutting down becomes a
 * `StoreUnavailableError` (the pipeline answers 503 with Retry-After). The pool drops broken
 * connections and opens new ones, so the instance recovers by itself when the database is back.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import type {
  AttemptLog,
  ClaimedEvent,
  DeliveryLogEntry,
  ListQuery,
  OutboxEvent,
  RecordKind,
  SandboxStore,
  StoredRecord,
  UpdateDecision,
  UpdateOptions,
  WebhookSecrets,
} from "./types.ts";
import { admissionBatches } from "./postgres/admissions.ts";
import { batcher } from "./postgres/batcher.ts";
import { creations, RECORD_COLUMNS as COLUMNS } from "./postgres/creations.ts";
import { isUnavailable, unavailable } from "./postgres/faults.ts";
import { migrate } from "./postgres/schema.ts";
import { toRecord, type RecordRow } from "./sqlite/records.ts";
import { ATTEMPT_COLUMNS, OUTBOX_COLUMNS, toAttemptLog, toOutboxEvent, type AttemptRow, type OutboxRow } from "./sqlite/outbox.ts";

export interface PostgresStoreOptions {
  /** `postgres://user:pass@host:5432/db` (`?options=-c search_path=...` selects a schema). */
  url: string;
  /** Connections per instance (default 10). */
  poolSize?: number;
  /** Connecting (or waiting for a free connection) gives up after this long (default 2000 ms). */
  connectTimeoutMs?: number;
  /** A query gives up after this long (default 5000 ms). */
  queryTimeoutMs?: number;
  /**
   * `process` (default): `synchronous_commit = off`, like SQLite's WAL with synchronous=NORMAL:
   * a commit survives the sandbox instance being killed and PostgreSQL stopping or restarting
   * (shutdown flushes the WAL), not a crash of the database machine (the last ~0.2 s of commits
   * may roll back, the database stays consistent). `power`: `synchronous_commit = on`, every
   * commit flushed to disk before it is acknowledged.
   */
  durability?: "process" | "power";
}

/** BIGINT columns as numbers (times in ms are safe integers), for this pool only. */
const TYPES = {
  getTypeParser: ((oid: number, format?: string) => (oid === 20 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as "text"))) as never,
};

/** The URL without its password, for logs, the banner and the health route. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "postgres://(unparseable)";
  }
}

export async function openPostgresStore(options: PostgresStoreOptions): Promise<SandboxStore> {
  const queryTimeoutMs = options.queryTimeoutMs ?? 5000;
  // Session settings travel in the startup message, after those of the URL (`options=`).
  const url = new URL(options.url);
  const urlOptions = url.searchParams.get("options") ?? "";
  url.searchParams.delete("options");
  const pool = new pg.Pool({
    connectionString: url.toString(),
    // Custom plans always: a generic plan made while a table was small (never analysed) can scan
    // an account's records for a lookup by id; planning these short queries costs little.
    options: `${urlOptions} -c synchronous_commit=${options.durability === "power" ? "on" : "off"} -c plan_cache_mode=force_custom_plan`.trim(),
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 2000,
    query_timeout: queryTimeoutMs,
    statement_timeout: queryTimeoutMs,
    idleTimeoutMillis: 10_000,
    keepAlive: true,
    types: TYPES,
  });
  // An idle connection the server dropped (a restart): the pool discards it; nothing to do.
  pool.on("error", () => undefined);

  const boot = await pool.connect();
  try {
    await migrate(boot);
  } catch (error) {
    boot.release(true);
    await pool.end();
    throw error;
  }
  // Current statistics from the start (a database used before, or a new one).
  await boot.query("ANALYZE records, idempotency_keys").catch(() => undefined);
  boot.release();

  /**
   * One query on any connection, as a named prepared statement (parsed and planned once per
   * connection): every query text here is a constant.
   */
  const names = new Map<string, string>();
  async function q<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    let name = names.get(text);
    if (name === undefined) names.set(text, (name = `sbx_${names.size}`));
    try {
      return await pool.query<R>({ name, text, values });
    } catch (error) {
      unavailable(error);
    }
  }

  /** Runs `work` in one transaction on one connection; a broken connection is not reused. */
  async function tx<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      unavailable(error);
    }
    let broken = false;
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      broken = isUnavailable(error);
      if (!broken) await client.query("ROLLBACK").catch(() => (broken = true));
      unavailable(error);
    } finally {
      client.release(broken);
    }
  }

  /** Lookups by id, grouped per event-loop turn: one statement reads them all. */
  const lookup = batcher<{ kind: RecordKind; accountId: string; id: string }, StoredRecord | undefined>(async (items) => {
    if (items.length === 1) {
      const { kind, accountId, id } = items[0];
      const { rows } = await q<RecordRow>(`SELECT ${COLUMNS} FROM records WHERE kind = $1 AND account_id = $2 AND id = $3`, [kind, accountId, id]);
      return [rows[0] ? toRecord(rows[0]) : undefined];
    }
    const { rows } = await q<RecordRow>(
      // One lookup by the unique index per item (LATERAL), whatever the table's statistics say.
      `SELECT r.* FROM unnest($1::text[], $2::text[], $3::text[]) AS x(kind, account_id, id)
       CROSS JOIN LATERAL (SELECT ${COLUMNS} FROM records WHERE kind = x.kind AND account_id = x.account_id AND id = x.id) r`,
      [items.map((i) => i.kind), items.map((i) => i.accountId), items.map((i) => i.id)],
    );
    const found = new Map(rows.map((row) => [`${row.kind}\u0000${row.account_id}\u0000${row.id}`, row]));
    return items.map((i) => {
      const row = found.get(`${i.kind}\u0000${i.accountId}\u0000${i.id}`);
      return row ? toRecord(row) : undefined;
    });
  });
  const get = (kind: RecordKind, accountId: string, id: string) => lookup({ kind, accountId, id });

  /**
   * Statistics while a table grows from empty faster than autovacuum looks (once a minute): with
   * none, the planner may read an account's records through the time index to find one id. The
   * store analyses its tables after 100, 1,000, 10,000... creations of this instance.
   */
  let createdCount = 0;
  let nextAnalyze = 100;
  const create = creations({
    query: q,
    transaction: tx,
    created() {
      if (++createdCount < nextAnalyze) return;
      nextAnalyze *= 10;
      pool.query("ANALYZE records, idempotency_keys").catch(() => undefined);
    },
  });
  const admit = admissionBatches(q);

  return {
    info: { kind: "postgres", shared: true, location: redactUrl(options.url) },

    admit(accountId, windowStartMs, buckets) {
      return admit({ accountId, windowStartMs, buckets });
    },

    async ping() {
      try {
        await pool.query("SELECT 1");
        return { ok: true };
      } catch (error) {
        return { ok: false, error: (error as Error).message };
      }
    },

    create,

    get,

    async update<T>(
      kind: RecordKind,
      accountId: string,
      id: string,
      decide: (current: StoredRecord, referencing: number, related: StoredRecord | undefined) => UpdateDecision<T>,
      options: UpdateOptions = {},
    ) {
      const { countReferencing } = options;
      return tx(async (client) => {
        const { rows } = await client.query<RecordRow>(`SELECT ${COLUMNS} FROM records WHERE kind = $1 AND account_id = $2 AND id = $3 FOR UPDATE`, [kind, accountId, id]);
        if (!rows[0]) return { found: false as const };
        const current = toRecord(rows[0]);
        // FOR SHARE, after the record's own lock: the related record cannot change (a customer
        // deleted, which locks it FOR UPDATE) until this update commits.
        const relatedRef = options.related?.(current);
        const relatedRow = relatedRef
          ? (await client.query<RecordRow>(`SELECT ${COLUMNS} FROM records WHERE kind = $1 AND account_id = $2 AND id = $3 FOR SHARE`, [relatedRef.kind, accountId, relatedRef.id])).rows[0]
          : undefined;
        let count = 0;
        if (countReferencing) {
          const counted = await client.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM records WHERE kind = $1 AND account_id = $2 AND customer_id = $3 AND status = ANY($4)",
            [countReferencing.kind, accountId, id, countReferencing.statuses],
          );
          count = counted.rows[0].n;
        }
        const decision = decide(current, count, relatedRow ? toRecord(relatedRow) : undefined);
        const next = decision.next;
        if (next) {
          await client.query("UPDATE records SET status = $1, customer_id = $2, unique_key = $3, data = $4 WHERE kind = $5 AND account_id = $6 AND id = $7", [
            next.status,
            next.customerId,
            next.uniqueKey,
            JSON.stringify(next.data),
            kind,
            accountId,
            id,
          ]);
        }
        // The outbox row commits with the record: an acknowledged change never loses its event.
        for (const event of decision.events ?? []) {
          await client.query(`INSERT INTO webhook_outbox (${OUTBOX_COLUMNS}) VALUES ($1, $2, $3, $4, $5, 'pending', 0, $6, $7, NULL)`, [
            event.id,
            event.accountId,
            event.url,
            event.type,
            event.payload,
            event.createdMs,
            event.createdMs,
          ]);
        }
        return { found: true as const, result: decision.result };
      });
    },

    async list(kind: RecordKind, accountId: string, query: ListQuery) {
      const where = ["kind = $1", "account_id = $2"];
      const params: unknown[] = [kind, accountId];
      if (query.status !== undefined) where.push(`status = $${params.push(query.status)}`);
      if (query.fromMs !== undefined) where.push(`created_ms >= $${params.push(query.fromMs)}`);
      if (query.toMs !== undefined) where.push(`created_ms < $${params.push(query.toMs)}`);
      const clause = where.join(" AND ");
      const total = (await q<{ n: number }>(`SELECT count(*)::int AS n FROM records WHERE ${clause}`, params)).rows[0].n;
      const { rows } = await q<RecordRow>(
        `SELECT ${COLUMNS} FROM records WHERE ${clause} ORDER BY created_ms DESC, seq DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, query.limit, query.offset],
      );
      return { items: rows.map(toRecord), total };
    },

    async count(kind, accountId) {
      const { rows } = accountId
        ? await q<{ n: number }>("SELECT count(*)::int AS n FROM records WHERE kind = $1 AND account_id = $2", [kind, accountId])
        : await q<{ n: number }>("SELECT count(*)::int AS n FROM records WHERE kind = $1", [kind]);
      return rows[0].n;
    },

    async clockOffset(accountId) {
      const { rows } = await q<{ offset_ms: number }>("SELECT offset_ms FROM account_clocks WHERE account_id = $1", [accountId]);
      const offset = rows[0]?.offset_ms ?? 0;
      return Number.isSafeInteger(offset) && !Number.isNaN(new Date(Date.now() + offset).getTime()) ? offset : 0;
    },

    async advanceClock(accountId, ms, maxOffsetMs = Number.MAX_SAFE_INTEGER) {
      if (!Number.isSafeInteger(ms) || ms < 0) return null;
      // One statement: concurrent advances from several instances add up, and none passes the maximum.
      const { rows } = await q<{ offset_ms: number }>(
        `INSERT INTO account_clocks AS c (account_id, offset_ms) SELECT $1, $2::bigint WHERE $2::bigint <= $3::bigint
         ON CONFLICT (account_id) DO UPDATE SET offset_ms = c.offset_ms + excluded.offset_ms WHERE c.offset_ms + excluded.offset_ms <= $3::bigint
         RETURNING offset_ms`,
        [accountId, ms, Math.min(maxOffsetMs, Number.MAX_SAFE_INTEGER)],
      );
      return rows[0]?.offset_ms ?? null;
    },

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

    async webhookSecrets(accountId): Promise<WebhookSecrets | undefined> {
      const { rows } = await q<{ current: string; previous: string | null; previous_until_ms: number | null }>(
        "SELECT current, previous, previous_until_ms FROM webhook_secrets WHERE account_id = $1",
        [accountId],
      );
      const row = rows[0];
      return row ? { current: row.current, previous: row.previous ? row.previous.split(" ") : [], previousUntilMs: row.previous_until_ms } : undefined;
    },

    async saveWebhookSecrets(accountId, secrets) {
      await q(
        `INSERT INTO webhook_secrets (account_id, current, previous, previous_until_ms) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id) DO UPDATE SET current = excluded.current, previous = excluded.previous, previous_until_ms = excluded.previous_until_ms`,
        [accountId, secrets.current, secrets.previous.length > 0 ? secrets.previous.join(" ") : null, secrets.previousUntilMs],
      );
    },

    async close() {
      await pool.end();
    },
  };
}
