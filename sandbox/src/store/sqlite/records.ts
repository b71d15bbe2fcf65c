/**
 * The `records` table: every stored resource as a JSON document with a few promoted columns
 * (status, customer, creation time) for lookups and lists, always scoped by account.
 * Also the atomic read-decide-write of one record (`update`), which stores the webhook events
 * the change reports in the same transaction.
 */
import type { SqliteDatabase } from "./driver.ts";
import type { ListQuery, OutboxEventInput, RecordKind, StoredRecord, UpdateDecision, UpdateOptions } from "../types.ts";

export interface RecordRow {
  kind: RecordKind;
  account_id: string;
  id: string;
  status: string;
  customer_id: string | null;
  created_ms: number;
  data: string;
}

export function toRecord(row: RecordRow): StoredRecord {
  return {
    kind: row.kind,
    accountId: row.account_id,
    id: row.id,
    status: row.status,
    customerId: row.customer_id,
    createdMs: row.created_ms,
    data: JSON.parse(row.data) as Record<string, unknown>,
    dataJson: row.data,
  };
}

const COLUMNS = "kind, account_id, id, status, customer_id, created_ms, data";

export type RecordTable = ReturnType<typeof recordTable>;

/** The record statements of one connection (each runs inside the caller's transaction, if any). */
export function recordTable(db: SqliteDatabase) {
  const selectRecord = db.prepare<RecordRow>(`SELECT ${COLUMNS} FROM records WHERE kind = ? AND account_id = ? AND id = ?`);
  const insertRecord = db.prepare(`INSERT INTO records (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const updateRecord = db.prepare(
    "UPDATE records SET status = ?, customer_id = ?, data = ? WHERE kind = ? AND account_id = ? AND id = ?",
  );
  const countReferencing = db.prepare<{ n: number }>(
    "SELECT COUNT(*) AS n FROM records WHERE kind = ? AND account_id = ? AND customer_id = ? AND status IN (SELECT value FROM json_each(?))",
  );

  return {
    /** The stored row, undecoded (callers that only look at the status skip parsing the JSON). */
    row(kind: RecordKind, accountId: string, id: string): RecordRow | undefined {
      return selectRecord.get(kind, accountId, id);
    },
    get(kind: RecordKind, accountId: string, id: string): StoredRecord | undefined {
      const row = selectRecord.get(kind, accountId, id);
      return row ? toRecord(row) : undefined;
    },
    /** Inserts a record whose data is already serialised (`dataJson`). */
    insert(record: StoredRecord, dataJson: string): void {
      insertRecord.run(record.kind, record.accountId, record.id, record.status, record.customerId, record.createdMs, dataJson);
    },
    replace(kind: RecordKind, accountId: string, id: string, next: StoredRecord): void {
      updateRecord.run(next.status, next.customerId, JSON.stringify(next.data), kind, accountId, id);
    },
    /** Records of `kind` whose customer is `customerId`, in one of `statuses`. */
    countReferencing(kind: RecordKind, accountId: string, customerId: string, statuses: readonly string[]): number {
      return countReferencing.get(kind, accountId, customerId, JSON.stringify(statuses))!.n;
    },
    list(kind: RecordKind, accountId: string, query: ListQuery): { items: StoredRecord[]; total: number } {
      const where = ["kind = ?", "account_id = ?"];
      const params: unknown[] = [kind, accountId];
      if (query.status !== undefined) {
        where.push("status = ?");
        params.push(query.status);
      }
      if (query.fromMs !== undefined) {
        where.push("created_ms >= ?");
        params.push(query.fromMs);
      }
      if (query.toMs !== undefined) {
        where.push("created_ms < ?");
        params.push(query.toMs);
      }
      const clause = where.join(" AND ");
      const total = db.prepare<{ n: number }>(`SELECT COUNT(*) AS n FROM records WHERE ${clause}`).get(...params)!.n;
      const rows = db
        .prepare<RecordRow>(`SELECT ${COLUMNS} FROM records WHERE ${clause} ORDER BY created_ms DESC, seq DESC LIMIT ? OFFSET ?`)
        .all(...params, query.limit, query.offset);
      return { items: rows.map(toRecord), total };
    },
  };
}

/**
 * Reads a record and writes what `decide` returns, in one transaction; `enqueue` stores the
 * decision's webhook events in the same transaction. Run it with `.immediate(...)`.
 */
export function recordUpdate(db: SqliteDatabase, records: RecordTable, enqueue: (event: OutboxEventInput) => void) {
  return db.transaction(
    <T>(
      kind: RecordKind,
      accountId: string,
      id: string,
      decide: (current: StoredRecord, referencing: number, related: StoredRecord | undefined) => UpdateDecision<T>,
      options: UpdateOptions = {},
    ): { found: false } | { found: true; result: T } => {
      const row = records.row(kind, accountId, id);
      // Stryker disable next-line ObjectLiteral: `{}` reads as not found to every caller too (`found` is then undefined, falsy)
      if (!row) return { found: false };
      const current = toRecord(row);
      const { countReferencing } = options;
      const count = countReferencing ? records.countReferencing(countReferencing.kind, accountId, id, countReferencing.statuses) : 0;
      // Read inside this (immediate) transaction: no other writer changes it before the commit.
      const relatedRef = options.related?.(current);
      const related = relatedRef ? records.get(relatedRef.kind, accountId, relatedRef.id) : undefined;
      const decision = decide(current, count, related);
      if (decision.next) records.replace(kind, accountId, id, decision.next);
      // The outbox row commits with the record: an acknowledged change never loses its event.
      for (const event of decision.events ?? []) enqueue(event);
      return { found: true, result: decision.result };
    },
  );
}
