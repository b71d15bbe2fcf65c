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

interface Pending {
  request: CreateRequest;
  /** Settles the creation's promise: a promise given here that rejects rejects it. */
  resolve: (outcome: CreateOutcome | Promise<CreateOutcome>) => void;
}

export interface GroupCommit {
  /** Queues a creation for the next batch; resolves once it is committed (or refused). */
  create(request: CreateRequest): Promise<CreateOutcome>;
  /** Runs the queued creations now (on close). */
  flush(): void;
}

/** One creation, checking everything that can refuse it before it writes. */
function createOnce(records: RecordTable, idempotency: IdempotencyKeys, request: CreateRequest): CreateOutcome {
  const { record, claim } = request;
  if (claim) {
    const earlier = idempotency.earlierUse(claim);
    if (earlier) return earlier;
  }
  if (request.requires) {
    const { kind, id, statuses } = request.requires;
    const row = records.row(kind, record.accountId, id);
    if (!row || (statuses && !statuses.includes(row.status))) {
      // Stryker disable next-line ObjectLiteral,StringLiteral: the creation's own `refused` answers every outcome that is not created, replayed or a mismatch with the same 400 VALIDATION_ERROR; `found` only chooses its human-readable text (the customer deleted, or none)
      return { kind: "precondition_failed", found: row ? toRecord(row) : undefined };
    }
  }
  // The one serialisation of the record (none when the caller already has its JSON).
  records.insert(record, request.dataJson ?? JSON.stringify(record.data));
  // Every claim comes with the response it replays (createIdempotently); without one, reading it throws and the transaction rolls back.
  if (claim) idempotency.claim(claim, request.response!, record);
  return { kind: "created" };
}

/** The two ways to commit creations: a batch in one transaction, or one creation alone. */
interface Commits {
  /** The outcomes of the whole batch; throws (the batch rolled back) when a statement fails. */
  batch(requests: CreateRequest[]): CreateOutcome[];
  /** One creation in its own transaction: its outcome; throws (rolled back) when a statement fails. */
  alone(request: CreateRequest): CreateOutcome;
}

/** Both, as transactions on this connection, begun IMMEDIATE: the write lock is taken before the first read. */
function commits(db: SqliteDatabase, records: RecordTable, idempotency: IdempotencyKeys): Commits {
  const create = db.transaction((request: CreateRequest) => createOnce(records, idempotency, request));

  // One transaction for a batch of creations. `createOnce` checks everything that can refuse a
  // creation before it writes, so in the normal case the batch runs straight through. If a
  // statement fails anyway (a constraint, the disk), the whole batch rolls back and each of its
  // creations runs again in its own transaction: every outcome is what it would be alone.
  const createBatch = db.transaction((requests: CreateRequest[]): CreateOutcome[] => requests.map((request) => createOnce(records, idempotency, request)));
  return {
    batch: (requests) => createBatch.immediate(requests),
    alone: (request) => create.immediate(request),
  };
}

/** Answers every creation of a batch: all committed together, or, when that fails (or there is only one), each alone. */
function commitBatch(batch: Pending[], commit: Commits): void {
  let outcomes: CreateOutcome[] | undefined;
  if (batch.length > 1) {
    try {
      outcomes = commit.batch(batch.map((p) => p.request));
    } catch {
      // Rolled back whole: each creation runs again alone, below.
    }
  }
  if (outcomes) {
    outcomes.forEach((outcome, i) => batch[i].resolve(outcome));
    return;
  }
  // A creation that fails alone (a statement failing: the disk) rejects its own promise only: the
  // executor runs it at once, and what it throws rejects the promise its creation resolves with.
  for (const p of batch) p.resolve(new Promise((resolve) => resolve(commit.alone(p.request))));
}

export function groupCommit(db: SqliteDatabase, records: RecordTable, idempotency: IdempotencyKeys): GroupCommit {
  const commit = commits(db, records, idempotency);
  // The creations queued during this turn of the event loop, committed together at its end.
  let pending: Pending[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    commitBatch(batch, commit);
  };

  return {
    create(request) {
      return new Promise<CreateOutcome>((resolve) => {
        pending.push({ request, resolve });
        if (pending.length === 1) setImmediate(flush);
      });
    },
    flush,
  };
}
