/**
 * The embedded store: one SQLite file in the data directory, composed of one module per table
 * or concern in ./sqlite/:
 *
 *   driver.ts           the driver: better-sqlite3, or Node's own node:sqlite (Node 22.13+)
 *   schema.ts           tables, connection settings, schema versions and migration
 *   records.ts          the records (JSON documents with promoted columns) and their atomic update
 *   idempotency.ts      idempotency keys claimed with a creation, and their replay
 *   group-commit.ts     creations batched into one transaction per event-loop turn
 *   outbox.ts           the webhook outbox
 *   webhook-secrets.ts  the accounts' rotated webhook secrets
 *   clocks.ts           the accounts' clock offsets
 *
 * Durability: the database runs in WAL mode. With `synchronous=NORMAL` (the default,
 * durability "process") a COMMIT has written its pages to the WAL file with write(2) before
 * the call returns, and the sandbox answers only after the COMMIT returned. A process killed
 * with `kill -9` loses nothing it acknowledged: the pages are in the operating system's cache,
 * reach the file, and the next open replays the WAL. What NORMAL does not survive is a power
 * loss or a kernel crash (the last commits may roll back; the database stays consistent).
 * Durability "power" selects `synchronous=FULL`, which also fsyncs the WAL on every commit.
 *
 * Both drivers are synchronous, so each store method runs as one SQLite transaction that no
 * other request can interleave with: an idempotency key is claimed by the same transaction that
 * inserts the record (and a unique (scope, key) primary key backs it). Creations are
 * group-committed (group-commit.ts); WAL checkpoints run in a worker thread (checkpointer.ts).
 *
 * Rate-limit counters are not stored: they live in memory (../rate-limit-counter.ts), and `admit`
 * answers synchronously (cached clock offset, in-memory counters): one process is this store's
 * only user, so nothing needs a round trip.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { startCheckpoints, type Checkpoints } from "./checkpointer.ts";
import { accountClocks } from "./sqlite/clocks.ts";
import { sqliteDriver, type SqliteDriverName } from "./sqlite/driver.ts";
import { groupCommit } from "./sqlite/group-commit.ts";
import { idempotencyKeys } from "./sqlite/idempotency.ts";
import { webhookOutbox } from "./sqlite/outbox.ts";
import { recordTable, recordUpdate } from "./sqlite/records.ts";
import { openDatabase, type Durability } from "./sqlite/schema.ts";
import { webhookSecretTable } from "./sqlite/webhook-secrets.ts";
import { createRateLimitCounter } from "../rate-limit-counter.ts";
import type { SandboxStore } from "./types.ts";

export type { Durability } from "./sqlite/schema.ts";
export type { SqliteDriverName } from "./sqlite/driver.ts";

export interface SqliteStoreOptions {
  dataDir: string;
  durability?: Durability;
  /** Unset: better-sqlite3 when its binding loads, else node:sqlite. */
  driver?: SqliteDriverName;
  /** Where WAL checkpoints run (checkpointer.ts): `worker` (default) or `inline`. */
  checkpoints?: Checkpoints;
}

export type { Checkpoints } from "./checkpointer.ts";

/** File name of the database inside the data directory. */
export const DATABASE_FILE = "sandbox.sqlite";

/** Opens (creating when needed) the store in `dataDir`. */
export function openSqliteStore(options: SqliteStoreOptions): SandboxStore {
  const driver = sqliteDriver(options.driver);
  mkdirSync(options.dataDir, { recursive: true });
  const file = join(options.dataDir, DATABASE_FILE);
  const db = openDatabase(driver, file, options.durability);
  const checkpointer = startCheckpoints(driver.module, file, db, options.checkpoints);

  const records = recordTable(db);
  const outbox = webhookOutbox(db);
  const creations = groupCommit(db, records, idempotencyKeys(db));
  const update = recordUpdate(db, records, outbox.enqueue);
  const secrets = webhookSecretTable(db);
  const clocks = accountClocks(db);
  const counters = createRateLimitCounter();

  return {
    info: { kind: "sqlite", shared: false, location: file, driver: driver.name },
    admit(accountId, windowStartMs, buckets) {
      const offsetMs = accountId === undefined ? 0 : clocks.offset(accountId);
      const outcome = counters.consume(windowStartMs, buckets);
      return { offsetMs, admitted: outcome.admitted, counts: outcome.counts };
    },
    // The database is this process's own file: it answers whenever the server does (the store
    // closes only after the server has stopped taking requests, lifecycle.ts's closeOnce).
    async ping() {
      return { ok: true };
    },
    create: creations.create,
    async get(kind, accountId, id) {
      return records.get(kind, accountId, id);
    },
    async update(kind, accountId, id, decide, options) {
      return update.immediate(kind, accountId, id, decide as never, options) as never;
    },
    async list(kind, accountId, query) {
      return records.list(kind, accountId, query);
    },
    async clockOffset(accountId) {
      return clocks.offset(accountId);
    },
    async advanceClock(accountId, ms, maxOffsetMs) {
      const offset = clocks.advance(accountId, ms, maxOffsetMs);
      if (offset !== null) outbox.advance(accountId, ms);
      return offset;
    },
    async outboxClaim(nowMs, limit, leaseUntilMs) {
      return outbox.claim(nowMs, limit, leaseUntilMs);
    },
    async outboxNextDueMs() {
      return outbox.nextDueMs();
    },
    // Stryker disable next-line BlockStatement: no part of the sandbox reads one event by its id (the store's own tests do)
    async outboxGet(id) {
      return outbox.get(id);
    },
    async outboxSettle(id, lease, change, attempt) {
      return outbox.settle(id, lease, change, attempt);
    },
    // Stryker disable next-line BlockStatement: read only by the delivery log control, a fixture of the sandbox's own (resources/controls.ts, left out)
    async outboxDeliveries(accountId, offset, limit) {
      return outbox.deliveries(accountId, offset, limit);
    },
    async webhookSecrets(accountId) {
      return secrets.get(accountId);
    },
    async saveWebhookSecrets(accountId, value) {
      secrets.save(accountId, value);
    },
    // Stryker disable next-line BlockStatement: closing: what the store does when the sandbox shuts down, after its last answer
    async close() {
      creations.flush();
      await checkpointer.stop();
      // Stryker disable next-line ConditionalExpression: closing (above)
      if (db.open) db.close();
    },
  };
}
