/**
 * Decision D26 (full profile): a receiver that answers 300 to the first attempt (not 2xx, and no
 * redirect to follow: "a delivery succeeds only when the receiver answers 2xx") gets the same
 * event again, with the same `webhook-id` and the same body, after the first delay of the
 * schedule ("about 5 s", with jitter): not before 4 s, and within 10 s of the first attempt.
 * The receiver acknowledges the retry, so nothing more follows.
 */
import type { Scenario } from "../core/scenario.ts";
import { payChargeTowards, startReceiver } from "./events-webhook-support.ts";
import { sameJson } from "./support.ts";

/** The receiver's answer to the first attempt: the first status past 2xx, a failure by D26 whatever a client reads as success. */
const FIRST_ANSWER = 300;
/** How long the receiver waits for the first attempt after the payment. */
const FIRST_WAIT_MS = 5_000;
/** The first retry of D26 is due about 5 s after a failed attempt, with jitter (±10 % in the sandbox). */
const EARLIEST_RETRY_MS = 4_000;
const RETRY_WAIT_MS = 10_000;

export const webhookRetriedAfterFailure: Scenario = {
  id: "family-a/events/webhook-retried",
  family: "family-a",
  profile: "full",
  decision: "D26",
  title: "a webhook the receiver answers with 300 (no 2xx) comes again, same webhook-id, after about 5 s",
  statements: ["A-EVENTS-EVENT-payment-webhook"],
  covers: [{ operationId: "createCharge", status: "201" }],
  async run(ctx, check) {
    const receiver = await startReceiver(ctx, [FIRST_ANSWER]);
    try {
      if ((await payChargeTowards(ctx, check, this.id, receiver)) === undefined) return;
      await receiver.wait(FIRST_WAIT_MS);
      const [first] = receiver.received;
      check.that(first !== undefined, `no webhook reached ${receiver.url} within ${FIRST_WAIT_MS / 1000} s of the payment`);
      if (!first) return;
      await receiver.wait(first.receivedMs + RETRY_WAIT_MS - Date.now(), 2);
      const retry = receiver.received[1];
      check.that(retry !== undefined, `D26: the webhook answered with ${FIRST_ANSWER} was not sent again within ${RETRY_WAIT_MS / 1000} s`);
      if (!retry) return;
      const gap = retry.receivedMs - first.receivedMs;
      check.that(gap >= EARLIEST_RETRY_MS, `D26: the retry came ${gap} ms after the failed attempt; the schedule's first delay is about 5 s`);
      check.that(
        retry.headers["webhook-id"] !== undefined && retry.headers["webhook-id"] === first.headers["webhook-id"],
        `D26: the retry's webhook-id ${String(retry.headers["webhook-id"])} is not the first attempt's ${String(first.headers["webhook-id"])}`,
      );
      let same = retry.body === first.body;
      try {
        same ||= sameJson(JSON.parse(retry.body), JSON.parse(first.body));
      } catch {
        // not JSON: only identical bytes are the same event
      }
      check.that(same, "D26: the retry carries another body than the failed attempt");
    } finally {
      await receiver.close();
    }
  },
};
