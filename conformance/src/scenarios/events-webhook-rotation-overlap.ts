/**
 * Decision D25 (full profile), a secret's rotation: "for an overlap period after a rotation ...
 * every event carries a signature under the new and under the previous secret", one signature
 * per secret; "rotating again during an overlap keeps every secret still signing ... until the
 * new overlap ends, ... so two rotations in a row never cut off a receiver that knows the secret
 * before last". And once the overlap has ended only the new secret signs: a secret is rotated
 * out because it must stop being trusted (a receiver that still accepted it would take events
 * forged with it), so an event that still verified with it after the overlap would keep the
 * secret alive past its end.
 *
 * On the rate-limit key's account (the one whose clock the scenarios move; no other check reads
 * its secrets or its events): its secrets read, rotated twice, each time a `boleto.paid` event
 * caused towards a receiver on this machine (the account's endpoint aimed at it, a boleto made
 * and paid through the sandbox's controls) and verified with the Standard Webhooks reference
 * library under each secret; then the account's clock moved past the second overlap's end (the
 * rotation's `previousUntil`) and a last event verified under the newest secret alone. The
 * rotation, the endpoint, the boleto and the clock are controls of the project's sandbox: on
 * any other server the rule is not applicable.
 */
import { Webhook } from "standardwebhooks";
import { NotApplicable, type FamilyContext } from "../core/check-context.ts";
import type { Scenario, ScenarioAssertions } from "../core/scenario.ts";
import { eventHeader, plainHeaders, requireLocalServer, startReceiver, type ReceivedWebhook } from "./events-webhook-support.ts";
import { advanceClock, clockKey, createBoleto, payBoleto, rotateWebhookSecret, setWebhookEndpoint, webhookEndpoint, webhookSecrets } from "./sandbox-controls.ts";

/** How long the receiver waits for each event after its cause. */
const WAIT_MS = 5_000;

/** The event whose delivery is observed after each step (any event of the account serves). */
const EVENT = "boleto.paid";

/** Whether the delivery verifies under `secret` (Standard Webhooks: one of its signatures does). */
function verifiesWith(delivery: ReceivedWebhook, secret: string): boolean {
  try {
    new Webhook(secret).verify(delivery.body, plainHeaders(delivery));
    return true;
  } catch {
    return false;
  }
}

/** A `boleto.paid` of the account of `key`, sent to a receiver of its own; undefined (a problem recorded) when none arrives. */
async function nextEvent(ctx: FamilyContext, check: ScenarioAssertions, scenarioId: string, key: "rateLimits", step: string): Promise<ReceivedWebhook | undefined> {
  const rule = "the events of an account go to its webhook endpoint, which only the sandbox's control sets";
  const receiver = await startReceiver(ctx);
  const before = await webhookEndpoint(ctx, scenarioId, rule, key);
  await setWebhookEndpoint(ctx, scenarioId, receiver.url, rule, key);
  try {
    const boletoId = await createBoleto(ctx, scenarioId, "REGISTERED", "a boleto to pay: the published interface creates none", key);
    await payBoleto(ctx, scenarioId, boletoId, `the ${EVENT} event needs a payment`, key);
    await receiver.wait(WAIT_MS);
    const delivery = receiver.received[0];
    check.that(delivery !== undefined, `${step}: no ${EVENT} webhook reached ${receiver.url} within ${WAIT_MS / 1000} s of its cause`);
    return delivery;
  } finally {
    await setWebhookEndpoint(ctx, scenarioId, before, rule, key);
    await receiver.close();
  }
}

/** Records a problem for each secret that must sign the delivery and does not, and each that must not and does. */
function judge(check: ScenarioAssertions, step: string, delivery: ReceivedWebhook | undefined, signing: Record<string, string>, retired: Record<string, string> = {}): void {
  if (!delivery) return;
  const header = delivery.headers["webhook-signature"] ?? "(absent)";
  for (const [name, secret] of Object.entries(signing)) {
    check.that(verifiesWith(delivery, secret), `D25: ${step}, the ${EVENT} webhook does not verify under ${name} (webhook-signature: ${header})`);
  }
  for (const [name, secret] of Object.entries(retired)) {
    check.that(!verifiesWith(delivery, secret), `D25: ${step}, the ${EVENT} webhook still verifies under ${name}, whose overlap has ended (webhook-signature: ${header})`);
  }
}

export const webhookRotationOverlap: Scenario = {
  id: "family-b/events/webhook-rotation-overlap",
  family: "family-b",
  profile: "full",
  decision: "D25",
  title: "after a secret's rotation the earlier secrets keep signing until the overlap ends, and only the new one after it",
  statements: ["A-EVENTS-EVENT-hmac"],
  covers: [],
  async run(ctx, check) {
    // The signature's scheme and its rotation are decisions (D25): read under full only.
    const signatureHeader = eventHeader(ctx.contract.document, EVENT, "webhook-signature");
    if (!signatureHeader || !ctx.asserts({ kind: "parameter", parameter: signatureHeader })) {
      throw new NotApplicable(`the profile does not hold the ${EVENT} signature to D25`);
    }
    requireLocalServer(ctx);
    const key = clockKey(ctx);
    const rule = "a secret's rotation is made through the sandbox's control";
    const [original] = await webhookSecrets(ctx, this.id, "the account's secret is read through the sandbox's control", key);
    if (original === undefined) throw new NotApplicable("the control GET /_sandbox/webhooks/secret gave no secret");

    const first = await rotateWebhookSecret(ctx, this.id, rule, key);
    judge(check, "after a rotation", await nextEvent(ctx, check, this.id, key, "after a rotation"), { "the new secret": first.current, "the secret it replaced": original });

    const second = await rotateWebhookSecret(ctx, this.id, rule, key);
    judge(check, "after a second rotation within the overlap", await nextEvent(ctx, check, this.id, key, "after a second rotation"), {
      "the newest secret": second.current,
      "the secret before it": first.current,
      "the secret before last": original,
    });

    if (!Number.isFinite(second.previousUntilMs)) throw new NotApplicable("the rotation's answer gives no previousUntil, so the overlap's end cannot be reached");
    const now = await advanceClock(ctx, this.id, 1, rule);
    if (!Number.isFinite(now)) throw new NotApplicable("the clock control's answer gives no now, so the overlap's end cannot be reached");
    await advanceClock(ctx, this.id, Math.max(1, Math.ceil((second.previousUntilMs - now) / 1000) + 1), rule);
    judge(check, "once the overlap has ended", await nextEvent(ctx, check, this.id, key, "once the overlap has ended"), { "the newest secret": second.current }, {
      "the secret before it": first.current,
      "the secret before last": original,
    });
  },
};
