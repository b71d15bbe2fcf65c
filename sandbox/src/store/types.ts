/**
 * The sandbox's storage interface: everything the resources need, as a few atomic
 * operations. The embedded implementation is SQLite (sqlite.ts and sqlite/); a shared PostgreSQL
 * implementation serving several sandbox instances fits the same interface (each method is
 * one database transaction; the callbacks are pure functions run inside it).
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
  /** Unique per kind and account when set (e.g. the EndToEndId a PIX payment used). */
  uniqueKey: string | null;
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
  | { kind: "precondition_failed"; found: StoredRecord | undefined }
  /** Another record of the kind already has this `uniqueKey`; nothing was written. */
  | { kind: "duplicate" };

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

export interface ListQuery {
  status?: string;
  /** Inclusive lower bound of createdMs. */
  fromMs?: number;
  /** Exclusive upper bound of createdMs. */
  toMs?: number;
  offset: number;
  limit: number;
}

export interface SandboxStore {
  /** Creates a record, with an optional idempotency claim and preconditions, atomically. */
  create(request: CreateRequest): Promise<CreateOutcome>;

  get(kind: RecordKind, accountId: string, id: string): Promise<StoredRecord | undefined>;

  /**
   * Reads a record and writes what `decide` returns, atomically. With `countReferencing`,
   * `decide` also gets how many records of that kind reference this one (customerId) in
   * the given statuses, counted in the same transaction.
   */
  update<T>(
    kind: RecordKind,
    accountId: string,
    id: string,
    decide: (current: StoredRecord, referencing: number) => UpdateDecision<T>,
    countReferencing?: { kind: RecordKind; statuses: readonly string[] },
  ): Promise<{ found: false } | { found: true; result: T }>;

  /** Records of a kind of one account, newest first, with the total matching the filters. */
  list(kind: RecordKind, accountId: string, query: ListQuery): Promise<{ items: StoredRecord[]; total: number }>;

  count(kind: RecordKind, accountId?: string): Promise<number>;

  /** The account's clock offset (ms ahead of the base clock). */
  clockOffset(accountId: string): Promise<number>;
  /**
   * Moves the account's clock forward by `ms`; returns the new offset, or null (and stores
   * nothing) when the new offset would exceed `maxOffsetMs`.
   */
  advanceClock(accountId: string, ms: number, maxOffsetMs?: number): Promise<number | null>;

  /** Pending outbox events due at `nowMs` (real time), oldest first. */
  outboxDue(nowMs: number, limit: number): Promise<OutboxEvent[]>;
  /** When the earliest pending event is due (ms), if any. */
  outboxNextDueMs(): Promise<number | undefined>;
  outboxGet(id: string): Promise<OutboxEvent | undefined>;
  /** Records the outcome of an attempt. */
  outboxSettle(id: string, change: Pick<OutboxEvent, "state" | "attempts" | "nextAttemptMs" | "lastError">): Promise<void>;

  /** The account's stored webhook secrets (none until the first rotation). */
  webhookSecrets(accountId: string): Promise<WebhookSecrets | undefined>;
  saveWebhookSecrets(accountId: string, secrets: WebhookSecrets): Promise<void>;

  close(): Promise<void>;
}
