/**
 * Creations, group-committed. The creations that arrive during one turn of the event loop run
 * one after the other inside a single transaction, committed once; every caller is answered
 * after that commit. If one of them fails unexpectedly the batch is rolled back and replayed
 * one transaction per creation, so the outcome of each creation is exactly what it would be
 * alone, and nothing is acknowledged before it is committed; under load, one WAL write serves
 * many requests.
 */
import type { SqliteDatabase } from "./driver.ts";
import type { CreateOutcome, CreateRequest } from "../types.ts";
import type { IdempotencyKeys } from "./idempotency.ts";
import { toRecord, type RecordTable } from "./records.ts";

class DuplicateUniqueKey extends Error {}

interface Pending {
  request: CreateRequest;
  resolve: (outcome: CreateOutcome) => void;
  reject: (error: unknown) => void;
}

export interface GroupCommit {
  /** Queues a creation for the next batch; resolves once it is committed (or refused). */
  create(request: CreateRequest): Promise<CreateOutcome>;
  /** Runs the queued creations now (on close). */
  flush(): void;
}

export function groupCommit(db: SqliteDatabase, records: RecordTable, idempotency: IdempotencyKeys): GroupCommit {
  /** One creation, checking everything that can refuse it before it writes. */
  const createOnce = (request: CreateRequest): CreateOutcome => {
    const { record, claim } = request;
    if (claim) {
      const earlier = idempotency.earlierUse(claim);
      if (earlier) return earlier;
    }
    if (request.requires) {
      const { kind, id, statuses } = request.requires;
      const row = records.row(kind, record.accountId, id);
      if (!row || (statuses && !statuses.includes(row.status))) {
        return { kind: "precondition_failed", found: row ? toRecord(row) : undefined };
      }
    }
    if (record.uniqueKey !== null && records.hasUniqueKey(record.kind, record.accountId, record.uniqueKey)) {
      throw new DuplicateUniqueKey();
    }
    // The one serialisation of the record (none when the caller already has its JSON).
    records.insert(record, request.dataJson ?? JSON.stringify(record.data));
    if (claim) {
      if (!request.response) throw new Error("an idempotency claim needs the response to store");
      idempotency.claim(claim, request.response, record);
    }
    return { kind: "created" };
  };
  const create = db.transaction(createOnce);

  // One transaction for a batch of creations. `createOnce` checks everything that can refuse a
  // creation before it writes, so in the normal case the batch runs straight through. If a
  // statement fails anyway (a constraint, the disk), the whole batch rolls back and each of its
  // creations runs again in its own transaction: every outcome is what it would be alone.
  const createBatch = db.transaction((requests: CreateRequest[]): CreateOutcome[] =>
    requests.map((request) => {
      try {
        return createOnce(request);
      } catch (error) {
        if (error instanceof DuplicateUniqueKey) return { kind: "duplicate" } as const;
        throw error;
      }
    }),
  );
  const createAlone = (request: CreateRequest): { outcome?: CreateOutcome; error?: unknown } => {
    try {
      return { outcome: create.immediate(request) };
    } catch (error) {
      return error instanceof DuplicateUniqueKey ? { outcome: { kind: "duplicate" } } : { error };
    }
  };

  let pending: Pending[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    let outcomes: CreateOutcome[] | undefined;
    if (batch.length > 1) {
      try {
        outcomes = createBatch.immediate(batch.map((p) => p.request));
      } catch {
        outcomes = undefined;
      }
    }
    if (outcomes) {
      outcomes.forEach((outcome, i) => batch[i].resolve(outcome));
      return;
    }
    for (const p of batch) {
      const result = createAlone(p.request);
      if (result.outcome) p.resolve(result.outcome);
      else p.reject(result.error);
    }
  };

  return {
    create(request) {
      return new Promise<CreateOutcome>((resolve, reject) => {
        pending.push({ request, resolve, reject });
        if (pending.length === 1) setImmediate(flush);
      });
    },
    flush() {
      if (pending.length > 0) flush();
    },
  };
}
