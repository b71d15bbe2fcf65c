/**
 * Per-resource creation limits are enforced apart from the general one (family B: "| PIX | 30
 * creations/min | POST /pix and POST /pix/payment |", "| Transactions | 50 creations/min |
 * POST /transactions |"): once one resource's creations are used up, a creation of it is
 * answered 429 while other requests of the same account still succeed, because the general
 * limit is not used up. Needs the resource's limit (read from X-RateLimit-Limit on a creation)
 * below what is left of the general limit; otherwise the two cannot be told apart and the
 * scenario is not applicable. It runs before the exhaust stage (which uses up the general limit
 * of the same account), and only on a key the target dedicates to rate limits, so that no other
 * check finds these creations used up.
 */
import { exampleBody } from "../checks/provisioning.ts";
import { NotApplicable } from "../core/check-context.ts";
import type { Scenario } from "../core/scenario.ts";
import { describe, is2xx, sender } from "./support.ts";

/** The most creations one scenario agrees to send. */
const CAP = 200;
/** How often a window may renew while the creations are used up. */
const MAX_RENEWALS = 2;

function header(response: { headers: Record<string, string | undefined> }, name: string): number | undefined {
  const value = response.headers[name];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

function creationLimitEnforcedSeparately(resource: string, operationId: string, statement: string): Scenario {
  return {
    id: `family-b/rate-limits/${resource}-limit-exhaustion`,
    family: "family-b",
    profile: "seed",
    title: `used-up ${resource} creations give 429 while other requests of the account still pass`,
    statements: [statement, "B-LIMITS-STATUS-429", "B-LIMITS-HEADER-retry-after"],
    covers: [{ operationId, status: "429" }],
    async run(ctx, check) {
      const send = sender(ctx, this.id);
      const key = ctx.rateLimitKey();
      if (key !== "rateLimits") {
        throw new NotApplicable(`the target dedicates no key to rate limits (keys.rateLimits): using up ${resource} creations would disturb other checks`);
      }
      const body = exampleBody(ctx, operationId);
      delete body.customerId; // an example customer does not exist on the server
      const create = () => send(operationId, { key, body, headers: { "X-Idempotency-Key": ctx.idempotencyKey() }, expect429: true });
      const first = await create();
      if (first.status === 429) throw new NotApplicable(`the account was already rate limited before the ${resource} creations`);
      if (!is2xx(first)) throw new NotApplicable(`the server refused the contract's example (${describe(first)}); its request shape is a decision (D14, D15)`);
      const limit = header(first, "x-ratelimit-limit");
      const left = header(first, "x-ratelimit-remaining");
      const health = await send("getHealth", { key });
      const generalLeft = header(health, "x-ratelimit-remaining");
      if (limit === undefined || left === undefined || generalLeft === undefined) {
        throw new NotApplicable("the responses carry no X-RateLimit-Limit/Remaining to size the limit by");
      }
      if (limit > CAP) throw new NotApplicable(`the ${resource} creation limit is ${limit}, above the ${CAP} this scenario may use up`);
      if (left + 2 >= generalLeft) {
        throw new NotApplicable(`the ${resource} creations left (${left}) are not fewer than the requests left (${generalLeft}): the limits cannot be told apart`);
      }
      let limited;
      // A window that renews meanwhile (Remaining goes up: a short window) starts the count again.
      let budget = left + 1;
      let previous = left;
      let renewals = 0;
      for (let sent = 0; sent <= budget; sent += 1) {
        const response = await create();
        if (response.status === 429) {
          limited = response;
          break;
        }
        if (!is2xx(response)) throw new NotApplicable(`a ${resource} creation answered ${describe(response)} while using up the limit`);
        const now = header(response, "x-ratelimit-remaining");
        if (now !== undefined && now > previous && renewals < MAX_RENEWALS) {
          renewals += 1;
          budget = sent + now + 1;
        }
        if (now !== undefined) previous = now;
      }
      check.that(limited !== undefined, `no 429 after ${left + 2} ${resource} creations in one window with a limit of ${limit}`);
      if (!limited) return;
      check.response(operationId, "429", limited);
      const retryAfter = Number(limited.headers["retry-after"]);
      check.that(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After ${limited.headers["retry-after"] ?? "(absent)"} is not an integer of at least 1 second`);
      const after = await send("getHealth", { key });
      check.that(is2xx(after), `with only ${resource} creations used up, a health check of the same account answered ${describe(after)}`);
      if (is2xx(after)) check.response("getHealth", "200", after, `health after the ${resource} limit was used up`);
    },
  };
}

export const pixLimitEnforcedSeparately = creationLimitEnforcedSeparately("pix", "createPixCharge", "B-LIMITS-LIMIT-pix");
export const transactionLimitEnforcedSeparately = creationLimitEnforcedSeparately("transaction", "createTransaction", "B-LIMITS-LIMIT-transactions");
