/// <reference path="../../types/better-sqlite3.d.ts" />
/**
 * The embedded store: one SQLite file (better-sqlite3) in the data directory.
 *
 * Durability: the database runs in WAL mode. With `synchronous=NORMAL` (the default,
 * durability "process") a COMMIT has written its pages to the WAL file with write(2) before
 * the call returns, and the sandbox answers only after the COMMIT returned. A process killed
 * with `kill -9` loses nothing it acknowledged: the pages are in the operating system's cache,
 * reach the file, and the next open replays the WAL. What NORMAL does not survive is a power
 * loss or a kernel crash (the last commits may roll back; the database stays consistent).
 * Durability "power" selects `synchronous=FULL`, which also fsyncs the WAL on every commit.
 *
 * better-sqlite3 is synchronous, so each store method below runs as one SQLite transaction
 * that no other request can interleave with: an idempotency key is claimed by the same
 * transaction that inserts the record (and a unique (scope, key) primary key backs it).
 *
 * Creations are group-committed: the creations that arrive during one turn of the event loop
 * run one after the other inside a single transaction, committed once; every caller is
 * answered after that commit. If one of them fails unexpectedly the batch is rolled back and
 * replayed one transaction per creation, so the outcome of each creation is exactly what it
 * would be alone, and nothing is acknowledged before it is committed; under load, one WAL
 * write serves many requests. WAL checkpoints run in a worker thread (checkpointer.ts).
 *
 * Rate-limit counters are kept in memory: they only matter for the current window, and a
 * restart renewing the windows is harmless in a sandbox.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { startCheckpointer } from "./checkpointer.ts";
import type {
  CreateOutcome,
  CreateRequest,
  ListQuery,
  OutboxEvent,
  RateLimitBucket,
  RateLimitOutcome,
  RecordKind,
  SandboxStore,
  StoredRecord,
  UpdateDecision,
} from "./types.ts";

export type Durability = "process" | "power";

export interface SqliteStoreOptions {
  dataDir: string;
  durability?: Durability;
}

/** File name of the database inside the data directory. */
export const DATABASE_FILE = "sandbox.sqlite";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS records (
  seq INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  account_id TEXT NOT NULL,
  id TEXT NOT NULL,
  status TEXT NOT NULL,
  customer_id TEXT,
  unique_key TEXT,
  created_ms INTEGER NOT NULL,
  data TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS records_by_id ON records (kind, account_id, id);
CREATE INDEX IF NOT EXISTS records_by_time ON records (kind, account_id, created_ms DESC, seq DESC);
CREATE INDEX IF NOT EXISTS records_by_customer ON records (kind, account_id, customer_id, status) WHERE customer_id IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS records_by_unique_key ON records (kind, account_id, unique_key) WHERE unique_key IS NOT NULL;
CREATE TABLE IF NOT EXISTS idempotency_keys (
  seq INTEGER PRIMARY KEY,
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  state TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  record_kind TEXT NOT NULL,
  record_id TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS idempotency_keys_by_key ON idempotency_keys (scope, key);
CREATE TABLE IF NOT EXISTS webhook_outbox (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  url TEXT NOT NULL,
  type TEXT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  next_attempt_ms INTEGER NOT NULL,
  created_ms INTEGER NOT NULL,
  last_error TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS webhook_outbox_due ON webhook_outbox (state, next_attempt_ms);
CREATE TABLE IF NOT EXISTS webhook_secrets (
  account_id TEXT PRIMARY KEY,
  current TEXT NOT NULL,
  previous TEXT,
  previous_until_ms INTEGER
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS account_clocks (
  account_id TEXT PRIMARY KEY,
  offset_ms INTEGER NOT NULL
) WITHOUT ROWID;
`;

/**
 * Schema versions (PRAGMA user_version). Version 1 keeps idempotency keys in a rowid table
 * with a unique index on (scope, key): keys arrive in random order, and a random insert into
 * an index of small entries is far cheaper than into a WITHOUT ROWID table whose rows carry
 * the stored response. Version 0 databases are migrated on open.
 */
const SCHEMA_VERSION = 1;

function migrate(db: Database): void {
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version >= SCHEMA_VERSION) return;
  const legacy = db.prepare<{ sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'idempotency_keys'").get();
  db.transaction(() => {
    if (legacy && /WITHOUT ROWID/i.test(legacy.sql)) db.exec("ALTER TABLE idempotency_keys RENAME TO idempotency_keys_v0");
    db.exec(SCHEMA);
    if (legacy && /WITHOUT ROWID/i.test(legacy.sql)) {
      db.exec(`INSERT INTO idempotency_keys (scope, key, fingerprint, state, status, body, created_ms, record_kind, record_id)
               SELECT scope, key, fingerprint, state, status, body, created_ms, record_kind, record_id FROM idempotency_keys_v0;
               DROP TABLE idempotency_keys_v0;`);
    }
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}

interface RecordRow {
  kind: RecordKind;
  account_id: string;
  id: string;
  status: string;
  customer_id: string | null;
  unique_key: string | null;
  created_ms: number;
  data: string;
}

interface IdempotencyRow {
  fingerprint: string;
  state: string;
  status: number;
  body: string;
  created_ms: number;
}

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

function toRecord(row: RecordRow): StoredRecord {
  return {
    kind: row.kind,
    accountId: row.account_id,
    id: row.id,
    status: row.status,
    customerId: row.customer_id,
    uniqueKey: row.unique_key,
    createdMs: row.created_ms,
    data: JSON.parse(row.data) as Record<string, unknown>,
    dataJson: row.data,
  };
}

/** Opens (creating when needed) the store in `dataDir`. */
export function openSqliteStore(options: SqliteStoreOptions): SandboxStore {
  mkdirSync(options.dataDir, { recursive: true });
  const file = join(options.dataDir, DATABASE_FILE);
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${options.durability === "power" ? "FULL" : "NORMAL"}`);
  db.pragma("busy_timeout = 5000");
  // Checkpoints run in a worker thread (checkpointer.ts), not inside request commits.
  db.pragma("wal_autocheckpoint = 0");
  db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  // 64 MiB of page cache: lookups by id stay in memory with a million stored records.
  db.pragma(`cache_size = ${-64 * 1024}`);
  migrate(db);
  const checkpointer = startCheckpointer(file, () => {
    if (db.open) db.pragma("wal_autocheckpoint = 1000");
  });

  const COLUMNS = "kind, account_id, id, status, customer_id, unique_key, created_ms, data";
  const selectRecord = db.prepare<RecordRow>(`SELECT ${COLUMNS} FROM records WHERE kind = ? AND account_id = ? AND id = ?`);
  const insertRecord = db.prepare(`INSERT INTO records (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const updateRecord = db.prepare(
    "UPDATE records SET status = ?, customer_id = ?, unique_key = ?, data = ? WHERE kind = ? AND account_id = ? AND id = ?",
  );
  const selectUniqueKey = db.prepare<{ id: string }>("SELECT id FROM records WHERE kind = ? AND account_id = ? AND unique_key = ?");
  const selectIdempotency = db.prepare<IdempotencyRow>(
    "SELECT fingerprint, state, status, body, created_ms FROM idempotency_keys WHERE scope = ? AND key = ?",
  );
  const deleteIdempotency = db.prepare("DELETE FROM idempotency_keys WHERE scope = ? AND key = ?");
  const insertIdempotency = db.prepare(
    "INSERT INTO idempotency_keys (scope, key, fingerprint, state, status, body, created_ms, record_kind, record_id) VALUES (?, ?, ?, 'done', ?, ?, ?, ?, ?)",
  );
  const countReferencing = db.prepare<{ n: number }>(
    "SELECT COUNT(*) AS n FROM records WHERE kind = ? AND account_id = ? AND customer_id = ? AND status IN (SELECT value FROM json_each(?))",
  );
  const selectClock = db.prepare<{ offset_ms: number }>("SELECT offset_ms FROM account_clocks WHERE account_id = ?");
  const upsertClock = db.prepare(
    "INSERT INTO account_clocks (account_id, offset_ms) VALUES (?, ?) ON CONFLICT (account_id) DO UPDATE SET offset_ms = excluded.offset_ms",
  );

  const createOnce = (request: CreateRequest): CreateOutcome => {
    const { record, claim } = request;
    if (claim) {
      const existing = selectIdempotency.get(claim.scope, claim.key);
      if (existing) {
        if (claim.nowMs - existing.created_ms < claim.retentionMs) {
          if (existing.fingerprint !== claim.fingerprint) return { kind: "mismatch" };
          if (existing.state !== "done") return { kind: "in_flight" };
          return { kind: "replayed", response: { status: existing.status, body: existing.body } };
        }
        // Kept longer than the retention: the key is treated as never seen.
        deleteIdempotency.run(claim.scope, claim.key);
      }
    }
    if (request.requires) {
      const { kind, id, statuses } = request.requires;
      const row = selectRecord.get(kind, record.accountId, id);
      if (!row || (statuses && !statuses.includes(row.status))) {
        return { kind: "precondition_failed", found: row ? toRecord(row) : undefined };
      }
    }
    if (record.uniqueKey !== null && selectUniqueKey.get(record.kind, record.accountId, record.uniqueKey)) {
      throw new DuplicateUniqueKey();
    }
    insertRecord.run(
      record.kind,
      record.accountId,
      record.id,
      record.status,
      record.customerId,
      record.uniqueKey,
      record.createdMs,
      request.dataJson ?? JSON.stringify(record.data),
    );
    if (claim) {
      if (!request.response) throw new Error("an idempotency claim needs the response to store");
      insertIdempotency.run(claim.scope, claim.key, claim.fingerprint, request.response.status, request.response.body, claim.nowMs, record.kind, record.id);
    }
    return { kind: "created" };
  };
  const create = db.transaction(createOnce);

  // One transaction for a batch of creations. `create` checks everything that can refuse a
  // creation before it writes, so in the normal case the batch runs straight through. If a
  // statement fails anyway (a constraint, the disk), the whole batch rolls back and each of its
  // creations runs again in its own transaction: every outcome is what it would be alone.
  const createBatch = db.transaction((requests: CreateRequest[]): CreateOutcome[] =>
    requests.map((request) => {
      try {
        return createOnce(request);
      } catch (error) {
        if (error instanceof DuplicateUniqueKey) return { kind: "duplicate" } as const;
        throw error;
      }
    }),
  );
  const createAlone = (request: CreateRequest): { outcome?: CreateOutcome; error?: unknown } => {
    try {
      return { outcome: create.immediate(request) };
    } catch (error) {
      return error instanceof DuplicateUniqueKey ? { outcome: { kind: "duplicate" } } : { error };
    }
  };
  let pending: Array<{ request: CreateRequest; resolve: (outcome: CreateOutcome) => void; reject: (error: unknown) => void }> = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    let outcomes: CreateOutcome[] | undefined;
    if (batch.length > 1) {
      try {
        outcomes = createBatch.immediate(batch.map((p) => p.request));
      } catch {
        outcomes = undefined;
      }
    }
    if (outcomes) {
      outcomes.forEach((outcome, i) => batch[i].resolve(outcome));
      return;
    }
    for (const p of batch) {
      const result = createAlone(p.request);
      if (result.outcome) p.resolve(result.outcome);
      else p.reject(result.error);
    }
  };

  const update = db.transaction(
    <T>(
      kind: RecordKind,
      accountId: string,
      id: string,
      decide: (current: StoredRecord, referencing: number) => UpdateDecision<T>,
      referencing?: { kind: RecordKind; statuses: readonly string[] },
    ): { found: false } | { found: true; result: T } => {
      const row = selectRecord.get(kind, accountId, id);
      if (!row) return { found: false };
      const count = referencing ? countReferencing.get(referencing.kind, accountId, id, JSON.stringify(referencing.statuses))!.n : 0;
      const decision = decide(toRecord(row), count);
      if (decision.next) {
        const next = decision.next;
        updateRecord.run(next.status, next.customerId, next.uniqueKey, JSON.stringify(next.data), kind, accountId, id);
      }
      // The outbox row commits with the record: an acknowledged change never loses its event.
      for (const event of decision.events ?? []) {
        insertOutbox.run(event.id, event.accountId, event.url, event.type, event.payload, event.createdMs, event.createdMs);
      }
      return { found: true, result: decision.result };
    },
  );

  const OUTBOX_COLUMNS = "id, account_id, url, type, payload, state, attempts, next_attempt_ms, created_ms, last_error";
  const insertOutbox = db.prepare(`INSERT INTO webhook_outbox (${OUTBOX_COLUMNS}) VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, NULL)`);
  const selectOutboxDue = db.prepare<OutboxRow>(
    `SELECT ${OUTBOX_COLUMNS} FROM webhook_outbox WHERE state = 'pending' AND next_attempt_ms <= ? ORDER BY next_attempt_ms, id LIMIT ?`,
  );
  const selectOutboxNext = db.prepare<{ due: number | null }>("SELECT MIN(next_attempt_ms) AS due FROM webhook_outbox WHERE state = 'pending'");
  const selectOutbox = db.prepare<OutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM webhook_outbox WHERE id = ?`);
  const settleOutbox = db.prepare("UPDATE webhook_outbox SET state = ?, attempts = ?, next_attempt_ms = ?, last_error = ? WHERE id = ?");
  const selectSecrets = db.prepare<{ current: string; previous: string | null; previous_until_ms: number | null }>(
    "SELECT current, previous, previous_until_ms FROM webhook_secrets WHERE account_id = ?",
  );
  const upsertSecrets = db.prepare(
    "INSERT INTO webhook_secrets (account_id, current, previous, previous_until_ms) VALUES (?, ?, ?, ?) ON CONFLICT (account_id) DO UPDATE SET current = excluded.current, previous = excluded.previous, previous_until_ms = excluded.previous_until_ms",
  );

  const advanceClock = db.transaction((accountId: string, ms: number): number => {
    const offset = (selectClock.get(accountId)?.offset_ms ?? 0) + ms;
    upsertClock.run(accountId, offset);
    return offset;
  });

  const clockCache = new Map<string, number>();
  const windows = new Map<string, { windowStartMs: number; count: number; touchedMs: number }>();

  const store: SandboxStore = {
    create(request) {
      return new Promise<CreateOutcome>((resolve, reject) => {
        pending.push({ request, resolve, reject });
        if (pending.length === 1) setImmediate(flush);
      });
    },
    async get(kind, accountId, id) {
      const row = selectRecord.get(kind, accountId, id);
      return row ? toRecord(row) : undefined;
    },
    async update(kind, accountId, id, decide, countReferencingOf) {
      return update.immediate(kind, accountId, id, decide as never, countReferencingOf) as never;
    },
    async list(kind, accountId, query: ListQuery) {
      const where = ["kind = ?", "account_id = ?"];
      const params: unknown[] = [kind, accountId];
      if (query.status !== undefined) {
        where.push("status = ?");
        params.push(query.status);
      }
      if (query.fromMs !== undefined) {
        where.push("created_ms >= ?");
        params.push(query.fromMs);
      }
      if (query.toMs !== undefined) {
        where.push("created_ms < ?");
        params.push(query.toMs);
      }
      const clause = where.join(" AND ");
      const total = db.prepare<{ n: number }>(`SELECT COUNT(*) AS n FROM records WHERE ${clause}`).get(...params)!.n;
      const rows = db
        .prepare<RecordRow>(`SELECT ${COLUMNS} FROM records WHERE ${clause} ORDER BY created_ms DESC, seq DESC LIMIT ? OFFSET ?`)
        .all(...params, query.limit, query.offset);
      return { items: rows.map(toRecord), total };
    },
    async count(kind, accountId) {
      const row = accountId
        ? db.prepare<{ n: number }>("SELECT COUNT(*) AS n FROM records WHERE kind = ? AND account_id = ?").get(kind, accountId)
        : db.prepare<{ n: number }>("SELECT COUNT(*) AS n FROM records WHERE kind = ?").get(kind);
      return row!.n;
    },
    async clockOffset(accountId) {
      let offset = clockCache.get(accountId);
      if (offset === undefined) {
        offset = selectClock.get(accountId)?.offset_ms ?? 0;
        clockCache.set(accountId, offset);
      }
      return offset;
    },
    async advanceClock(accountId, ms) {
      const offset = advanceClock.immediate(accountId, ms);
      clockCache.set(accountId, offset);
      return offset;
    },
    async consumeRateLimit(windowStartMs, buckets: readonly RateLimitBucket[]): Promise<RateLimitOutcome> {
      const current = buckets.map((bucket) => {
        const entry = windows.get(bucket.key);
        return entry && entry.windowStartMs === windowStartMs ? entry.count : 0;
      });
      if (buckets.some((bucket, i) => current[i] + 1 > bucket.limit)) return { admitted: false, counts: current };
      const touchedMs = Date.now();
      const counts = current.map((count, i) => {
        windows.set(buckets[i].key, { windowStartMs, count: count + 1, touchedMs });
        return count + 1;
      });
      // Windows are per account clock, so age is measured on the real clock: a counter left
      // untouched for ten minutes belongs to a window that is over.
      if (windows.size > 50_000) {
        for (const [key, entry] of windows) if (touchedMs - entry.touchedMs > 600_000) windows.delete(key);
      }
      return { admitted: true, counts };
    },
    async outboxDue(nowMs, limit) {
      return selectOutboxDue.all(nowMs, limit).map(toOutboxEvent);
    },
    async outboxNextDueMs() {
      return selectOutboxNext.get()?.due ?? undefined;
    },
    async outboxGet(id) {
      const row = selectOutbox.get(id);
      return row ? toOutboxEvent(row) : undefined;
    },
    async outboxSettle(id, change) {
      if (!db.open) return; // closed while an attempt was in flight: the event stays pending
      settleOutbox.run(change.state, change.attempts, change.nextAttemptMs, change.lastError, id);
    },
    async webhookSecrets(accountId) {
      const row = selectSecrets.get(accountId);
      return row ? { current: row.current, previous: row.previous, previousUntilMs: row.previous_until_ms } : undefined;
    },
    async saveWebhookSecrets(accountId, secrets) {
      upsertSecrets.run(accountId, secrets.current, secrets.previous, secrets.previousUntilMs);
    },
    async close() {
      if (pending.length > 0) flush();
      await checkpointer.stop();
      if (db.open) db.close();
    },
  };
  return store;
}

class DuplicateUniqueKey extends Error {}
