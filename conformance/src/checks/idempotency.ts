/**
 * The idempotency conflicts the project decided (family A: D07 on Idempotency-Key; family B:
 * D36 on X-Idempotency-Key): a key still in flight is refused with 409, a used key with another
 * payload with 422. Both are decisions, so these checks run under the full profile only.
 */
import type { FamilyContext, RequestOptions } from "../core/check-context.ts";
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import type { ResponseCheck } from "./response-check.ts";

export interface IdempotentOperation {
  family: FamilyId;
  operationId: string;
  /** Name of the idempotency key header. */
  header: string;
  decision: string;
  /** A valid request of the operation with the given key. */
  request(ctx: FamilyContext, key: string): Promise<RequestOptions>;
}

export function idempotencyConflictChecks(op: IdempotentOperation): ResponseCheck[] {
  return [
    {
      family: op.family,
      operationId: op.operationId,
      status: "409",
      variant: "key-in-flight",
      title: `the same ${op.header} sent while its first request is still processed`,
      profile: "full",
      decision: op.decision,
      errorCode: "IDEMPOTENCY_KEY_IN_USE",
      request: async (ctx) => {
        // Requests with one key fired at once; the checked one joins them. Whether one finds
        // another still in flight depends on the server's speed (see alternative).
        const options = await op.request(ctx, ctx.idempotencyKey());
        for (let i = 0; i < 4; i += 1) {
          void ctx.send(op.operationId, { ...options, checkId: `${op.family}/${op.operationId}/409/companion` }).catch(() => {});
        }
        return options;
      },
      alternative: (_ctx, response) =>
        response.status >= 200 && response.status < 300
          ? `every request with the key found the first one finished (answered ${response.status}): no in-flight conflict could be provoked`
          : undefined,
    },
    {
      family: op.family,
      operationId: op.operationId,
      status: "422",
      variant: "key-reused-other-payload",
      title: `a used ${op.header} with another payload`,
      profile: "full",
      decision: op.decision,
      errorCode: "IDEMPOTENCY_KEY_MISMATCH",
      request: async (ctx) => {
        const key = ctx.idempotencyKey();
        const first = await op.request(ctx, key);
        await ctx.send(op.operationId, { ...first, checkId: `${op.family}/${op.operationId}/422/first-use` });
        // The same request with one change: the amount.
        const body = { ...(first.body as Record<string, unknown>) };
        body.amount = Number(body.amount ?? 1) + 1;
        return { ...first, body };
      },
    },
  ];
}
