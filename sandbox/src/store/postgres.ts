/**
 * The shared store: one PostgreSQL database (driver `pg`, no ORM) serving several sandbox
 * instances. Same interface and behaviour as the SQLite store; what differs is how each
 * guarantee holds across processes:
 *
 * - idempotency: the key is claimed by `INSERT ... ON CONFLICT DO NOTHING` on the primary key
 *   (scope, key) in the same statement (or transaction) that inserts the record. Two instances
 *   receiving one key at once: the second insert waits for the first transaction, then finds
 *   the key and replays its response. A constraint, not an in-process lock.
 * - rate limits and clocks: `sandbox_admit` (postgres/schema.ts) reads the account's clock and
 *   charges the buckets in one round trip, shared by every instance; nothing is cached.
 * - webhook outbox: events are claimed with FOR UPDATE SKIP LOCKED and leased; each attempt is
 *   settled only under its lease and logged with the instance that made it.
 * - preconditions (a transaction naming a customer): the customer row is read FOR SHARE, and a
 *   customer's delete locks it FOR UPDATE before counting its open transactions.
 *
 * Faults: connections time out after 2 s, queries after 5 s (client side and
 * `statement_timeout`); a connection error, a timeout or a server shutting down becomes a
 * `StoreUnavailableError` (the pipeline answers 503 with Retry-After). The pool drops broken
 * connections and opens new ones, so the instance recovers by itself when the database is back.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import type {
  Admission,
  AttemptLog,
  ClaimedEvent,
  CreateOutcome,
  CreateRequest,
  DeliveryLogEntry,
  ListQuery,
  OutboxEvent,
  RecordKind,
  SandboxStore,
  StoredRecord,
  UpdateDecision,
  WebhookSecrets,
} from "./types.ts";
import { StoreUnavailableError } from "./types.ts";
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

const COLUMNS = "kind, account_id, id, status, customer_id, unique_key, created_ms, data";

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

const UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "57014", "57P01", "57P02", "57P03", "53300"]);

/** Whether an error means the database cannot be reached now (as opposed to a bug or a constraint). */
function isUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  if (!e) return false;
  if (e.code && (UNAVAILABLE_CODES.has(e.code) || e.code.startsWith("08"))) return true;
  return /connection terminated|timeout|connection error|not queryable|connection closed|terminating connection|the database system is (starting|shutting) down|Client was closed|after calling end on the pool/i.test(e.message ?? "");
}

function unavailable(error: unknown): never {
  if (isUnavailable(error)) throw new StoreUnavailableError((error as Error).message.split("\n")[0] || "PostgreSQL unreachable", 1);
  throw error;
}

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === "23505";

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

  /**
   * Admissions (clock offset and rate-limit charge) are grouped: the requests that arrive during
   * one event-loop turn are admitted by one call of `sandbox_admit_batch`, in arrival order, in
   * one round trip and one transaction. Counters stay exact and shared: the batch locks its
   * buckets in the database like single admissions do.
   */
  interface PendingAdmission {
    request: { a: string | null; k: string[]; l: number[]; w: number };
    resolve: (admission: Admission) => void;
    reject: (error: unknown) => void;
  }
  let admissions: PendingAdmission[] = [];
  const validOffset = (offset: number) => (Number.isSafeInteger(offset) && !Number.isNaN(new Date(Date.now() + offset).getTime()) ? offset : 0);
  async function flushAdmissions(): Promise<void> {
    const batch = admissions;
    admissions = [];
    try {
      const { rows } = await q<{ answers: Array<{ o: number; ok: boolean; c: number[] }> }>("SELECT sandbox_admit_batch($1::jsonb) AS answers", [
        JSON.stringify(batch.map((p) => p.request)),
      ]);
      rows[0].answers.forEach((answer, i) => batch[i].resolve({ offsetMs: validOffset(answer.o), admitted: answer.ok, counts: answer.c }));
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }

  /** What a used key answers (replay, mismatch), or "expired"/"gone" when it may be claimed again. */
  async function earlierUse(request: CreateRequest): Promise<CreateOutcome | "retry"> {
    const claim = request.claim!;
    const { rows } = await q<{ fingerprint: string; status: number; body: string; created_ms: number }>(
      "SELECT fingerprint, status, body, created_ms FROM idempotency_keys WHERE scope = $1 AND key = $2",
      [claim.scope, claim.key],
    );
    const existing = rows[0];
    if (!existing) return "retry";
    if (claim.nowMs - existing.created_ms < claim.retentionMs) {
      if (existing.fingerprint !== claim.fingerprint) return { kind: "mismatch" };
      return { kind: "replayed", response: { status: existing.status, body: existing.body } };
    }
    // Older than the retention: treated as never seen (removed only if nobody replaced it meanwhile).
    await q("DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND created_ms = $3", [claim.scope, claim.key, existing.created_ms]);
    return "retry";
  }

  const recordValues = (request: CreateRequest) => {
    const r = request.record;
    return [r.kind, r.accountId, r.id, r.status, r.customerId, r.uniqueKey, r.createdMs, request.dataJson ?? JSON.stringify(r.data)];
  };

  /** One attempt at a creation. */
  async function createOnce(request: CreateRequest): Promise<CreateOutcome | "retry"> {
    const { claim } = request;
    if (claim && !request.response) throw new Error("an idempotency claim needs the response to store");
    if (!request.requires) {
      // The common case in one statement (one round trip, its own transaction): the key is
      // claimed and the record inserted together, or neither.
      try {
        if (!claim) {
          await q(`INSERT INTO records (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, recordValues(request));
          return { kind: "created" };
        }
        const { rows } = await q<{ claimed: number }>(
          `WITH claim AS (
             INSERT INTO idempotency_keys (scope, key, fingerprint, status, body, created_ms, record_kind, record_id)
             VALUES ($9, $10, $11, $12, $13, $14, $1, $3) ON CONFLICT (scope, key) DO NOTHING RETURNING 1
           ), rec AS (
             INSERT INTO records (${COLUMNS}) SELECT $1, $2, $3, $4, $5, $6, $7, $8 WHERE EXISTS (SELECT 1 FROM claim) RETURNING 1
           ) SELECT (SELECT count(*) FROM claim)::int AS claimed`,
          [...recordValues(request), claim.scope, claim.key, claim.fingerprint, request.response!.status, request.response!.body, claim.nowMs],
        );
        if (rows[0].claimed === 1) return { kind: "created" };
        return earlierUse(request);
      } catch (error) {
        if (isUniqueViolation(error) && (error as { constraint?: string }).constraint === "records_by_unique_key") return { kind: "duplicate" };
        throw error;
      }
    }
    type Step = CreateOutcome | "retry" | "used";
    const step: Step = await (async (): Promise<Step> => {
      try {
        return await tx(async (client): Promise<Step> => {
          if (claim) {
            const claimed = await client.query(
              "INSERT INTO idempotency_keys (scope, key, fingerprint, status, body, created_ms, record_kind, record_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (scope, key) DO NOTHING RETURNING 1",
              [claim.scope, claim.key, claim.fingerprint, request.response!.status, request.response!.body, claim.nowMs, request.record.kind, request.record.id],
            );
            if (claimed.rowCount === 0) throw new KeyUsed();
          }
          const { kind, id, statuses } = request.requires!;
          // FOR SHARE: the required record cannot change (a customer deleted) until this commits.
          const found = await client.query<RecordRow>(`SELECT ${COLUMNS} FROM records WHERE kind = $1 AND account_id = $2 AND id = $3 FOR SHARE`, [kind, request.record.accountId, id]);
          const row = found.rows[0];
          if (!row || (statuses && !statuses.includes(row.status))) throw new PreconditionFailed(row ? toRecord(row) : undefined);
          await client.query(`INSERT INTO records (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, recordValues(request));
          return { kind: "created" };
        });
      } catch (error) {
        if (error instanceof KeyUsed) return "used";
        if (error instanceof PreconditionFailed) return { kind: "precondition_failed", found: error.found };
        if (isUniqueViolation(error) && (error as { constraint?: string }).constraint === "records_by_unique_key") return { kind: "duplicate" };
        throw error;
      }
    })();
    return step === "used" ? earlierUse(request) : step;
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
   * Creations without a precondition, grouped per event-loop turn (like the SQLite store's
   * group commit): one statement claims the batch's idempotency keys (in key order, so that two
   * instances' batches never wait on each other in a cycle) and inserts the records whose key it
   * claimed, in one transaction. A key already used answers as alone (replay or mismatch). If
   * the statement fails (a unique key), each creation runs again alone: every outcome is what it
   * would be alone.
   */
  /**
   * Statistics while a table grows from empty faster than autovacuum looks (once a minute): with
   * none, the planner may read an account's records through the time index to find one id. The
   * store analyses its tables after 100, 1,000, 10,000... creations of this instance.
   */
  let creations = 0;
  let nextAnalyze = 100;
  const counted = () => {
    if (++creations < nextAnalyze) return;
    nextAnalyze *= 10;
    pool.query("ANALYZE records, idempotency_keys").catch(() => undefined);
  };

  const createBatch = batcher<CreateRequest, CreateOutcome | "retry">(async (requests) => {
    if (requests.length === 1) return [await createOnce(requests[0])];
    let created: Set<number>;
    try {
      const input = requests.map((r, i) => ({
        i,
        kind: r.record.kind,
        account_id: r.record.accountId,
        id: r.record.id,
        status: r.record.status,
        customer_id: r.record.customerId,
        unique_key: r.record.uniqueKey,
        created_ms: r.record.createdMs,
        data: r.dataJson ?? JSON.stringify(r.record.data),
        scope: r.claim?.scope ?? null,
        key: r.claim?.key ?? null,
        fingerprint: r.claim?.fingerprint ?? null,
        rstatus: r.response?.status ?? null,
        body: r.response?.body ?? null,
        now_ms: r.claim?.nowMs ?? null,
      }));
      const { rows } = await q<{ i: number }>(
        `WITH input AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(i INT, kind TEXT, account_id TEXT, id TEXT, status TEXT, customer_id TEXT, unique_key TEXT,
             created_ms BIGINT, data TEXT, scope TEXT, key TEXT, fingerprint TEXT, rstatus INT, body TEXT, now_ms BIGINT)
         ), claim AS (
           INSERT INTO idempotency_keys (scope, key, fingerprint, status, body, created_ms, record_kind, record_id)
           SELECT scope, key, fingerprint, rstatus, body, now_ms, kind, id FROM input WHERE scope IS NOT NULL ORDER BY scope, key, i
           ON CONFLICT (scope, key) DO NOTHING RETURNING scope, key, record_id
         ), chosen AS (
           SELECT input.* FROM input WHERE scope IS NULL
             OR EXISTS (SELECT 1 FROM claim c WHERE c.scope = input.scope AND c.key = input.key AND c.record_id = input.id)
         ), rec AS (
           INSERT INTO records (${COLUMNS}) SELECT kind, account_id, id, status, customer_id, unique_key, created_ms, data FROM chosen ORDER BY i RETURNING 1
         ) SELECT i FROM chosen`,
        [JSON.stringify(input)],
      );
      created = new Set(rows.map((r) => r.i));
    } catch (error) {
      if (isUnavailable(error)) unavailable(error);
      // Run each alone: the outcome of each is what it would be without the others.
      return Promise.all(requests.map((r) => createOnce(r)));
    }
    return Promise.all(requests.map((r, i) => (created.has(i) ? ({ kind: "created" } as const) : earlierUse(r))));
  });

  return {
    info: { kind: "postgres", shared: true, location: redactUrl(options.url) },

    admit(accountId, windowStartMs, buckets) {
      return new Promise<Admission>((resolve, reject) => {
        admissions.push({ request: { a: accountId ?? null, k: buckets.map((b) => b.key), l: buckets.map((b) => b.limit), w: windowStartMs }, resolve, reject });
        if (admissions.length === 1) setImmediate(flushAdmissions);
      });
    },

    async ping() {
      try {
        await pool.query("SELECT 1");
        return { ok: true };
      } catch (error) {
        return { ok: false, error: (error as Error).message };
      }
    },

    async create(request) {
      // A key that expired or vanished between two statements is claimed again (a few times at most).
      for (let round = 0; round < 5; round++) {
        const outcome = round === 0 && !request.requires ? await createBatch(request) : await createOnce(request);
        if (outcome === "retry") continue;
        if (outcome.kind === "created") counted();
        return outcome;
      }
      return { kind: "in_flight" };
    },

    get,

    async update<T>(
      kind: RecordKind,
      accountId: string,
      id: string,
      decide: (current: StoredRecord, referencing: number) => UpdateDecision<T>,
      countReferencing?: { kind: RecordKind; statuses: readonly string[] },
    ) {
      return tx(async (client) => {
        const { rows } = await client.query<RecordRow>(`SELECT ${COLUMNS} FROM records WHERE kind = $1 AND account_id = $2 AND id = $3 FOR UPDATE`, [kind, accountId, id]);
        if (!rows[0]) return { found: false as const };
        let count = 0;
        if (countReferencing) {
          const counted = await client.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM records WHERE kind = $1 AND account_id = $2 AND customer_id = $3 AND status = ANY($4)",
            [countReferencing.kind, accountId, id, countReferencing.statuses],
          );
          count = counted.rows[0].n;
        }
        const decision = decide(toRecord(rows[0]), count);
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

/**
 * Groups the calls made during one event-loop turn into one call of `run` (which answers them
 * in order); each caller gets its own answer, or the batch's error.
 */
function batcher<T, R>(run: (items: T[]) => Promise<R[]>): (item: T) => Promise<R> {
  let pending: Array<{ item: T; resolve: (r: R) => void; reject: (e: unknown) => void }> = [];
  const flush = async () => {
    const batch = pending;
    pending = [];
    try {
      const results = await run(batch.map((p) => p.item));
      batch.forEach((p, i) => p.resolve(results[i]));
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      pending.push({ item, resolve, reject });
      if (pending.length === 1) setImmediate(() => void flush());
    });
}

class KeyUsed extends Error {}
class PreconditionFailed extends Error {
  constructor(readonly found: StoredRecord | undefined) {
    super("precondition failed");
  }
}
