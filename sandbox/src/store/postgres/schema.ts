/**
 * The PostgreSQL store's schema: versioned migrations recorded in `sandbox_schema_version`,
 * applied under an advisory lock so that instances starting at the same moment against an
 * empty database do not race (the first migrates, the others wait and then find the schema
 * current). A database whose schema is newer than this code is refused (SchemaTooNewError).
 *
 * Tables follow the SQLite store's (records as JSON text with promoted columns, idempotency
 * keys, the webhook outbox and its delivery log, secrets, clocks), plus the rate-limit counters
 * (UNLOGGED: they only matter for the current window, like SQLite's in-memory ones) and
 * `sandbox_admit`, which reads the account's clock and charges the rate-limit buckets in one
 * round trip.
 */
import type { PoolClient } from "pg";
import { SchemaTooNewError } from "../sqlite/schema.ts";

export { SchemaTooNewError } from "../sqlite/schema.ts";

/** Advisory lock key (class, object): the object is the schema's name, hashed, so schemas of one database migrate apart. */
const LOCK_CLASS = 0x5a4d;

const MIGRATIONS: ReadonlyArray<{ version: number; sql: string }> = [
  {
    version: 1,
    sql: `
CREATE TABLE records (
  seq BIGSERIAL PRIMARY KEY,
  kind TEXT NOT NULL,
  account_id TEXT NOT NULL,
  id TEXT NOT NULL,
  status TEXT NOT NULL,
  customer_id TEXT,
  unique_key TEXT,
  created_ms BIGINT NOT NULL,
  data TEXT NOT NULL
);
CREATE UNIQUE INDEX records_by_id ON records (kind, account_id, id);
CREATE INDEX records_by_time ON records (kind, account_id, created_ms DESC, seq DESC);
CREATE INDEX records_by_customer ON records (kind, account_id, customer_id, status) WHERE customer_id IS NOT NULL;
CREATE UNIQUE INDEX records_by_unique_key ON records (kind, account_id, unique_key) WHERE unique_key IS NOT NULL;
CREATE TABLE idempotency_keys (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  created_ms BIGINT NOT NULL,
  record_kind TEXT NOT NULL,
  record_id TEXT NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE TABLE webhook_outbox (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  url TEXT NOT NULL,
  type TEXT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  next_attempt_ms BIGINT NOT NULL,
  created_ms BIGINT NOT NULL,
  last_error TEXT,
  lease TEXT,
  lease_owner TEXT
);
CREATE INDEX webhook_outbox_due ON webhook_outbox (next_attempt_ms, id) WHERE state = 'pending';
CREATE INDEX webhook_outbox_by_account ON webhook_outbox (account_id, created_ms DESC, id DESC);
CREATE TABLE webhook_attempts (
  event_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  started_ms BIGINT NOT NULL,
  ended_ms BIGINT NOT NULL,
  instance TEXT NOT NULL,
  outcome TEXT NOT NULL,
  error TEXT,
  next_attempt_ms BIGINT,
  PRIMARY KEY (event_id, attempt)
);
CREATE TABLE webhook_secrets (
  account_id TEXT PRIMARY KEY,
  current TEXT NOT NULL,
  previous TEXT,
  previous_until_ms BIGINT
);
CREATE TABLE account_clocks (
  account_id TEXT PRIMARY KEY,
  offset_ms BIGINT NOT NULL
);
CREATE UNLOGGED TABLE rate_limit_counters (
  bucket TEXT PRIMARY KEY,
  window_start_ms BIGINT NOT NULL,
  count INTEGER NOT NULL
);
-- The clock offset of the account (0 without one) and the request charged to every bucket of
-- the window if none would exceed its limit, else to none. Each bucket is charged by one upsert
-- (renewing a window that is over); a refusal takes the charges back before the function
-- returns, in the same transaction. Buckets are locked in the order given, the general bucket
-- always last, so two requests never wait on each other in a cycle.
CREATE FUNCTION sandbox_admit(p_account TEXT, p_keys TEXT[], p_limits INTEGER[], p_window BIGINT,
                              OUT o_offset BIGINT, OUT o_admitted BOOLEAN, OUT o_counts INTEGER[])
LANGUAGE plpgsql AS $fn$
DECLARE
  c INTEGER;
  i INTEGER;
  n INTEGER := coalesce(array_length(p_keys, 1), 0);
BEGIN
  o_admitted := TRUE;
  o_counts := '{}';
  FOR i IN 1 .. n LOOP
    INSERT INTO rate_limit_counters AS r (bucket, window_start_ms, count) VALUES (p_keys[i], p_window, 1)
      ON CONFLICT (bucket) DO UPDATE
        SET window_start_ms = p_window, count = CASE WHEN r.window_start_ms = p_window THEN r.count + 1 ELSE 1 END
      RETURNING r.count INTO c;
    o_counts := o_counts || c;
    IF c > p_limits[i] THEN o_admitted := FALSE; END IF;
  END LOOP;
  IF NOT o_admitted THEN
    FOR i IN 1 .. n LOOP
      UPDATE rate_limit_counters SET count = count - 1 WHERE bucket = p_keys[i];
      o_counts[i] := o_counts[i] - 1;
    END LOOP;
  END IF;
  o_offset := 0;
  IF p_account IS NOT NULL THEN
    SELECT a.offset_ms INTO o_offset FROM account_clocks a WHERE a.account_id = p_account;
    o_offset := coalesce(o_offset, 0);
  END IF;
END
$fn$;
-- A batch of admissions in one call (the requests of one event-loop turn of one instance), in
-- order: every bucket the batch touches is created if missing and locked first, in sorted
-- order, so that two instances' batches never wait on each other in a cycle; then each request
-- is charged (or refused) as sandbox_admit would. p_requests: [{a: account|null, k: [bucket],
-- l: [limit], w: window start}]; answers [{o: offset, ok: admitted, c: [count]}].
CREATE FUNCTION sandbox_admit_batch(p_requests JSONB) RETURNS JSONB
LANGUAGE plpgsql AS $fn$
DECLARE
  keys TEXT[];
  req JSONB;
  answers JSONB := '[]'::jsonb;
  counts INTEGER[];
  ok BOOLEAN;
  c INTEGER;
  i INTEGER;
  n INTEGER;
  w BIGINT;
  off BIGINT;
BEGIN
  SELECT array_agg(DISTINCT k ORDER BY k) INTO keys FROM jsonb_array_elements(p_requests) r, jsonb_array_elements_text(r->'k') k;
  IF keys IS NOT NULL THEN
    INSERT INTO rate_limit_counters (bucket, window_start_ms, count) SELECT k, 0, 0 FROM unnest(keys) k ORDER BY k ON CONFLICT (bucket) DO NOTHING;
    PERFORM 1 FROM rate_limit_counters WHERE bucket = ANY(keys) ORDER BY bucket FOR UPDATE;
  END IF;
  FOR req IN SELECT value FROM jsonb_array_elements(p_requests) LOOP
    n := jsonb_array_length(req->'k');
    w := (req->>'w')::bigint;
    counts := '{}';
    ok := TRUE;
    FOR i IN 0 .. n - 1 LOOP
      SELECT CASE WHEN window_start_ms = w THEN count ELSE 0 END INTO c FROM rate_limit_counters WHERE bucket = req->'k'->>i;
      counts := counts || c;
      IF c + 1 > (req->'l'->>i)::int THEN ok := FALSE; END IF;
    END LOOP;
    IF ok THEN
      FOR i IN 0 .. n - 1 LOOP
        UPDATE rate_limit_counters SET window_start_ms = w, count = counts[i + 1] + 1 WHERE bucket = req->'k'->>i;
        counts[i + 1] := counts[i + 1] + 1;
      END LOOP;
    END IF;
    off := 0;
    IF req->>'a' IS NOT NULL THEN
      SELECT a.offset_ms INTO off FROM account_clocks a WHERE a.account_id = req->>'a';
      off := coalesce(off, 0);
    END IF;
    answers := answers || jsonb_build_object('o', off, 'ok', ok, 'c', to_jsonb(counts));
  END LOOP;
  RETURN answers;
END
$fn$;
`,
  },
  {
    // Version 2: the hot paths as functions whose inner statements keep their plans (the
    // sessions force custom plans, which would re-plan every statement on every call), and
    // admissions charged per bucket rather than per request. Version 1's functions stay for
    // instances still running older code.
    version: 2,
    sql: `
-- A batch of admissions (the requests of one event-loop turn of one instance) in one call and
-- one transaction. The caller numbers the batch's distinct buckets (p_keys, 1-based); request r
-- counts against the buckets p_pairs[q] for its pairs q (p_sizes[r] of them, in order), each
-- with its limit p_limits[q], in the window p_windows[r]. Every bucket is created if missing and
-- locked in the database's sort order (two instances' batches never wait on each other in a
-- cycle), read once, charged in memory request after request (admitted only if every bucket
-- has room; a refusal charges nothing), and written once. Answers, per request, whether it was
-- admitted; per pair, the bucket's count after the request (before it, when refused); per
-- account of p_accounts, its clock offset (0 without one).
CREATE FUNCTION sandbox_admit_many(p_keys TEXT[], p_windows BIGINT[], p_sizes INTEGER[], p_pairs INTEGER[], p_limits INTEGER[], p_accounts TEXT[],
                                   OUT o_admitted BOOLEAN[], OUT o_counts INTEGER[], OUT o_offsets BIGINT[])
LANGUAGE plpgsql SET plan_cache_mode = auto AS $fn$
DECLARE
  windows BIGINT[] := '{}';
  counts INTEGER[] := '{}';
  charged BOOLEAN[] := '{}';
  w BIGINT;
  c INTEGER;
  j INTEGER;
  q INTEGER;
  r INTEGER;
  first INTEGER := 1;
  ok BOOLEAN;
BEGIN
  o_admitted := '{}';
  o_counts := '{}';
  o_offsets := '{}';
  INSERT INTO rate_limit_counters (bucket, window_start_ms, count) SELECT k, 0, 0 FROM unnest(p_keys) k ORDER BY k ON CONFLICT (bucket) DO NOTHING;
  FOR j IN SELECT u.i FROM unnest(p_keys) WITH ORDINALITY u(k, i) ORDER BY u.k LOOP
    SELECT window_start_ms, count INTO w, c FROM rate_limit_counters WHERE bucket = p_keys[j] FOR UPDATE;
    windows[j] := w;
    counts[j] := c;
    charged[j] := FALSE;
  END LOOP;
  FOR r IN 1 .. coalesce(array_length(p_sizes, 1), 0) LOOP
    ok := TRUE;
    FOR q IN first .. first + p_sizes[r] - 1 LOOP
      j := p_pairs[q];
      o_counts[q] := CASE WHEN windows[j] = p_windows[r] THEN counts[j] ELSE 0 END;
      IF o_counts[q] + 1 > p_limits[q] THEN ok := FALSE; END IF;
    END LOOP;
    IF ok THEN
      FOR q IN first .. first + p_sizes[r] - 1 LOOP
        j := p_pairs[q];
        o_counts[q] := o_counts[q] + 1;
        windows[j] := p_windows[r];
        counts[j] := o_counts[q];
        charged[j] := TRUE;
      END LOOP;
    END IF;
    o_admitted[r] := ok;
    first := first + p_sizes[r];
  END LOOP;
  FOR j IN 1 .. coalesce(array_length(p_keys, 1), 0) LOOP
    IF charged[j] THEN
      UPDATE rate_limit_counters SET window_start_ms = windows[j], count = counts[j] WHERE bucket = p_keys[j];
    END IF;
  END LOOP;
  FOR j IN 1 .. coalesce(array_length(p_accounts, 1), 0) LOOP
    SELECT a.offset_ms INTO w FROM account_clocks a WHERE a.account_id = p_accounts[j];
    o_offsets[j] := coalesce(w, 0);
  END LOOP;
END
$fn$;
-- A batch of creations without a precondition in one statement and one transaction: the
-- idempotency keys claimed in key order (two instances' batches never wait on each other in a
-- cycle) and the records inserted whose key was claimed (or that have none). p_input: one JSON
-- object per creation (its index i, the record's columns, the claim and the response to
-- store); answers the indexes created. A key already used creates nothing (the caller replays
-- it); a unique key already taken fails the whole statement.
CREATE FUNCTION sandbox_create_many(p_input JSONB) RETURNS INTEGER[]
LANGUAGE plpgsql SET plan_cache_mode = auto AS $fn$
DECLARE
  created INTEGER[];
BEGIN
  WITH input AS (
    SELECT * FROM jsonb_to_recordset(p_input) AS x(i INT, kind TEXT, account_id TEXT, id TEXT, status TEXT, customer_id TEXT, unique_key TEXT,
      created_ms BIGINT, data TEXT, scope TEXT, key TEXT, fingerprint TEXT, rstatus INT, body TEXT, now_ms BIGINT)
  ), claim AS (
    INSERT INTO idempotency_keys (scope, key, fingerprint, status, body, created_ms, record_kind, record_id)
    SELECT scope, key, fingerprint, rstatus, body, now_ms, kind, id FROM input WHERE scope IS NOT NULL ORDER BY scope, key, i
    ON CONFLICT (scope, key) DO NOTHING RETURNING scope, key, record_id
  ), chosen AS (
    SELECT input.* FROM input WHERE scope IS NULL
      OR EXISTS (SELECT 1 FROM claim c WHERE c.scope = input.scope AND c.key = input.key AND c.record_id = input.id)
  ), rec AS (
    INSERT INTO records (kind, account_id, id, status, customer_id, unique_key, created_ms, data)
    SELECT kind, account_id, id, status, customer_id, unique_key, created_ms, data FROM chosen ORDER BY i RETURNING 1
  ) SELECT array_agg(i) INTO created FROM chosen;
  RETURN coalesce(created, '{}');
END
$fn$;
`,
  },
];

/** The schema version this code writes and reads. */
export const PG_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/** Brings the schema (the connection's search_path) up to date, under an advisory lock. */
export async function migrate(client: PoolClient): Promise<void> {
  await client.query("SELECT pg_advisory_lock($1, hashtext(current_schema()))", [LOCK_CLASS]);
  try {
    await client.query("CREATE TABLE IF NOT EXISTS sandbox_schema_version (version INTEGER PRIMARY KEY, migrated_at TIMESTAMPTZ NOT NULL DEFAULT now())");
    const { rows } = await client.query<{ version: number | null }>("SELECT max(version) AS version FROM sandbox_schema_version");
    const current = rows[0]?.version ?? 0;
    if (current > PG_SCHEMA_VERSION) throw new SchemaTooNewError("PostgreSQL database", current, PG_SCHEMA_VERSION);
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query("INSERT INTO sandbox_schema_version (version) VALUES ($1)", [migration.version]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      }
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1, hashtext(current_schema()))", [LOCK_CLASS]).catch(() => undefined);
  }
}
