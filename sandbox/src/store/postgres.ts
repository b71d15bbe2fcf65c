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
import type { SandboxStore } from "./types.ts";
import { accountQueries } from "./postgres/accounts.ts";
import { admissionBatches } from "./postgres/admissions.ts";
import { creations } from "./postgres/creations.ts";
import { outboxQueries } from "./postgres/outbox.ts";
import { analyzeAsTablesGrow, openPool, preparedQueries, transactions, type PostgresStoreOptions } from "./postgres/pool.ts";
import { recordQueries } from "./postgres/records.ts";

export type { PostgresStoreOptions } from "./postgres/pool.ts";

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
  const pool = await openPool(options);
  const query = preparedQueries(pool);
  const transaction = transactions(pool);
  const admit = admissionBatches(query);
  return {
    info: { kind: "postgres", shared: true, location: redactUrl(options.url) },
    admit: (accountId, windowStartMs, buckets) => admit({ accountId, windowStartMs, buckets }),
    async ping() {
      try {
        await pool.query("SELECT 1");
        return { ok: true };
      } catch (error) {
        return { ok: false, error: (error as Error).message };
      }
    },
    create: creations({ query, transaction, created: analyzeAsTablesGrow(pool) }),
    ...recordQueries(query, transaction),
    ...accountQueries(query),
    ...outboxQueries(query),
    close: () => pool.end(),
  };
}
