/**
 * The sandbox's storage interface: everything the resources need, as a few atomic
 * operations. Two implementations: the embedded SQLite store (sqlite.ts and sqlite/, the
 * default, one process) and the shared PostgreSQL store (postgres.ts and postgres/, several
 * sandbox instances over one database). Each method is one database transaction; the callbacks
 * are pure functions run inside it. Everything that must be the same for every instance lives
 * behind it: records, idempotency keys, the webhook outbox and its delivery log, webhook
 * secrets, account clocks and the rate-limit counters (`admit`).
 *
 * Records are stored as JSON documents with a few promoted columns for lookups and lists.
 * Every read and write is scoped by account: a record of another account is not found.
 */

/** `webhook_endpoint`: an account's webhook endpoint for family B events (one per account, sandbox/src/webhooks/endpoints.ts). */
export type RecordKind = "charge" | "pix_charge" | "pix_lookup" | "pix_payment" | "customer" | "transaction" | "boleto" | "webhook_endpoint";

export interface StoredRecord<Data = Record<string, unknown>> {
  kind: RecordKind;
  accountId: string;
  id: string;
  /** Stored status (a view may derive another one, e.g. an expired charge). */
  status: string;
  /** The customer a record belongs to (transactions), for the "open charge" rule. */
  customerId: string | null;
  /** Creation time on the account's sandbox clock (ms since the epoch). */
  createdMs: number;
  data: Data;
  /** `data` as the JSON text it was read from (set on records read from the store). */
  dataJson?: string;
}

/** An idempotency key claimed together with a creation. */
export interface IdempotencyClaim {
  /** Key space: the API key's id (keys are scoped per API key). */
  scope: string;
  key: string;
  /** Hash of the operation and the request body (compared to detect another payload). */
  fingerprint: string;
  /** Now on the account's clock (ms). */
  nowMs: number;
  /** How long a key is kept (ms); an older key is treated as never seen. */
  retentionMs: number;
}

/** A response stored with its idempotency key and replayed as it was. */
export interface StoredResponse {
  status: number;
  body: string;
}

export interface CreateRequest {
  record: StoredRecord;
  /** `record.data` already serialised as JSON (saves serialising it twice when it is also the response body). */
  dataJson?: string;
  claim?: IdempotencyClaim;
  /** The response to store with the claim (required with `claim`). */
  response?: StoredResponse;
  /** Another record that must exist (same account), optionally in one of these statuses. */
  requires?: { kind: RecordKind; id: string; statuses?: readonly string[] };
}

export type CreateOutcome =
  | { kind: "created" }
  /** The key was used before with the same payload: its stored response. */
  | { kind: "replayed"; response: StoredResponse }
  /** The key was used before with another payload. */
  | { kind: "mismatch" }
  /** A request with the key is still being processed. */
  | { kind: "in_flight" }
  /** `requires` did not hold; nothing was written. */
  | { kind: "precondition_failed"; found: StoredRecord | undefined };

/** What an update callback decides: the record to write (or none) and a result. */
export interface UpdateDecision<T> {
  next?: StoredRecord;
  result: T;
  /**
   * Webhook events to put in the outbox in the same transaction as `next`: once the update
   * is acknowledged its events are stored too, and are delivered even across a restart.
   */
  events?: OutboxEventInput[];
}

/** A webhook event entering the outbox (decisions D24 to D26). */
export interface OutboxEventInput {
  /** The event id, sent as `webhook-id` on every attempt. */
  id: string;
  accountId: string;
  url: string;
  type: string;
  /** The exact body bytes to sign and send. */
  payload: string;
  /** Real time the event entered the outbox (ms); the first attempt is due then. */
  createdMs: number;
}

/** An event in the outbox with its delivery state. */
export interface OutboxEvent extends OutboxEventInput {
  /** `pending` until a 2xx (`delivered`) or until the retries are exhausted (`failed`). */
  state: "pending" | "delivered" | "failed";
  /** Attempts made so far. */
  attempts: number;
  /** Real time the next attempt is due (ms). */
  nextAttemptMs: number;
  lastError: string | null;
}

/** An account's webhook signing secrets: the current one and, during a rotation, the previous one. */
export interface WebhookSecrets {
  current: string;
  /** Earlier secrets that still sign until `previousUntilMs`, the most recent first (empty: none). */
  previous: string[];
  /** Time on the account's clock until which the previous secrets still sign (ms). */
  previousUntilMs: number | null;
}

/** What an update reads besides the record itself, in the same transaction. */
export interface UpdateOptions {
  /** How many records of this kind reference the record (customerId) in these statuses (`decide`'s `referencing`). */
  countReferencing?: { kind: RecordKind; statuses: readonly string[] };
  /**
   * Another record of the account the decision depends on, named by the current record (a
   * transaction's customer): `decide`'s `related` (undefined when it names none or it does not
   * exist). It cannot change until the update commits (PostgreSQL reads it FOR SHARE), so a check
   * on it and the write hold together.
   */
  related?: (current: StoredRecord) => { kind: RecordKind; id: string } | undefined;
}

export interface ListQuery {
  status?: string;
  /** Inclusive lower bound of createdMs. */
  fromMs?: number;
  /** Exclusive upper bound of createdMs. */
  toMs?: number;
  offset: number;
  limit: number;
}

/** One bucket of a rate limit charged by a request (see ../rate-limit.ts). */
export interface RateLimitBucket {
  key: string;
  limit: number;
}

/** What `admit` answers: the account's clock offset and the rate-limit charge. */
export interface Admission {
  /** The account's clock offset (ms; 0 without an account). */
  offsetMs: number;
  /** Whether the request was admitted (then every bucket was charged one). */
  admitted: boolean;
  /** Per bucket: requests counted in the window after this request (before it, when refused). */
  counts: number[];
}

/** An outbox event claimed by one instance for one attempt. */
export interface ClaimedEvent extends OutboxEvent {
  /** The claim's token: only the claimant may settle the attempt, while its lease lasts. */
  lease: string;
}

/** One delivery attempt, as the delivery log keeps it. */
export interface AttemptLog {
  /** 1 for the first attempt. */
  attempt: number;
  /** Real time the attempt started and ended (ms). */
  startedMs: number;
  endedMs: number;
  /** The sandbox instance that made it. */
  instance: string;
  outcome: "delivered" | "failed" | "refused";
  /** What went wrong (`HTTP 500`, a connection error, the guard's refusal), null on a 2xx. */
  error: string | null;
  /** When the next attempt is due after this one (ms), null when none follows. */
  nextAttemptMs: number | null;
}

/** An outbox event with every attempt made at it (the delivery log control). */
export interface DeliveryLogEntry extends OutboxEvent {
  attemptLog: AttemptLog[];
}

/** The store's kind and where it is, for the health route and the banner (no password). */
export interface StoreInfo {
  kind: "sqlite" | "postgres";
  /** Several sandbox instances may share it: nothing may be cached in one process. */
  shared: boolean;
  /** The SQLite file, or the PostgreSQL URL without its password. */
  location: string;
  /** The SQLite driver (better-sqlite3 or node:sqlite); none for PostgreSQL. */
  driver?: string;
}

/**
 * The database cannot be reached now (PostgreSQL down, restarting, a query past its timeout).
 * The pipeline answers 503 with Retry-After in the family's error format; the store recovers
 * by itself once the database is back.
 */
export class StoreUnavailableError extends Error {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds = 1) {
    super(message);
    this.name = "StoreUnavailableError";
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export interface SandboxStore {
  readonly info: StoreInfo;

  /**
   * The start of every request, in one call: the account's clock offset (none without an
   * account) and the request charged to its rate-limit buckets of the window starting at
   * `windowStartMs`: to every bucket if none would exceed its limit, else to none (atomic
   * across buckets and, on a shared store, across instances). SQLite answers synchronously
   * (in-memory counters, cached offsets); PostgreSQL in one round trip.
   */
  admit(accountId: string | undefined, windowStartMs: number, buckets: readonly RateLimitBucket[]): Admission | Promise<Admission>;

  /** Whether the database answers now (the health route). */
  ping(): Promise<{ ok: true } | { ok: false; error: string }>;

  /** Creates a record, with an optional idempotency claim and preconditions, atomically. */
  create(request: CreateRequest): Promise<CreateOutcome>;

  get(kind: RecordKind, accountId: string, id: string): Promise<StoredRecord | undefined>;

  /**
   * Reads a record and writes what `decide` returns, atomically; `decide` also gets what
   * `options` asks for, read in the same transaction (see UpdateOptions).
   */
  update<T>(
    kind: RecordKind,
    accountId: string,
    id: string,
    decide: (current: StoredRecord, referencing: number, related: StoredRecord | undefined) => UpdateDecision<T>,
    options?: UpdateOptions,
  ): Promise<{ found: false } | { found: true; result: T }>;

  /** Records of a kind of one account, newest first, with the total matching the filters. */
  list(kind: RecordKind, accountId: string, query: ListQuery): Promise<{ items: StoredRecord[]; total: number }>;

  /** The account's clock offset (ms ahead of the base clock). */
  clockOffset(accountId: string): Promise<number>;
  /**
   * Moves the account's clock forward by `ms`, and its pending webhook events' next attempts
   * (and leases) `ms` earlier: the retry schedule (D26) runs on the account's clock. Returns the
   * new offset, or null (and stores nothing) when the new offset would exceed `maxOffsetMs`.
   */
  advanceClock(accountId: string, ms: number, maxOffsetMs?: number): Promise<number | null>;

  /**
   * Claims up to `limit` pending events due at `nowMs` (real time), oldest first, for one
   * attempt each by `instance`: each is leased (its next attempt pushed to `leaseUntilMs`) in
   * the same transaction, so no other instance claims it until the lease expires (an instance
   * that dies mid-attempt loses its lease, and the event is attempted again by another).
   * PostgreSQL: FOR UPDATE SKIP LOCKED.
   */
  outboxClaim(nowMs: number, limit: number, leaseUntilMs: number, instance: string): Promise<ClaimedEvent[]>;
  /** When the earliest pending event is due (ms), if any. */
  outboxNextDueMs(): Promise<number | undefined>;
  outboxGet(id: string): Promise<OutboxEvent | undefined>;
  /**
   * Records the outcome of a claimed attempt and logs it, if the claim still holds (`lease`);
   * returns false, writing nothing, when the lease was lost.
   */
  outboxSettle(id: string, lease: string, change: Pick<OutboxEvent, "state" | "attempts" | "nextAttemptMs" | "lastError">, attempt: AttemptLog): Promise<boolean>;
  /** An account's events, newest first, with every attempt (the delivery log control). */
  outboxDeliveries(accountId: string, offset: number, limit: number): Promise<{ items: DeliveryLogEntry[]; total: number }>;

  /** The account's stored webhook secrets (none until the first rotation). */
  webhookSecrets(accountId: string): Promise<WebhookSecrets | undefined>;
  saveWebhookSecrets(accountId: string, secrets: WebhookSecrets): Promise<void>;

  close(): Promise<void>;
}
