/**
 * Records on the PostgreSQL store: lookups by id (grouped per event-loop turn), updates in one
 * transaction with the locks their preconditions need, lists and counts.
 */
import type pg from "pg";
import type { ListQuery, OutboxEvent, RecordKind, SandboxStore, StoredRecord, UpdateDecision, UpdateOptions } from "../types.ts";
import { toRecord, type RecordRow } from "../sqlite/records.ts";
import { OUTBOX_COLUMNS } from "../sqlite/outbox.ts";
import { batcher } from "./batcher.ts";
import { RECORD_COLUMNS as COLUMNS } from "./creations.ts";
import type { PooledQuery, Transaction } from "./pool.ts";

type RecordQueries = Pick<SandboxStore, "get" | "update" | "list">;
type Decide<T> = (current: StoredRecord, referencing: number, related: StoredRecord | undefined) => UpdateDecision<T>;
type LookupItem = { kind: RecordKind; accountId: string; id: string };

export function recordQueries(q: PooledQuery, tx: Transaction): RecordQueries {
  const lookup = lookupsById(q);
  return {
    get: (kind, accountId, id) => lookup({ kind, accountId, id }),
    update: <T>(kind: RecordKind, accountId: string, id: string, decide: Decide<T>, options: UpdateOptions = {}) =>
      tx((client) => updateIn(client, { kind, accountId, id }, decide, options)),
    list: (kind, accountId, query) => list(q, kind, accountId, query),
  };
}

/** Lookups by id, grouped per event-loop turn: one statement reads them all. */
function lookupsById(q: PooledQuery): (item: LookupItem) => Promise<StoredRecord | undefined> {
  return batcher<LookupItem, StoredRecord | undefined>(async (items) => {
    if (items.length === 1) {
      const { kind, accountId, id } = items[0];
      const { rows } = await q<RecordRow>(`SELECT ${COLUMNS} FROM records WHERE kind = $1 AND account_id = $2 AND id = $3`, [kind, accountId, id]);
      return [rows[0] ? toRecord(rows[0]) : undefined];
    }
    const { rows } = await q<RecordRow>(
      // One lookup by the unique index per item (LATERAL), whatever the table's statistics say.
      `SELECT r.* FROM unnest($1::text[], $2::text[], $3::text[]) AS x(kind, account_id, id)
       CROSS JOIN LATERAL (SELECT ${COLUMNS} FROM records WHERE kind = x.kind AND account_id = x.account_id AND id = x.id) r`,
      [items.map((i) => i.kind), items.map((i) => i.accountId), items.map((i) => i.id)],
    );
    const found = new Map(rows.map((row) => [`${row.kind}\u0000${row.account_id}\u0000${row.id}`, row]));
    return items.map((i) => {
      const row = found.get(`${i.kind}\u0000${i.accountId}\u0000${i.id}`);
      return row ? toRecord(row) : undefined;
    });
  });
}

/** One update in its transaction: the record locked, what the decision reads, then its change and events. */
async function updateIn<T>(client: pg.PoolClient, key: LookupItem, decide: Decide<T>, options: UpdateOptions) {
  const { kind, accountId, id } = key;
  const { rows } = await client.query<RecordRow>(`SELECT ${COLUMNS} FROM records WHERE kind = $1 AND account_id = $2 AND id = $3 FOR UPDATE`, [kind, accountId, id]);
  if (!rows[0]) return { found: false as const };
  const current = toRecord(rows[0]);
  const related = await relatedOf(client, accountId, options.related?.(current));
  const count = await referencing(client, key, options.countReferencing);
  const decision = decide(current, count, related);
  const next = decision.next;
  if (next) {
    await client.query("UPDATE records SET status = $1, customer_id = $2, data = $3 WHERE kind = $4 AND account_id = $5 AND id = $6", [
      next.status,
      next.customerId,
      JSON.stringify(next.data),
      kind,
      accountId,
      id,
    ]);
  }
  // The outbox row commits with the record: an acknowledged change never loses its event.
  for (const event of decision.events ?? []) await insertEvent(client, event);
  return { found: true as const, result: decision.result };
}

/**
 * FOR SHARE, after the record's own lock: the related record cannot change (a customer
 * deleted, which locks it FOR UPDATE) until the update commits.
 */
async function relatedOf(client: pg.PoolClient, accountId: string, ref: { kind: RecordKind; id: string } | undefined): Promise<StoredRecord | undefined> {
  if (!ref) return undefined;
  const { rows } = await client.query<RecordRow>(`SELECT ${COLUMNS} FROM records WHERE kind = $1 AND account_id = $2 AND id = $3 FOR SHARE`, [ref.kind, accountId, ref.id]);
  return rows[0] ? toRecord(rows[0]) : undefined;
}

/** How many records of the asked kind and statuses name this one (a customer's open transactions). */
async function referencing(client: pg.PoolClient, key: LookupItem, count: UpdateOptions["countReferencing"]): Promise<number> {
  if (!count) return 0;
  const counted = await client.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM records WHERE kind = $1 AND account_id = $2 AND customer_id = $3 AND status = ANY($4)",
    [count.kind, key.accountId, key.id, count.statuses],
  );
  return counted.rows[0].n;
}

async function insertEvent(client: pg.PoolClient, event: Pick<OutboxEvent, "id" | "accountId" | "url" | "type" | "payload" | "createdMs">): Promise<void> {
  await client.query(`INSERT INTO webhook_outbox (${OUTBOX_COLUMNS}) VALUES ($1, $2, $3, $4, $5, 'pending', 0, $6, $7, NULL)`, [
    event.id,
    event.accountId,
    event.url,
    event.type,
    event.payload,
    event.createdMs,
    event.createdMs,
  ]);
}

async function list(q: PooledQuery, kind: RecordKind, accountId: string, query: ListQuery): Promise<{ items: StoredRecord[]; total: number }> {
  const where = ["kind = $1", "account_id = $2"];
  const params: unknown[] = [kind, accountId];
  if (query.status !== undefined) where.push(`status = $${params.push(query.status)}`);
  if (query.fromMs !== undefined) where.push(`created_ms >= $${params.push(query.fromMs)}`);
  if (query.toMs !== undefined) where.push(`created_ms < $${params.push(query.toMs)}`);
  const clause = where.join(" AND ");
  const total = (await q<{ n: number }>(`SELECT count(*)::int AS n FROM records WHERE ${clause}`, params)).rows[0].n;
  const { rows } = await q<RecordRow>(
    `SELECT ${COLUMNS} FROM records WHERE ${clause} ORDER BY created_ms DESC, seq DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, query.limit, query.offset],
  );
  return { items: rows.map(toRecord), total };
}
