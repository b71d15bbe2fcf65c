/**
 * The store's connections: a pool whose connections carry the store's settings, the schema brought
 * up to date before the first request, and the two ways the store talks to it: one prepared
 * query on any connection, or a transaction on one.
 */
import type { PoolClient, QueryResult, QueryResultRow } from "pg";
import pg from "pg";
import { isUnavailable, unavailable } from "./faults.ts";
import { migrate } from "./schema.ts";

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

/** One query on any connection, as a named prepared statement (parsed and planned once per connection). */
export type PooledQuery = <R extends QueryResultRow>(text: string, values?: unknown[]) => Promise<QueryResult<R>>;
/** Runs `work` in one transaction on one connection. */
export type Transaction = <T>(work: (client: PoolClient) => Promise<T>) => Promise<T>;

/** A pool with the store's connection settings, its schema migrated and its statistics current. */
export async function openPool(options: PostgresStoreOptions): Promise<pg.Pool> {
  const pool = newPool(options);
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
  return pool;
}

function newPool(options: PostgresStoreOptions): pg.Pool {
  const queryTimeoutMs = options.queryTimeoutMs ?? 5000;
  // Session settings travel in the startup message, after those of the URL (`options=`).
  const url = new URL(options.url);
  const urlOptions = url.searchParams.get("options") ?? "";
  url.searchParams.delete("options");
  return new pg.Pool({
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
}

/** Queries by constant texts (every query text here is a constant), each a named prepared statement. */
export function preparedQueries(pool: pg.Pool): PooledQuery {
  const names = new Map<string, string>();
  return async function q<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>> {
    let name = names.get(text);
    if (name === undefined) names.set(text, (name = `sbx_${names.size}`));
    try {
      return await pool.query<R>({ name, text, values });
    } catch (error) {
      unavailable(error);
    }
  };
}

/** Transactions on one connection each; a broken connection is not reused. */
export function transactions(pool: pg.Pool): Transaction {
  return async function tx<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    let client: PoolClient;
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
  };
}

/**
 * Statistics while a table grows from empty faster than autovacuum looks (once a minute): with
 * none, the planner may read an account's records through the time index to find one id. The
 * store analyses its tables after 100, 1,000, 10,000... creations of this instance.
 */
export function analyzeAsTablesGrow(pool: pg.Pool): () => void {
  let createdCount = 0;
  let nextAnalyze = 100;
  return () => {
    if (++createdCount < nextAnalyze) return;
    nextAnalyze *= 10;
    pool.query("ANALYZE records, idempotency_keys").catch(() => undefined);
  };
}
