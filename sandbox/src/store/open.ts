/**
 * Which store a sandbox uses: SQLite (the default: a file in the data directory, nothing to
 * configure) or PostgreSQL (a connection string, `postgres://user:pass@host:5432/db`, shared by
 * several sandbox instances). The rest of the sandbox sees only `SandboxStore`.
 *
 * `sqlite` runs on better-sqlite3 when its binding loads, else on Node's own `node:sqlite`;
 * `better-sqlite3` or `node:sqlite` names the driver instead (the SQLite store either way).
 */
import { openSqliteStore, type Checkpoints, type Durability } from "./sqlite.ts";
import { SQLITE_DRIVERS, type SqliteDriverName } from "./sqlite/driver.ts";
import type { SandboxStore } from "./types.ts";

export interface OpenStoreOptions {
  /**
   * `sqlite` (or unset) for the embedded store, `better-sqlite3` or `node:sqlite` for it on that
   * driver; a `postgres://` or `postgresql://` URL for the shared one.
   */
  store?: string;
  dataDir: string;
  durability?: Durability;
  /** Where the SQLite store runs its WAL checkpoints (see SqliteStoreOptions); PostgreSQL ignores it. */
  checkpoints?: Checkpoints;
}

/** Whether `store` names a PostgreSQL database. */
export function isPostgresUrl(store: string | undefined): store is string {
  return store !== undefined && /^postgres(ql)?:\/\//i.test(store);
}

export async function openStore(options: OpenStoreOptions): Promise<SandboxStore> {
  if (options.store === undefined || options.store === "" || options.store === "sqlite") {
    return openSqliteStore({ dataDir: options.dataDir, durability: options.durability, checkpoints: options.checkpoints });
  }
  if (SQLITE_DRIVERS.includes(options.store as SqliteDriverName)) {
    return openSqliteStore({ dataDir: options.dataDir, durability: options.durability, checkpoints: options.checkpoints, driver: options.store as SqliteDriverName });
  }
  if (isPostgresUrl(options.store)) {
    // Loaded only when used: the SQLite path never loads the driver.
    const { openPostgresStore } = await import("./postgres.ts");
    return openPostgresStore({ url: options.store, durability: options.durability });
  }
  throw new Error(`unknown store "${options.store}": use sqlite (the default), better-sqlite3, node:sqlite or a postgres:// connection string`);
}
