/**
 * The SQLite driver under the store: better-sqlite3 (a native module, built at install for one
 * Node ABI) or Node's own `node:sqlite` (built in, unflagged from Node 22.13). The store's
 * modules see one connection interface, the part of better-sqlite3's API they use; on
 * `node:sqlite` a thin adapter gives `DatabaseSync` the same shape (pragmas, transactions).
 *
 * Which one runs: the one asked for, or else better-sqlite3 when its binding loads (npm 11
 * builds it only where the project allows its install script, and a binding built for another
 * Node does not load), and `node:sqlite` when it does not.
 */
import { createRequire } from "node:module";

export interface SqliteRunResult {
  changes: number | bigint;
  lastInsertRowid: number | bigint;
}

export interface SqliteStatement<Row = unknown> {
  run(...params: unknown[]): SqliteRunResult;
  get(...params: unknown[]): Row | undefined;
  all(...params: unknown[]): Row[];
}

/** A function run as one transaction: BEGIN, the function, COMMIT; ROLLBACK if it throws. */
export interface SqliteTransaction<F extends (...args: never[]) => unknown> {
  (...args: Parameters<F>): ReturnType<F>;
  /** The same, begun with BEGIN IMMEDIATE: the write lock is taken before the first read. */
  immediate(...args: Parameters<F>): ReturnType<F>;
}

/** One connection, as the store's modules use it. */
export interface SqliteDatabase {
  prepare<Row = unknown>(sql: string): SqliteStatement<Row>;
  exec(sql: string): unknown;
  /** `PRAGMA source`: its rows, or with `simple` the first column of the first row. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<F extends (...args: never[]) => unknown>(fn: F): SqliteTransaction<F>;
  close(): unknown;
  readonly open: boolean;
}

export const SQLITE_DRIVERS = ["better-sqlite3", "node:sqlite"] as const;
export type SqliteDriverName = (typeof SQLITE_DRIVERS)[number];

export interface SqliteDriver {
  readonly name: SqliteDriverName;
  open(file: string): SqliteDatabase;
  /** What the checkpoint worker loads: `node:sqlite`, or the resolved path of better-sqlite3. */
  readonly module: string;
}

/** No SQLite driver can run here; the message says what to do, in one line. */
export class SqliteDriverUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SqliteDriverUnavailableError";
  }
}

const require = createRequire(import.meta.url);

interface NodeStatementSync {
  run(...params: unknown[]): SqliteRunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}
interface NodeDatabaseSync {
  prepare(sql: string): NodeStatementSync;
  exec(sql: string): void;
  close(): void;
}
type NodeSqlite = { DatabaseSync: new (file: string) => NodeDatabaseSync };

/**
 * `node:sqlite`, or the reason it is missing. Node 22 prints an ExperimentalWarning when the
 * module is first loaded; the store is an implementation detail of the sandbox, so that one
 * warning is not passed on (every other warning is).
 */
function loadNodeSqlite(): NodeSqlite | Error {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === "string" ? warning : warning.message;
    if (/\bSQLite\b/.test(text)) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    // Looked up, not imported: on Node 20 the module does not exist (undefined, no throw).
    const module = process.getBuiltinModule("node:sqlite") as NodeSqlite | undefined;
    return module ?? new Error("no such built-in module");
  } catch (error) {
    // Node 22.5 to 22.12: the module exists behind --experimental-sqlite.
    return error as Error;
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** better-sqlite3 with its binding loaded (it loads the binding on the first open), or the reason it cannot run. */
function loadBetterSqlite3(): { Database: new (file: string) => SqliteDatabase; module: string } | Error {
  try {
    const module = require.resolve("better-sqlite3");
    const Database = require(module) as new (file: string) => SqliteDatabase;
    new Database(":memory:").close();
    return { Database, module };
  } catch (error) {
    return error as Error;
  }
}

/**
 * better-sqlite3's transaction semantics on a connection that has none: BEGIN (or BEGIN
 * IMMEDIATE), the function, COMMIT; ROLLBACK if it throws. (The store never nests them.)
 */
function adaptNodeSqlite(db: NodeDatabaseSync): SqliteDatabase {
  let open = true;
  const run = <F extends (...args: never[]) => unknown>(fn: F, begin: string, args: Parameters<F>): ReturnType<F> => {
    db.exec(begin);
    try {
      const result = fn(...args) as ReturnType<F>;
      db.exec("COMMIT");
      return result;
    } catch (error) {
      try {
        db.exec("ROLLBACK");
      } catch {
        // SQLite rolled the transaction back itself (a failed COMMIT, say): nothing to undo.
      }
      throw error;
    }
  };
  return {
    prepare<Row>(sql: string) {
      return db.prepare(sql) as SqliteStatement<Row>;
    },
    exec(sql) {
      db.exec(sql);
    },
    pragma(source, options) {
      const statement = db.prepare(`PRAGMA ${source}`);
      if (!options?.simple) return statement.all();
      const row = statement.get() as Record<string, unknown> | undefined;
      return row === undefined ? undefined : Object.values(row)[0];
    },
    transaction<F extends (...args: never[]) => unknown>(fn: F): SqliteTransaction<F> {
      const transaction = (...args: Parameters<F>) => run(fn, "BEGIN", args);
      transaction.immediate = (...args: Parameters<F>) => run(fn, "BEGIN IMMEDIATE", args);
      return transaction;
    },
    close() {
      if (open) db.close();
      open = false;
    },
    get open() {
      return open;
    },
  };
}

const cache = new Map<string, SqliteDriver | Error>();

function driverNamed(name: SqliteDriverName): SqliteDriver | Error {
  let driver = cache.get(name);
  if (driver) return driver;
  if (name === "better-sqlite3") {
    const loaded = loadBetterSqlite3();
    driver = loaded instanceof Error ? loaded : { name, module: loaded.module, open: (file) => new loaded.Database(file) };
  } else {
    const loaded = loadNodeSqlite();
    driver = loaded instanceof Error ? loaded : { name, module: "node:sqlite", open: (file) => adaptNodeSqlite(new loaded.DatabaseSync(file)) };
  }
  cache.set(name, driver);
  return driver;
}

/** The first line of why a driver cannot run. */
function reason(error: Error): string {
  return (error.message || String(error)).split("\n")[0]!;
}

/**
 * The driver named by `preferred`, or else better-sqlite3 if it loads, else `node:sqlite`.
 * Throws SqliteDriverUnavailableError when none can run.
 */
export function sqliteDriver(preferred?: SqliteDriverName): SqliteDriver {
  if (preferred) {
    const driver = driverNamed(preferred);
    if (!(driver instanceof Error)) return driver;
    throw new SqliteDriverUnavailableError(
      preferred === "node:sqlite"
        ? `node:sqlite is not available in Node ${process.versions.node} (it is from Node 22.13): ${reason(driver)}`
        : `better-sqlite3 cannot be loaded: ${reason(driver)}; npm 11 builds its binding only where the project allows its install script (\`npm install --allow-scripts=better-sqlite3 ...\`), for the Node it was installed with`,
    );
  }
  const native = driverNamed("better-sqlite3");
  if (!(native instanceof Error)) return native;
  const builtIn = driverNamed("node:sqlite");
  if (!(builtIn instanceof Error)) return builtIn;
  throw new SqliteDriverUnavailableError(
    `no SQLite driver: the better-sqlite3 binding is not built for Node ${process.versions.node} (npm 11 builds it only where the project allows its install script: \`npm install --allow-scripts=better-sqlite3 ...\`), and node:sqlite needs Node 22.13 or later; or use --store postgres://...`,
  );
}
