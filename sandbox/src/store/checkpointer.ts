/**
 * WAL checkpoints off the request thread. SQLite's automatic checkpoint runs inside the COMMIT
 * that crosses the WAL size threshold, so one request in every few hundred pays for copying
 * the WAL into the database file and for its fsyncs, on the event loop that serves every
 * other request. Instead, the store's own connection runs with `wal_autocheckpoint = 0` and
 * this worker thread, on a second connection to the same file, runs a PASSIVE checkpoint at
 * a fixed interval. A passive checkpoint never blocks writers and copies only what no reader
 * still needs; once the WAL is wholly checkpointed, the next writer starts it over from the
 * beginning (and `journal_size_limit` keeps the file from staying large).
 *
 * Durability is unchanged: a COMMIT still writes the WAL before it returns; checkpoints only
 * move committed pages into the main file.
 */
import { Worker } from "node:worker_threads";
import type { SqliteDatabase } from "./sqlite/driver.ts";

/** How often the worker checkpoints (ms). */
export const CHECKPOINT_INTERVAL_MS = 200;

// The worker is plain CommonJS evaluated from a string so that it runs the same under tsx,
// plain node and a bundled build; it opens the file with the store's own driver (node:sqlite,
// whose experimental-feature warning on Node 22 is not passed on, or better-sqlite3's path).
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
let db;
if (workerData.driver === "node:sqlite") {
  const emitWarning = process.emitWarning;
  process.emitWarning = (warning, ...rest) => /\\bSQLite\\b/.test(String(warning && warning.message || warning)) ? undefined : emitWarning.call(process, warning, ...rest);
  const { DatabaseSync } = require("node:sqlite");
  process.emitWarning = emitWarning;
  db = new DatabaseSync(workerData.file);
} else {
  const Database = require(workerData.driver);
  db = new Database(workerData.file);
}
db.exec("PRAGMA busy_timeout = 5000");
let stopped = false;
const tick = () => {
  if (stopped) return;
  try { db.exec("PRAGMA wal_checkpoint(PASSIVE)"); } catch (error) { parentPort.postMessage({ error: String(error) }); }
  timer = setTimeout(tick, workerData.intervalMs);
};
let timer = setTimeout(tick, workerData.intervalMs);
parentPort.on("message", () => {
  stopped = true;
  clearTimeout(timer);
  try { db.close(); } catch {}
  parentPort.postMessage({ closed: true });
});
`;

export interface Checkpointer {
  /** Stops the worker after its current checkpoint and closes its connection. */
  stop(): Promise<void>;
}

/** SQLite's default threshold (pages) for the automatic checkpoints the store falls back to. */
const AUTOMATIC_CHECKPOINT_PAGES = 1000;

/**
 * Starts the worker on `file` with `driver` (what the store's driver says the worker loads:
 * `node:sqlite` or better-sqlite3's path). If the worker dies (it cannot load, say), the store's
 * connection `db` goes back to SQLite's automatic checkpoints so that the WAL does not grow
 * without bound.
 */
export function startCheckpointer(driver: string, file: string, db: Pick<SqliteDatabase, "open" | "pragma">, intervalMs = CHECKPOINT_INTERVAL_MS): Checkpointer {
  // No inherited flags: `--input-type=module` would make the CommonJS source above ESM, and the
  // TypeScript loader is not needed for it.
  const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { driver, file, intervalMs } });
  // A checkpoint that fails (disk full, say) leaves the WAL growing but loses nothing.
  worker.on("message", (message: { error?: string }) => {
    if (message.error) console.error(`sandbox store: background checkpoint failed: ${message.error}`);
  });
  worker.on("error", (error) => {
    console.error("sandbox store: checkpoint worker stopped, back to automatic checkpoints:", error);
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOMATIC_CHECKPOINT_PAGES}`);
  });
  worker.unref();
  // A worker that died has nothing left to stop (and would never answer).
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  let stopping: Promise<void> | undefined;
  return {
    stop() {
      // Referenced again while stopping: an unreferenced worker would let the process exit
      // before the worker's answer arrives, leaving this promise pending forever.
      worker.ref();
      stopping ??= new Promise<void>((resolve) => {
        void exited.then(resolve);
        const done = () => {
          void worker.terminate().then(() => resolve());
        };
        worker.on("message", (message: { closed?: boolean }) => {
          if (message.closed) done();
        });
        worker.postMessage("stop");
      });
      return stopping;
    },
  };
}

/**
 * Where WAL checkpoints run: `worker` (a worker thread, off the request thread) or `inline`
 * (SQLite's automatic checkpoint inside the commit that crosses the threshold). A short-lived
 * sandbox that serves one test run takes `inline`: starting the worker costs it more CPU (about
 * 30 ms: a second isolate and connection) than checkpoints off its event loop save it.
 */
export type Checkpoints = "worker" | "inline";

/** The store's checkpoints on `db`, where `where` says (default: the worker). */
export function startCheckpoints(driver: string, file: string, db: Pick<SqliteDatabase, "open" | "pragma">, where: Checkpoints = "worker"): Checkpointer {
  if (where === "worker") return startCheckpointer(driver, file, db);
  db.pragma(`wal_autocheckpoint = ${AUTOMATIC_CHECKPOINT_PAGES}`);
  return { stop: async () => {} };
}
