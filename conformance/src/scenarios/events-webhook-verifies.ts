/**
 * Decision D25 (full profile): every event's `webhook-signature` verifies, with the Standard
 * Webhooks reference library (`standardwebhooks`), under the webhook secret of the primary key's
 * account, over every event type the family publishes (caused as events-webhook-causes.ts
 * says). Family A's secret is the one the target names (`familyA.webhookSecret`); family B's
 * events are caused through the sandbox's controls, which also give the account's secrets
 * (`GET /_sandbox/webhooks/secret`). Without a secret the rule cannot be judged: a signature
 * made with another secret looks like a right one.
 */
import { Webhook } from "standardwebhooks";
import type { FamilyId } from "@payment-collection/contract/model/layout.ts";
import { NotApplicable, type FamilyContext } from "../core/check-context.ts";
import type { ResponsePair } from "../core/results.ts";
import type { Scenario } from "../core/scenario.ts";
import { plainHeaders, type ReceivedWebhook } from "./events-webhook-support.ts";
import { receiveEachEvent } from "./events-webhook-causes.ts";
import { webhookSecrets } from "./sandbox-controls.ts";

/** How long the receiver waits for each event after its cause. */
const WAIT_MS = 5_000;

/** The secrets that may sign the primary account's events. */
async function secretsOf(ctx: FamilyContext, scenarioId: string): Promise<string[]> {
  if (ctx.family === "family-a") {
    const secret = ctx.familyA?.webhookSecret;
    if (!secret) throw new NotApplicable("the target names no familyA.webhookSecret, so a signature cannot be verified");
    return [secret];
  }
  const secrets = await webhookSecrets(ctx, scenarioId, "a signature cannot be verified without the account's secret");
  if (secrets.length === 0) throw new NotApplicable("the control GET /_sandbox/webhooks/secret gave no secret, so a signature cannot be verified");
  return secrets;
}

/** Why the delivery verifies under none of the secrets, or undefined when one verifies it. */
function unverified(event: ReceivedWebhook, secrets: string[]): string | undefined {
  const errors: string[] = [];
  for (const secret of secrets) {
    try {
      new Webhook(secret).verify(event.body, plainHeaders(event));
      return undefined;
    } catch (error) {
      errors.push((error as Error).message);
    }
  }
  return errors.join("; ");
}

function signatureVerifiesOver(family: FamilyId, title: string, covers: ResponsePair[]): Scenario {
  return {
    id: `${family}/events/webhook-signature-verifies`,
    family,
    profile: "full",
    decision: "D25",
    title,
    statements: ["A-EVENTS-EVENT-hmac"],
    covers,
    async run(ctx, check) {
      const secrets = await secretsOf(ctx, this.id);
      await receiveEachEvent(ctx, check, this.id, WAIT_MS, (type, event) => {
        const problem = unverified(event, secrets);
        check.that(problem === undefined, `D25: the ${type} webhook does not verify with the account's secret (${problem}); webhook-signature: ${event.headers["webhook-signature"] ?? "(absent)"}`);
      });
    },
  };
}

export const webhookSignatureVerifies = signatureVerifiesOver(
  "family-a",
  "every family A event's signature verifies with the account's secret (Standard Webhooks)",
  [{ operationId: "createCharge", status: "201" }],
);

export const boletoWebhookSignatureVerifies = signatureVerifiesOver(
  "family-b",
  "every family B event's signature verifies with the account's secret (Standard Webhooks)",
  [{ operationId: "cancelBoleto", status: "200" }],
);
