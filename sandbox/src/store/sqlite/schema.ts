/**
 * The tables of the SQLite store, the connection settings, and the schema versions with the
 * migration that brings an older database up to date when it is opened.
 */
import type { SqliteDatabase, SqliteDriver } from "./driver.ts";

export type Durability = "process" | "power";

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
  last_error TEXT,
  lease TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS webhook_outbox_due ON webhook_outbox (state, next_attempt_ms);
CREATE INDEX IF NOT EXISTS webhook_outbox_by_account ON webhook_outbox (account_id, created_ms DESC, id DESC);
CREATE TABLE IF NOT EXISTS webhook_attempts (
  event_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  started_ms INTEGER NOT NULL,
  ended_ms INTEGER NOT NULL,
  instance TEXT NOT NULL,
  outcome TEXT NOT NULL,
  error TEXT,
  next_attempt_ms INTEGER,
  PRIMARY KEY (event_id, attempt)
) WITHOUT ROWID;
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
 * the stored response. Version 2 adds the outbox's lease token and the delivery log
 * (`webhook_attempts`). Older databases are migrated on open; a newer one is refused.
 */
export const SCHEMA_VERSION = 2;

/** A database written by a newer sandbox than this one (its schema version is higher). */
export class SchemaTooNewError extends Error {
  constructor(where: string, found: number, supported: number) {
    super(`the ${where} has schema version ${found}, newer than this sandbox supports (${supported}); upgrade the sandbox or use another database`);
    this.name = "SchemaTooNewError";
  }
}

/** Creates the tables, or brings a database of an earlier version up to the current one. */
export function migrate(db: SqliteDatabase): void {
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version > SCHEMA_VERSION) throw new SchemaTooNewError("SQLite database", version, SCHEMA_VERSION);
  if (version >= SCHEMA_VERSION) return;
  const legacy = db.prepare<{ sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'idempotency_keys'").get();
  const outboxColumns = db.prepare<{ name: string }>("SELECT name FROM pragma_table_info('webhook_outbox')").all().map((c) => c.name);
  db.transaction(() => {
    if (legacy && /WITHOUT ROWID/i.test(legacy.sql)) db.exec("ALTER TABLE idempotency_keys RENAME TO idempotency_keys_v0");
    // Version 2: the lease column of an existing outbox (a new one is created with it).
    if (outboxColumns.length > 0 && !outboxColumns.includes("lease")) db.exec("ALTER TABLE webhook_outbox ADD COLUMN lease TEXT");
    db.exec(SCHEMA);
    if (legacy && /WITHOUT ROWID/i.test(legacy.sql)) {
      db.exec(`INSERT INTO idempotency_keys (scope, key, fingerprint, state, status, body, created_ms, record_kind, record_id)
               SELECT scope, key, fingerprint, state, status, body, created_ms, record_kind, record_id FROM idempotency_keys_v0;
               DROP TABLE idempotency_keys_v0;`);
    }
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}

/**
 * Opens the database file with the store's settings: WAL, `synchronous` by durability, no
 * automatic checkpoints (the checkpointer worker runs them), and the file memory-mapped so that
 * lookups by id stay in memory with a million stored records. The schema is brought up to date.
 */
export function openDatabase(driver: SqliteDriver, file: string, durability: Durability | undefined): SqliteDatabase {
  const db = driver.open(file);
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${durability === "power" ? "FULL" : "NORMAL"}`);
  db.pragma("busy_timeout = 5000");
  // Checkpoints run in a worker thread (../checkpointer.ts), not inside request commits.
  db.pragma("wal_autocheckpoint = 0");
  db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  // The database file is read through a memory map (up to 1 GiB, then read(2) beyond): with a
  // million stored records, lookups by id read pages from the operating system's cache without
  // a system call or a copy. The page cache proper then only holds pages read from the WAL and
  // those a transaction changes, and it is kept small (8 MiB) because SQLite scans the whole
  // page-cache hash table at the end of many write transactions: with the 64 MiB cache used
  // before, that scan alone took about 4% of the CPU of a POST under load (perf).
  db.pragma(`cache_size = ${-8 * 1024}`);
  db.pragma(`mmap_size = ${1024 * 1024 * 1024}`);
  migrate(db);
  resetUnwritableClocks(db);
  return db;
}

/** The furthest a date reaches from the epoch, either way (ECMAScript's time value). */
const MAX_TIME_MS = 8.64e15;

/**
 * An offset an earlier version stored beyond what a date can hold (every advance now checks
 * before it writes) reads as none: reset on opening the file, so that every offset read is one.
 */
function resetUnwritableClocks(db: SqliteDatabase): void {
  const now = Date.now();
  db.prepare("UPDATE account_clocks SET offset_ms = 0 WHERE typeof(offset_ms) <> 'integer' OR offset_ms > ? OR offset_ms < ?").run(MAX_TIME_MS - now, -MAX_TIME_MS - now);
}
