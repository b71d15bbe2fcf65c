/**
 * "| X-Idempotency-Key | recommended | avoids duplicated transactions |" (family B): the same
 * PIX charge or transaction sent twice with one X-Idempotency-Key does not make two. The
 * second answer may be the first resource again (decision D36: the stored response) or a
 * refusal; a second, different resource is a duplicate. The request shapes of POST /pix and
 * POST /transactions are decisions (D14, D15): a server that refuses them makes the scenario
 * not applicable.
 */
import { exampleBody, pick } from "../checks/provisioning.ts";
import { NotApplicable, type FamilyContext } from "../core/check-context.ts";
import type { Scenario, ScenarioAssertions } from "../core/scenario.ts";
import { describe, is2xx, is4xx, sender } from "./support.ts";

const ID_PATHS = ["data.id", "data.pixId", "data.transactionId", "data.txid", "id"];

async function sentTwice(ctx: FamilyContext, check: ScenarioAssertions, scenarioId: string, operationId: string, what: string): Promise<boolean> {
  const send = sender(ctx, scenarioId);
  const body = exampleBody(ctx, operationId);
  if (operationId === "createTransaction") delete body.customerId; // the example names a customer the server does not have
  const headers = { "X-Idempotency-Key": ctx.idempotencyKey() };
  const first = await send(operationId, { body, headers });
  if (!is2xx(first)) return false;
  check.response(operationId, "201", first, `first ${what}`);
  const second = await send(operationId, { body, headers });
  check.that(is2xx(second) || is4xx(second), `the repeated ${what} answered ${describe(second)}`);
  if (is2xx(second)) {
    check.response(operationId, "201", second, `repeated ${what}`);
    const [a, b] = [pick(first, ID_PATHS), pick(second, ID_PATHS)];
    // The record's shape is a decision (D14, D15): under seed a record whose id the contract's paths do not find cannot be compared.
    if (a === undefined && ctx.profile === "seed") return true;
    check.that(a !== undefined && a === b, `one X-Idempotency-Key made two ${what}s: ${a} and ${b}`);
  }
  return true;
}

export const idempotencyKeyAvoidsDuplicates: Scenario = {
  id: "family-b/idempotency/no-duplicates",
  family: "family-b",
  profile: "seed",
  title: "a PIX charge or transaction repeated with one X-Idempotency-Key is not duplicated",
  account: "any",
  statements: ["B-AUTH-HEADER-x-idempotency-key", "B-PIX-HEADER-x-idempotency-key"],
  covers: [
    { operationId: "createPixCharge", status: "201" },
    { operationId: "createTransaction", status: "201" },
  ],
  async run(ctx, check) {
    const pix = await sentTwice(ctx, check, this.id, "createPixCharge", "PIX charge");
    const transaction = await sentTwice(ctx, check, this.id, "createTransaction", "transaction");
    if (!pix && !transaction) throw new NotApplicable("the server refused the contract's PIX charge and transaction (their request shapes are decisions D14, D15)");
  },
};
