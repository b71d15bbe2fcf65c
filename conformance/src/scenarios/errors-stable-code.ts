/**
 * "Every error carries a stable `code` in addition to the HTTP status" (family A): the same
 * failing request made twice is answered with the same status and the same non-empty code, and
 * an answer carrying an error code has an error status (4xx or 5xx), never a success.
 * The failing requests: a charge creation without Idempotency-Key, a read of an id no charge
 * has, a read of the merchant without a key.
 */
import type { RequestOptions } from "../core/check-context.ts";
import type { Scenario } from "../core/scenario.ts";
import { chargeRequest, codeOf, describe, sender } from "./support.ts";

export const errorsCarryStableCode: Scenario = {
  id: "family-a/errors/stable-code",
  family: "family-a",
  profile: "seed",
  title: "the same failing request gets the same error status and code, every time",
  account: "any",
  statements: ["A-ERRORS-PRINCIPLE-stable-code", "A-ERRORS-RULE-code-and-status"],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const failing: Array<[label: string, operationId: string, options: () => RequestOptions]> = [
      ["a charge creation without Idempotency-Key", "createCharge", () => chargeRequest(ctx, undefined)],
      ["a read of an id no charge has", "getCharge", () => ({ params: { id: `ch_none_${ctx.runId}` } })],
      ["a read of the merchant without a key", "getMerchant", () => ({ key: "none" })],
    ];
    for (const [label, operationId, options] of failing) {
      const first = await send(operationId, options());
      const second = await send(operationId, options());
      for (const answer of [first, second]) {
        const code = codeOf(answer);
        if (answer.status >= 200 && answer.status < 300) check.that(code === undefined, `${label} answered ${describe(answer)}: an error code with a success status`);
        else check.that(typeof code === "string" && code.length > 0, `${label} answered ${describe(answer)} without a code`);
      }
      check.that(first.status === second.status && codeOf(first) === codeOf(second), `${label}, made twice, answered ${first.status} ${codeOf(first) ?? "(no code)"} then ${second.status} ${codeOf(second) ?? "(no code)"}`);
    }
  },
};
