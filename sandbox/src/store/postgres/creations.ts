/**
 * Creations on the PostgreSQL store. The idempotency key is claimed by
 * `INSERT ... ON CONFLICT DO NOTHING` on its primary key (scope, key) in the same transaction
 * that inserts the record: two instances receiving one key at once, the second insert waits for
 * the first transaction, then finds the key and replays its response. A constraint, not an
 * in-process lock.
 *
 * Creations without a precondition are grouped per event-loop turn (like the SQLite store's
 * group commit): one call of `sandbox_create_many` (schema.ts) claims the batch's keys and
 * inserts the records whose key it claimed, in one round trip and one transaction, committed
 * before any caller is answered. A key already used answers as alone (replay or mismatch); if
 * the call fails, each creation runs again alone, so every outcome is what
 * it would be alone. A creation with a precondition runs in its own transaction, the required
 * record read FOR SHARE (a customer cannot be deleted until it commits).
 */
import type pg from "pg";
import type { CreateOutcome, CreateRequest, StoredRecord } from "../types.ts";
import { toRecord, type RecordRow } from "../sqlite/records.ts";
import { batcher } from "./batcher.ts";
import { isUnavailable, unavailable } from "./faults.ts";
import type { Query } from "./query.ts";

export const RECORD_COLUMNS = "kind, account_id, id, status, customer_id, created_ms, data";

export interface CreationDeps {
  query: Query;
  /** Runs `work` in one transaction on one connection. */
  transaction: <T>(work: (client: pg.PoolClient) => Promise<T>) => Promise<T>;
  /** Called after each record created (the store refreshes its statistics as tables grow). */
  created: () => void;
}

class KeyUsed extends Error {}
class PreconditionFailed extends Error {
  constructor(readonly found: StoredRecord | undefined) {
    super("precondition failed");
  }
}

const recordValues = (request: CreateRequest) => {
  const r = request.record;
  return [r.kind, r.accountId, r.id, r.status, r.customerId, r.createdMs, request.dataJson ?? JSON.stringify(r.data)];
};

export function creations(deps: CreationDeps): (request: CreateRequest) => Promise<CreateOutcome> {
  const createBatch = batchedCreations(deps);
  return async (request) => {
    if (request.claim && !request.response) throw new Error("an idempotency claim needs the response to store");
    // A key that expired or vanished between two statements is claimed again (a few times at most).
    for (let round = 0; round < 5; round++) {
      const outcome = round === 0 && !request.requires ? await createBatch(request) : await createOnce(deps, request);
      if (outcome === "retry") continue;
      if (outcome.kind === "created") deps.created();
      return outcome;
    }
    return { kind: "in_flight" };
  };
}

/** What a used key answers (replay, mismatch), or "retry" when it expired or vanished and may be claimed again. */
async function earlierUse(query: Query, request: CreateRequest): Promise<CreateOutcome | "retry"> {
  const claim = request.claim!;
  const { rows } = await query<{ fingerprint: string; status: number; body: string; created_ms: number }>(
    "SELECT fingerprint, status, body, created_ms FROM idempotency_keys WHERE scope = $1 AND key = $2",
    [claim.scope, claim.key],
  );
  const existing = rows[0];
  if (!existing) return "retry";
  if (claim.nowMs - existing.created_ms < claim.retentionMs) {
    if (existing.fingerprint !== claim.fingerprint) return { kind: "mismatch" };
    return { kind: "replayed", response: { status: existing.status, body: existing.body } };
  }
  // Older than the retention: treated as never seen (removed only if nobody replaced it meanwhile).
  await query("DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND created_ms = $3", [claim.scope, claim.key, existing.created_ms]);
  return "retry";
}

/** One creation alone, in its own transaction. */
function createOnce(deps: CreationDeps, request: CreateRequest): Promise<CreateOutcome | "retry"> {
  return request.requires ? createWithPrecondition(deps, request) : createAlone(deps.query, request);
}

/** A creation without a precondition: one statement claims the key (if any) and inserts the record. */
async function createAlone(query: Query, request: CreateRequest): Promise<CreateOutcome | "retry"> {
  const { claim } = request;
  if (!claim) {
    await query(`INSERT INTO records (${RECORD_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, recordValues(request));
    return { kind: "created" };
  }
  const { rows } = await query<{ claimed: number }>(
    `WITH claim AS (
       INSERT INTO idempotency_keys (scope, key, fingerprint, status, body, created_ms, record_kind, record_id)
       VALUES ($8, $9, $10, $11, $12, $13, $1, $3) ON CONFLICT (scope, key) DO NOTHING RETURNING 1
     ), rec AS (
       INSERT INTO records (${RECORD_COLUMNS}) SELECT $1, $2, $3, $4, $5, $6, $7 WHERE EXISTS (SELECT 1 FROM claim) RETURNING 1
     ) SELECT (SELECT count(*) FROM claim)::int AS claimed`,
    [...recordValues(request), claim.scope, claim.key, claim.fingerprint, request.response!.status, request.response!.body, claim.nowMs],
  );
  return rows[0].claimed === 1 ? { kind: "created" } : earlierUse(query, request);
}

/** A creation that needs another record (a customer): claim, read the record FOR SHARE, insert, in one transaction. */
async function createWithPrecondition({ query, transaction }: CreationDeps, request: CreateRequest): Promise<CreateOutcome | "retry"> {
  try {
    return await transaction((client) => claimCheckInsert(client, request));
  } catch (error) {
    if (error instanceof KeyUsed) return earlierUse(query, request);
    if (error instanceof PreconditionFailed) return { kind: "precondition_failed", found: error.found };
    throw error;
  }
}

async function claimCheckInsert(client: pg.PoolClient, request: CreateRequest): Promise<CreateOutcome> {
  const { claim } = request;
  if (claim) {
    const claimed = await client.query(
      "INSERT INTO idempotency_keys (scope, key, fingerprint, status, body, created_ms, record_kind, record_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (scope, key) DO NOTHING RETURNING 1",
      [claim.scope, claim.key, claim.fingerprint, request.response!.status, request.response!.body, claim.nowMs, request.record.kind, request.record.id],
    );
    if (claimed.rowCount === 0) throw new KeyUsed();
  }
  const { kind, id, statuses } = request.requires!;
  // FOR SHARE: the required record cannot change (a customer deleted) until this commits.
  const found = await client.query<RecordRow>(`SELECT ${RECORD_COLUMNS} FROM records WHERE kind = $1 AND account_id = $2 AND id = $3 FOR SHARE`, [
    kind,
    request.record.accountId,
    id,
  ]);
  const row = found.rows[0];
  if (!row || (statuses && !statuses.includes(row.status))) throw new PreconditionFailed(row ? toRecord(row) : undefined);
  await client.query(`INSERT INTO records (${RECORD_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, recordValues(request));
  return { kind: "created" };
}

/** Creations without a precondition, grouped per event-loop turn into one call of `sandbox_create_many`. */
function batchedCreations(deps: CreationDeps): (request: CreateRequest) => Promise<CreateOutcome | "retry"> {
  const { query } = deps;
  return batcher<CreateRequest, CreateOutcome | "retry">(async (requests) => {
    let createdIndexes: Set<number>;
    try {
      const { rows } = await query<{ created: number[] }>("SELECT sandbox_create_many($1::jsonb) AS created", [JSON.stringify(requests.map(batchRow))]);
      createdIndexes = new Set(rows[0].created);
    } catch (error) {
      if (isUnavailable(error)) unavailable(error);
      // Each alone: the outcome of each is what it would be without the others.
      return Promise.all(requests.map((r) => createOnce(deps, r)));
    }
    return Promise.all(requests.map((r, i) => (createdIndexes.has(i) ? ({ kind: "created" } as const) : earlierUse(query, r))));
  });
}

/** One creation as `sandbox_create_many` reads it (schema.ts). */
function batchRow(r: CreateRequest, i: number) {
  return {
    i,
    kind: r.record.kind,
    account_id: r.record.accountId,
    id: r.record.id,
    status: r.record.status,
    customer_id: r.record.customerId,
    created_ms: r.record.createdMs,
    data: r.dataJson ?? JSON.stringify(r.record.data),
    scope: r.claim?.scope ?? null,
    key: r.claim?.key ?? null,
    fingerprint: r.claim?.fingerprint ?? null,
    rstatus: r.response?.status ?? null,
    body: r.response?.body ?? null,
    now_ms: r.claim?.nowMs ?? null,
  };
}
