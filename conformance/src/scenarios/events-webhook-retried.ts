/**
 * Decision D26 (full profile): an attempt that fails is made again, with the same `webhook-id`
 * and the same body, after the first delay of the schedule ("about 5 s", with jitter). One
 * charge per failure D26 names, paid at once, each towards a receiver of its own that fails the
 * first attempt so and acknowledges the next:
 *
 * - an answer that is not 2xx: 500, and 300 (the first status past 2xx, with no redirect to
 *   follow: a sender that takes a 3xx for delivered fails as one that ignores the answer);
 * - no answer (the request held open): the sender waits at most 10 s for an answer, then the
 *   attempt has failed and is given up (its connection closed), and the delay counts from there;
 * - a network error: the connection reset before any answer;
 * - a 500 whose body never ends: only the status matters, and the sender reads at most a few
 *   KiB, so the attempt ends with the status, and the retry comes as after a plain 500.
 *
 * The retry comes not before 4 s after the first attempt, and within 10 s of it (of its timeout
 * for the unanswered one).
 */
import type { FamilyContext } from "../core/check-context.ts";
import type { Scenario, ScenarioAssertions } from "../core/scenario.ts";
import { eventOperation, payChargeTowards, startReceiver, type ReceiverAnswer } from "./events-webhook-support.ts";
import { sameJson } from "./support.ts";

/** How long the receiver waits for the first attempt after the payment. */
const FIRST_WAIT_MS = 5_000;
/** The first retry of D26 is due about 5 s after a failed attempt, with jitter (±10 % in the sandbox). */
const EARLIEST_RETRY_MS = 4_000;
const RETRY_WAIT_MS = 10_000;
/** D26: the longest a sender waits for an answer before the attempt has failed. */
const ATTEMPT_TIMEOUT_MS = 10_000;

interface Failure {
  /** How the failure reads in a problem. */
  name: string;
  /** The receiver's answer to the first attempt. */
  answer: ReceiverAnswer;
  /** What D26's `x-decided-behaviour` says of it (the profile is asked about it). */
  about: string;
  /** How long after the first attempt began the retry may come. */
  retryWithinMs: number;
}

/** The failures D26 names, each a first answer. */
const FAILURES: Failure[] = [
  { name: "answered 500", answer: 500, about: "2xx only", retryWithinMs: RETRY_WAIT_MS },
  { name: "answered 300", answer: 300, about: "redirects not followed", retryWithinMs: RETRY_WAIT_MS },
  { name: "not answered", answer: "no-answer", about: "no answer within 10 s", retryWithinMs: ATTEMPT_TIMEOUT_MS + RETRY_WAIT_MS },
  { name: "met by a reset connection", answer: "reset", about: "retried after about 5 s", retryWithinMs: RETRY_WAIT_MS },
  { name: "answered 500 with a body that never ends", answer: { status: 500, endlessBody: true }, about: "2xx only", retryWithinMs: RETRY_WAIT_MS },
];

/** One failure: a charge paid towards a receiver that fails its first attempt so. */
async function retriedAfter(ctx: FamilyContext, check: ScenarioAssertions, scenarioId: string, failure: Failure): Promise<void> {
  const receiver = await startReceiver(ctx, [failure.answer]);
  const problem = (text: string) => `D26: the webhook ${failure.name} ${text}`;
  try {
    if ((await payChargeTowards(ctx, check, scenarioId, receiver)) === undefined) return;
    await receiver.wait(FIRST_WAIT_MS);
    const [first] = receiver.received;
    check.that(first !== undefined, `no webhook reached ${receiver.url} within ${FIRST_WAIT_MS / 1000} s of the payment`);
    if (!first) return;
    await receiver.wait(first.receivedMs + failure.retryWithinMs - Date.now(), 2);
    const retry = receiver.received[1];
    check.that(retry !== undefined, problem(`was not sent again within ${failure.retryWithinMs / 1000} s`));
    if (!retry) return;
    const gap = retry.receivedMs - first.receivedMs;
    check.that(gap >= EARLIEST_RETRY_MS, problem(`came again ${gap} ms after the failed attempt; the schedule's first delay is about 5 s`));
    if (failure.answer === "no-answer") {
      // The attempt ends at its timeout, when the sender closes it; the first delay counts from there.
      const closed = first.closedMs;
      check.that(closed !== undefined && closed <= retry.receivedMs, problem("came again while the unanswered attempt was still open: the sender had not given it up"));
      if (closed !== undefined && closed <= retry.receivedMs) {
        check.that(retry.receivedMs - closed >= EARLIEST_RETRY_MS, problem(`came again ${retry.receivedMs - closed} ms after the sender gave the attempt up; the schedule's first delay is about 5 s`));
      }
    }
    check.that(
      retry.headers["webhook-id"] !== undefined && retry.headers["webhook-id"] === first.headers["webhook-id"],
      problem(`came again with webhook-id ${String(retry.headers["webhook-id"])}, not the first attempt's ${String(first.headers["webhook-id"])}`),
    );
    let same = retry.body === first.body;
    try {
      same ||= sameJson(JSON.parse(retry.body), JSON.parse(first.body));
    } catch {
      // not JSON: only identical bytes are the same event
    }
    check.that(same, problem("came again with another body than the failed attempt"));
  } finally {
    await receiver.close();
  }
}

export const webhookRetriedAfterFailure: Scenario = {
  id: "family-a/events/webhook-retried",
  family: "family-a",
  profile: "full",
  decision: "D26",
  title: "a webhook whose attempt failed (500, 300, no answer within 10 s, a reset connection, a body that never ends) comes again, same webhook-id, after about 5 s",
  statements: ["A-EVENTS-EVENT-payment-webhook"],
  covers: [{ operationId: "createCharge", status: "201" }],
  async run(ctx, check) {
    const paid = eventOperation(ctx.contract.document, "charge.paid");
    const failures = FAILURES.filter((failure) => ctx.asserts({ kind: "behaviour", node: paid, about: failure.about }));
    await Promise.all(failures.map((failure) => retriedAfter(ctx, check, this.id, failure)));
  },
};
