/**
 * The `account_clocks` table: how far each account's sandbox clock runs ahead of the base
 * clock. Offsets are read on every request, so they are cached; this process is the store's
 * only writer, and the cache is updated by each advance.
 */
import type { SqliteDatabase } from "./driver.ts";

export function accountClocks(db: SqliteDatabase) {
  const selectClock = db.prepare<{ offset_ms: number }>("SELECT offset_ms FROM account_clocks WHERE account_id = ?");
  const upsertClock = db.prepare(
    "INSERT INTO account_clocks (account_id, offset_ms) VALUES (?, ?) ON CONFLICT (account_id) DO UPDATE SET offset_ms = excluded.offset_ms",
  );
  const advance = db.transaction((accountId: string, ms: number, maxOffsetMs: number): number | null => {
    const offset = (selectClock.get(accountId)?.offset_ms ?? 0) + ms;
    // Never store an offset that cannot be written as a date (checked before the write).
    if (!Number.isSafeInteger(offset) || offset < 0 || offset > maxOffsetMs) return null;
    upsertClock.run(accountId, offset);
    return offset;
  });
  const cache = new Map<string, number>();

  return {
    /** The account's offset (ms ahead of the base clock). */
    offset(accountId: string): number {
      let offset = cache.get(accountId);
      if (offset === undefined) {
        // Stryker disable next-line LogicalOperator: a stored offset is read from the file only by a sandbox restarted on it (every advance caches what it stored), which no conformance run does; sandbox/test/durability.test.ts restarts one
        offset = selectClock.get(accountId)?.offset_ms ?? 0;
        // An offset stored by an earlier version beyond what a date can hold reads as none.
        // Stryker disable next-line all: only a file an earlier version wrote holds such an offset, read by a sandbox restarted on it
        if (!Number.isSafeInteger(offset) || Number.isNaN(new Date(Date.now() + offset).getTime())) offset = 0;
        cache.set(accountId, offset);
      }
      return offset;
    },
    /** Moves the account's clock forward by `ms`; returns the new offset, or null (nothing stored) beyond `maxOffsetMs`. */
    advance(accountId: string, ms: number, maxOffsetMs = Number.MAX_SAFE_INTEGER): number | null {
      const offset = advance.immediate(accountId, ms, maxOffsetMs);
      if (offset !== null) cache.set(accountId, offset);
      return offset;
    },
  };
}
