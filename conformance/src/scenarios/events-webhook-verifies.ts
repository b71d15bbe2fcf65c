/**
 * Decision D25 (full profile): the payment webhook's `webhook-signature` verifies, with the
 * Standard Webhooks reference library (`standardwebhooks`), under the webhook secret of the
 * primary key's account that the target names (`familyA.webhookSecret`). Without a secret the
 * rule cannot be judged: a signature made with another secret looks like a right one.
 */
import { Webhook } from "standardwebhooks";
import { NotApplicable } from "../core/check-context.ts";
import type { Scenario } from "../core/scenario.ts";
import { payChargeTowards, plainHeaders, startReceiver } from "./events-webhook-support.ts";

/** How long the receiver waits for the event after the payment. */
const WAIT_MS = 5_000;

export const webhookSignatureVerifies: Scenario = {
  id: "family-a/events/webhook-signature-verifies",
  family: "family-a",
  profile: "full",
  decision: "D25",
  title: "the payment webhook's signature verifies with the account's secret (Standard Webhooks)",
  statements: ["A-EVENTS-EVENT-hmac"],
  covers: [{ operationId: "createCharge", status: "201" }],
  async run(ctx, check) {
    const secret = ctx.familyA?.webhookSecret;
    if (!secret) throw new NotApplicable("the target names no familyA.webhookSecret, so a signature cannot be verified");
    const receiver = await startReceiver(ctx);
    try {
      if ((await payChargeTowards(ctx, check, this.id, receiver)) === undefined) return;
      await receiver.wait(WAIT_MS);
      const event = receiver.received[0];
      check.that(event !== undefined, `no webhook reached ${receiver.url} within ${WAIT_MS / 1000} s of the payment`);
      if (!event) return;
      try {
        new Webhook(secret).verify(event.body, plainHeaders(event));
      } catch (error) {
        check.that(false, `D25: the webhook does not verify with the target's webhookSecret (${(error as Error).message}); webhook-signature: ${event.headers["webhook-signature"] ?? "(absent)"}`);
      }
    } finally {
      await receiver.close();
    }
  },
};
