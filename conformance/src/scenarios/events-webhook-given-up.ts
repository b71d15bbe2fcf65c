/**
 * Decision D26 (full profile), the retry schedule to its end: "Failed deliveries are retried
 * after about 5 seconds, 5 minutes, 30 minutes, 2 hours, 5 hours, 10 hours, 14 hours, 20 hours
 * and 24 hours (each delay counted from the end of the previous attempt ...), then given up."
 *
 * The schedule runs for days, so the scenario moves time on the account's clock, on which the
 * project's sandbox runs it (the rate-limit key's account, the one whose clock the scenarios
 * move): the account's endpoint aimed at a receiver that answers 500 to every attempt, a
 * boleto made and paid through the sandbox's controls. The first retry comes in real time (as
 * in `family-a/events/webhook-retried`); before each later one the clock is moved to three
 * quarters of its delay (nothing may come: the delay is "about" its value) and then to twice
 * the delay (the retry must come, with the same `webhook-id`). After the ninth retry, two days
 * more bring nothing: the event was given up. Not applicable without the controls.
 */
import { NotApplicable } from "../core/check-context.ts";
import type { Scenario } from "../core/scenario.ts";
import { eventOperation, requireLocalServer, startReceiver } from "./events-webhook-support.ts";
import { advanceClock, clockKey, createBoleto, payBoleto, setWebhookEndpoint, webhookEndpoint } from "./sandbox-controls.ts";

/** D26's delays between attempts, in seconds. */
const SCHEDULE_S = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400];
/** How long the receiver waits for the first attempt after the payment, and for the first retry after it (about 5 s, in real time). */
const FIRST_WAIT_MS = 5_000;
const FIRST_RETRY_WAIT_MS = 10_000;
/** Before each move of the clock: the sender has recorded the failed attempt it was answered. */
const SETTLE_MS = 1_000;
/** How long a retry that is not due yet is waited for (nothing may come), and one that is due. */
const QUIET_MS = 1_000;
const DUE_WAIT_MS = 5_000;
/** The fractions of a delay the clock is moved to: before it (with room for jitter) and well past it. */
const TOO_EARLY = 0.75;
const WELL_PAST = 2;

const EVENT = "boleto.paid";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const webhookRetriedThenGivenUp: Scenario = {
  id: "family-b/events/webhook-retried-then-given-up",
  family: "family-b",
  profile: "full",
  decision: "D26",
  title: "a webhook every attempt of which fails is retried after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h, then given up",
  statements: ["A-EVENTS-EVENT-hmac"],
  covers: [],
  async run(ctx, check) {
    const operation = eventOperation(ctx.contract.document, EVENT);
    if (!operation || !ctx.asserts({ kind: "behaviour", node: operation, about: "retried after about 5 s, 5 min" })) {
      throw new NotApplicable(`the profile does not hold the ${EVENT} event to D26's schedule`);
    }
    requireLocalServer(ctx);
    const key = clockKey(ctx);
    const rule = "the schedule runs for days: time is moved on the account's clock, through the sandbox's control";
    const endpointRule = "the events of an account go to its webhook endpoint, which only the sandbox's control sets";
    // Every attempt fails, and more than the schedule allows.
    const receiver = await startReceiver(ctx, SCHEDULE_S.map(() => 500).concat([500, 500, 500]));
    const before = await webhookEndpoint(ctx, this.id, endpointRule, key);
    await setWebhookEndpoint(ctx, this.id, receiver.url, endpointRule, key);
    const problem = (text: string) => `D26: the ${EVENT} webhook answered 500 every time ${text}`;
    try {
      const boletoId = await createBoleto(ctx, this.id, "REGISTERED", "a boleto to pay: the published interface creates none", key);
      await payBoleto(ctx, this.id, boletoId, `the ${EVENT} event needs a payment`, key);
      await receiver.wait(FIRST_WAIT_MS);
      check.that(receiver.received.length > 0, `no ${EVENT} webhook reached ${receiver.url} within ${FIRST_WAIT_MS / 1000} s of the payment`);
      if (receiver.received.length === 0) return;
      await receiver.wait(receiver.received[0]!.receivedMs + FIRST_RETRY_WAIT_MS - Date.now(), 2);
      check.that(receiver.received.length >= 2, problem(`was not sent again within ${FIRST_RETRY_WAIT_MS / 1000} s`));
      if (receiver.received.length < 2) return;

      for (const [index, delayS] of SCHEDULE_S.entries()) {
        if (index === 0) continue;
        const attempts = index + 2;
        const retry = `retry ${index + 1} (due about ${delayS} s after the failed attempt)`;
        await pause(SETTLE_MS);
        await advanceClock(ctx, this.id, Math.floor(delayS * TOO_EARLY), rule);
        await receiver.wait(QUIET_MS, attempts);
        check.that(receiver.received.length < attempts, problem(`came for its ${retry} when the account's clock had moved only ${Math.floor(delayS * TOO_EARLY)} s`));
        await advanceClock(ctx, this.id, Math.ceil(delayS * (WELL_PAST - TOO_EARLY)), rule);
        await receiver.wait(DUE_WAIT_MS, attempts);
        check.that(receiver.received.length >= attempts, problem(`did not come for its ${retry} once the account's clock had moved ${WELL_PAST * delayS} s`));
        if (receiver.received.length < attempts) return;
      }

      const last = SCHEDULE_S[SCHEDULE_S.length - 1]!;
      await pause(SETTLE_MS);
      await advanceClock(ctx, this.id, WELL_PAST * last, rule);
      await receiver.wait(QUIET_MS, SCHEDULE_S.length + 2);
      check.that(
        receiver.received.length === SCHEDULE_S.length + 1,
        problem(`came ${receiver.received.length} times; after its first attempt and the ${SCHEDULE_S.length} retries of the schedule it is given up, and ${WELL_PAST * last} s more brought it again`),
      );
      const ids = new Set(receiver.received.map((delivery) => delivery.headers["webhook-id"]));
      check.that(ids.size === 1 && !ids.has(undefined), problem(`came with the webhook-ids ${[...ids].map(String).join(", ")}: every retry carries the first attempt's`));
    } finally {
      await setWebhookEndpoint(ctx, this.id, before, endpointRule, key);
      await receiver.close();
    }
  },
};
