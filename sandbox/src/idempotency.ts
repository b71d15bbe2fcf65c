/**
 * Idempotent creation (D07, D08 for family A's `Idempotency-Key`; D36 for family B's
 * `X-Idempotency-Key`). The key is claimed by the same store transaction that inserts the
 * record, so parallel requests with one key create exactly one record:
 * - a key never seen (or older than 24 hours on the account's clock) creates, and the
 *   response is stored with it;
 * - the same key with the same body (compared as JSON values) replays the stored response,
 *   byte for byte, marked `Idempotent-Replayed: true`;
 * - the same key with another body gives 422 IDEMPOTENCY_KEY_MISMATCH;
 * - a key whose first request is still in flight gives 409 IDEMPOTENCY_KEY_IN_USE.
 * Keys are scoped per API key. Requests refused before the claim store nothing.
 */
import * as crypto from "node:crypto";
import type { RequestContext } from "./app.ts";
import { problem, sdkError } from "./envelopes.ts";
import type { Reply } from "./http/reply.ts";
import type { CreateOutcome, CreateRequest, StoredRecord } from "./store/types.ts";

/** How long a key is kept (decision D08). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

/** JSON with object members sorted at every level, so that member order and whitespace do not matter. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${listed(value.map(canonicalJson))}]`;
  const record = value as Record<string, unknown>;
  return `{${listed(Object.keys(record).sort().map((name) => `${JSON.stringify(name)}:${canonicalJson(record[name])}`))}}`;
}

/** The items of an array or the members of an object, one separator for both. */
const listed = (items: string[]): string => items.join(",");

export function fingerprint(operationId: string, body: unknown): string {
  return sha256Hex(`${operationId}\n${canonicalJson(body)}`);
}

// `crypto.hash` (Node 20.12+) hashes a string in one call, without a Hash object per request
// (its output is hexadecimal by default).
function sha256Hex(text: string): string {
  return crypto.hash("sha256", text);
}

export interface IdempotentCreate {
  /** The idempotency key sent, if any (without one every request creates). */
  key: string | undefined;
  record: StoredRecord;
  /** The reply of a successful creation; stored with the key. */
  reply: Reply;
  requires?: CreateRequest["requires"];
  /** Renders `requires` and `duplicate` failures. */
  refused?: (outcome: Extract<CreateOutcome, { kind: "precondition_failed" | "duplicate" }>) => Reply;
}

export async function createIdempotently(ctx: RequestContext, input: IdempotentCreate): Promise<Reply> {
  const body = JSON.stringify(input.reply.body);
  const outcome = await ctx.app.store.create({
    record: input.record,
    response: { status: input.reply.status, body },
    requires: input.requires,
    claim:
      input.key === undefined
        ? undefined
        : {
            scope: ctx.key.id,
            key: input.key,
            fingerprint: fingerprint(ctx.op.operationId, ctx.body),
            nowMs: ctx.now.getTime(),
            retentionMs: IDEMPOTENCY_RETENTION_MS,
          },
  });
  // Stryker disable next-line all: the header's name appears only in the refusals' human-readable texts
  const family = ctx.surface === "A" ? "Idempotency-Key" : "X-Idempotency-Key";
  switch (outcome.kind) {
    case "created":
      return { ...input.reply, body: undefined, rawBody: body };
    case "replayed":
      return { status: outcome.response.status, rawBody: outcome.response.body, headers: { "Idempotent-Replayed": "true" } };
    case "mismatch": {
      const detail = `The ${family} was first used with a different request; use a new key for a different request.`;
      return ctx.surface === "A"
        ? problem(422, "IDEMPOTENCY_KEY_MISMATCH", detail)
        : sdkError(422, "IDEMPOTENCY_KEY_MISMATCH", `This ${family} was first used with a different request body.`, detail);
    }
    // Stryker disable all: reached with the PostgreSQL store only, whose claim can meet a key another transaction holds; the SQLite store claims within one serialised transaction (the PostgreSQL store is proven by its own tests)
    case "in_flight": {
      const detail = `A request with this ${family} is still being processed; retry shortly with the same key.`;
      return ctx.surface === "A"
        ? problem(409, "IDEMPOTENCY_KEY_IN_USE", detail)
        : sdkError(409, "IDEMPOTENCY_KEY_IN_USE", `A request with this ${family} is still being processed.`, detail);
    }
    // Stryker restore all
    default:
      // Only a creation that states `requires` meets these outcomes, and each states `refused` too.
      return input.refused!(outcome);
  }
}
