/**
 * The embedded store on its own: group-committed creations keep the outcome each creation
 * would have alone, databases written by earlier schema versions open with what they hold and a
 * newer one is refused, the connection runs with the settings its durability names, WAL
 * checkpoints happen without any request running them (and automatic ones take over when the
 * worker cannot run), and a store is opened by its name. Once per SQLite driver this Node can
 * run: better-sqlite3 where its binding is built for it, node:sqlite from Node 22.13 (CI runs
 * this file on both). These are the proofs of what the mutation run leaves out of the store
 * (mutation/README.md): no client of the API can see any of it.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startCheckpointer } from "../src/store/checkpointer.ts";
import { isPostgresUrl, openStore } from "../src/store/open.ts";
import { DATABASE_FILE, openSqliteStore } from "../src/store/sqlite.ts";
import { SQLITE_DRIVERS, sqliteDriver, type SqliteDriverName } from "../src/store/sqlite/driver.ts";
import { openDatabase, SCHEMA_VERSION, SchemaTooNewError } from "../src/store/sqlite/schema.ts";
import type { CreateRequest, SandboxStore } from "../src/store/types.ts";

const dirs: string[] = [];
const stores: SandboxStore[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "sandbox-store-"));
  dirs.push(dir);
  return dir;
}

/** The drivers that load here. */
const drivers = SQLITE_DRIVERS.filter((name) => {
  try {
    return sqliteDriver(name).name === name;
  } catch {
    return false;
  }
});

function charge(id: string, extra: Partial<CreateRequest> = {}, uniqueKey: string | null = null): CreateRequest {
  return {
    record: { kind: "charge", accountId: "acc_1", id, status: "pending", customerId: null, uniqueKey, createdMs: 1_700_000_000_000, data: { id } },
    ...extra,
  };
}

function claimed(id: string, key: string): CreateRequest {
  return charge(id, {
    claim: { scope: "key_1", key, fingerprint: `fp-${key}`, nowMs: 1_700_000_000_000, retentionMs: 86_400_000 },
    response: { status: 201, body: JSON.stringify({ id }) },
  });
}

describe.each(drivers)("on %s", (driver: SqliteDriverName) => {
  function open(dir: string): SandboxStore {
    const store = openSqliteStore({ dataDir: dir, driver });
    stores.push(store);
    return store;
  }

  describe("group-committed creations", () => {
    it("gives each creation of one batch the outcome it would have alone", async () => {
      const store = open(freshDir());
      // Issued in one turn of the event loop, so they share one transaction.
      const outcomes = await Promise.all([
        store.create(claimed("ch_1", "key-one-0001")),
        store.create(charge("ch_2", {}, "e2e-1")),
        store.create(charge("ch_3", {}, "e2e-1")), // same unique key as ch_2
        store.create(claimed("ch_4", "key-one-0001")), // same key and payload as ch_1
      ]);
      expect(outcomes.map((o) => o.kind)).toEqual(["created", "created", "duplicate", "replayed"]);
      expect(await store.get("charge", "acc_1", "ch_3")).toBeUndefined();
      expect(await store.get("charge", "acc_1", "ch_4")).toBeUndefined();
      expect(await store.count("charge", "acc_1")).toBe(2);
    });

    it("rolls back only the creation that fails, not the others of its batch", async () => {
      const store = open(freshDir());
      const results = await Promise.allSettled([
        store.create(claimed("ch_a", "key-a-000001")),
        store.create(charge("ch_dup")),
        store.create(charge("ch_dup")), // the same record id: the insert itself fails
        store.create(claimed("ch_b", "key-b-000001")),
      ]);
      expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
      expect(await store.count("charge", "acc_1")).toBe(3);
      // The claims of the batch survived the replay of the batch one creation at a time.
      const replay = await store.create(claimed("ch_a2", "key-a-000001"));
      expect(replay).toEqual({ kind: "replayed", response: { status: 201, body: JSON.stringify({ id: "ch_a" }) } });
    });
  });

  describe("schema versions", () => {
    it("opens a database of the first version with its idempotency keys", async () => {
      const dir = freshDir();
      const legacy = sqliteDriver(driver).open(join(dir, DATABASE_FILE));
      legacy.exec(`CREATE TABLE idempotency_keys (
        scope TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, state TEXT NOT NULL,
        status INTEGER NOT NULL, body TEXT NOT NULL, created_ms INTEGER NOT NULL,
        record_kind TEXT NOT NULL, record_id TEXT NOT NULL, PRIMARY KEY (scope, key)) WITHOUT ROWID;
        INSERT INTO idempotency_keys VALUES ('key_1', 'old-key-0001', 'fp-old-key-0001', 'done', 201, '{"id":"ch_old"}', 1700000000000, 'charge', 'ch_old');`);
      legacy.close();

      const store = open(dir);
      const replay = await store.create(claimed("ch_new", "old-key-0001"));
      expect(replay).toEqual({ kind: "replayed", response: { status: 201, body: '{"id":"ch_old"}' } });
      const mismatch = await store.create({ ...claimed("ch_new", "old-key-0001"), claim: { ...claimed("x", "old-key-0001").claim!, fingerprint: "other" } });
      expect(mismatch.kind).toBe("mismatch");
    });

    it("opens a database of version 1 with its outbox, and records the current version", async () => {
      const dir = freshDir();
      const v1 = sqliteDriver(driver).open(join(dir, DATABASE_FILE));
      v1.exec(`CREATE TABLE webhook_outbox (
        id TEXT PRIMARY KEY, account_id TEXT NOT NULL, url TEXT NOT NULL, type TEXT NOT NULL,
        payload TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL,
        next_attempt_ms INTEGER NOT NULL, created_ms INTEGER NOT NULL, last_error TEXT) WITHOUT ROWID;
        INSERT INTO webhook_outbox VALUES ('evt_old', 'acc_1', 'http://127.0.0.1:9/hook', 'charge.paid', '{}', 'pending', 0, 1000, 1000, NULL);
        PRAGMA user_version = 1;`);
      v1.close();

      const store = open(dir);
      const [claimed] = await store.outboxClaim(2_000, 10, 60_000, "test");
      expect(claimed).toMatchObject({ id: "evt_old", state: "pending", attempts: 0 });
      const log = { attempt: 1, startedMs: 2_000, endedMs: 2_001, instance: "test", outcome: "delivered" as const, error: null, nextAttemptMs: null };
      expect(await store.outboxSettle("evt_old", claimed.lease, { state: "delivered", attempts: 1, nextAttemptMs: 2_001, lastError: null }, log)).toBe(true);
      await store.close();
      const after = sqliteDriver(driver).open(join(dir, DATABASE_FILE));
      try {
        expect(after.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
      } finally {
        after.close();
      }
      // Opened again at the current version, it keeps what it holds.
      expect(await open(dir).outboxGet("evt_old")).toMatchObject({ state: "delivered", attempts: 1 });
    });

    it("refuses a database written by a newer sandbox, leaving it as it was", () => {
      const dir = freshDir();
      const newer = sqliteDriver(driver).open(join(dir, DATABASE_FILE));
      newer.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
      newer.close();
      expect(() => openDatabase(sqliteDriver(driver), join(dir, DATABASE_FILE), undefined)).toThrow(SchemaTooNewError);
      const after = sqliteDriver(driver).open(join(dir, DATABASE_FILE));
      try {
        expect(after.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION + 1);
        expect(after.prepare("SELECT name FROM sqlite_master").all()).toEqual([]);
      } finally {
        after.close();
      }
    });
  });

  describe("connection settings", () => {
    it("runs in WAL mode with the store's own checkpoints, fsyncing every commit only for durability power", () => {
      for (const [durability, synchronous] of [[undefined, 1], ["process", 1], ["power", 2]] as const) {
        const db = openDatabase(sqliteDriver(driver), join(freshDir(), DATABASE_FILE), durability);
        try {
          expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
          expect(db.pragma("synchronous", { simple: true })).toBe(synchronous);
          expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
          expect(db.pragma("busy_timeout", { simple: true })).toBe(5000);
          expect(db.pragma("journal_size_limit", { simple: true })).toBe(64 * 1024 * 1024);
          expect(db.pragma("cache_size", { simple: true })).toBe(-8 * 1024);
        } finally {
          db.close();
        }
      }
    });
  });

  describe("closing", () => {
    it("finishes in a process that has nothing else to do", () => {
      // The checkpoint worker is unreferenced while it runs; closing must still wait for it.
      const dir = freshDir();
      const script = `import { openSqliteStore } from ${JSON.stringify(new URL("../src/store/sqlite.ts", import.meta.url).pathname)};
        const store = openSqliteStore({ dataDir: ${JSON.stringify(dir)}, driver: ${JSON.stringify(driver)} });
        await store.create({ record: { kind: "charge", accountId: "acc_1", id: "ch_1", status: "pending", customerId: null, uniqueKey: null, createdMs: 1, data: {} } });
        await store.close();
        console.log("closed");`;
      // `--input-type=module` as well: the checkpoint worker must not inherit it.
      const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 20_000 });
      expect(child.stdout.trim()).toBe("closed");
      expect(child.stderr).not.toContain("checkpoint worker stopped");
      // node:sqlite on Node 22 warns that it is experimental; the sandbox does not pass that on.
      expect(child.stderr).not.toContain("ExperimentalWarning");
    });
  });

  describe("checkpoints", () => {
    it("moves committed pages into the database file without a request doing it", async () => {
      const dir = freshDir();
      const store = open(dir);
      const file = join(dir, DATABASE_FILE);
      const before = statSync(file).size;
      const body = "x".repeat(2_000);
      for (let batch = 0; batch < 20; batch++) {
        await Promise.all(Array.from({ length: 50 }, (_, i) => store.create(charge(`ch_${batch}_${i}`, { record: { ...charge(`ch_${batch}_${i}`).record, data: { body } } }))));
      }
      // The requests' connection never checkpoints (wal_autocheckpoint = 0): the main file grows
      // only through the background checkpointer.
      await expect.poll(() => statSync(file).size, { timeout: 5_000, interval: 100 }).toBeGreaterThan(before + 1_000_000);
    });

    it("goes back to SQLite's automatic checkpoints when the worker cannot run", async () => {
      const file = join(freshDir(), DATABASE_FILE);
      const db = openDatabase(sqliteDriver(driver), file, undefined);
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      const checkpointer = startCheckpointer("no-such-sqlite-driver", file, db);
      try {
        await expect.poll(() => db.pragma("wal_autocheckpoint", { simple: true }), { timeout: 5_000, interval: 50 }).toBe(1000);
        expect(String(logged.mock.calls[0]?.[0])).toContain("checkpoint worker stopped");
      } finally {
        await checkpointer.stop();
        db.close();
      }
    });
  });

  describe("opening by name", () => {
    it("opens the SQLite store for sqlite, an empty name or none, on the driver a driver's name names", async () => {
      for (const name of [undefined, "", "sqlite"]) {
        const store = await openStore({ store: name, dataDir: freshDir() });
        stores.push(store);
        expect(store.info).toMatchObject({ kind: "sqlite", shared: false, driver: sqliteDriver().name });
      }
      const store = await openStore({ store: driver, dataDir: freshDir() });
      stores.push(store);
      expect(store.info).toMatchObject({ kind: "sqlite", driver });
    });
  });
});

describe("a store's name", () => {
  it("names PostgreSQL by a postgres:// or postgresql:// URL, in any case, and nothing else", () => {
    for (const url of ["postgres://u:p@h:5432/db", "postgresql://h/db", "POSTGRES://h/db", "PostgreSQL://h/db"]) expect(isPostgresUrl(url)).toBe(true);
    for (const other of [undefined, "", "sqlite", "postgres:", "postgre://h/db", "postgresql:/h/db", " postgres://h/db", "x-postgres://h/db"]) expect(isPostgresUrl(other)).toBe(false);
  });

  it("refuses a name that is no store, driver or PostgreSQL URL, naming the choices", async () => {
    await expect(openStore({ store: "mysql://h/db", dataDir: freshDir() })).rejects.toThrow(/unknown store "mysql:\/\/h\/db": use sqlite \(the default\), better-sqlite3, node:sqlite or a postgres:\/\/ connection string/);
  });
});
