/**
 * What makes each event the contract publishes (`x-webhooks`, decision D24) happen, and where it
 * goes: the one part of the event scenarios written per event type. The rules (the event
 * arrives, signed, its body the published one) are applied over every published type by the
 * scenarios; a type published with no cause here is a mistake of the suites, which the
 * package's tests catch (test/scenarios.test.ts).
 *
 * - `charge.paid` (family A): a charge created with the receiver as its `webhook_url`, paid
 *   through the sandbox's payment control;
 * - `boleto.paid` and `boleto.canceled` (family B): the account's webhook endpoint set to the
 *   receiver (a control: the webhook resources the document mentions publish no operation), a
 *   REGISTERED boleto made through a control, then paid through the payment control, or
 *   cancelled through the published `cancelBoleto`.
 *
 * Without the controls (any server but the project's sandbox) the events cannot be caused, and
 * the scenarios are not applicable.
 */
import { NotApplicable, type FamilyContext } from "../core/check-context.ts";
import type { ScenarioAssertions } from "../core/scenario.ts";
import { createBoleto, payBoleto, setWebhookEndpoint, webhookEndpoint } from "./sandbox-controls.ts";
import { is2xx, describe, sender, type Json } from "./support.ts";
import { eventOperation, payChargeTowards, requireLocalServer, startReceiver, type ReceivedWebhook, type WebhookReceiver } from "./events-webhook-support.ts";

/** The resource an event reports: its id at `idMember` of the event's `data`, and the status it shows there. */
export interface CausedEvent {
  idMember: string;
  id: string;
  status: string;
}

export interface EventCause {
  /**
   * Aims the event at the receiver and makes it happen. Resolves with the resource it reports
   * (undefined when a problem was recorded instead) and what undoes the aiming, to run once the
   * event was received or waited for.
   */
  provoke(ctx: FamilyContext, check: ScenarioAssertions, scenarioId: string, receiver: WebhookReceiver): Promise<{ caused?: CausedEvent; restore(): Promise<void> }>;
}

const nothingToRestore = async () => undefined;

/**
 * A family B event of a boleto: the account's endpoint aimed at the receiver (given back as it
 * was afterwards), a REGISTERED boleto made, then `change` applied to it.
 */
function boletoEvent(status: string, change: (ctx: FamilyContext, check: ScenarioAssertions, scenarioId: string, boletoId: string) => Promise<boolean>): EventCause {
  return {
    async provoke(ctx, check, scenarioId, receiver) {
      requireLocalServer(ctx);
      const rule = "family B's events go to the account's webhook endpoint, which only the sandbox's control sets";
      const before = await webhookEndpoint(ctx, scenarioId, rule);
      await setWebhookEndpoint(ctx, scenarioId, receiver.url, rule);
      const restore = () => setWebhookEndpoint(ctx, scenarioId, before, rule);
      try {
        const boletoId = await createBoleto(ctx, scenarioId, "REGISTERED", "a boleto to change: the published interface creates none");
        const changed = await change(ctx, check, scenarioId, boletoId);
        return { caused: changed ? { idMember: "transactionId", id: boletoId, status } : undefined, restore };
      } catch (error) {
        await restore();
        throw error;
      }
    },
  };
}

/** The cause of every event type the contract publishes, by type. */
export const EVENT_CAUSES: Record<string, EventCause> = {
  "charge.paid": {
    async provoke(ctx, check, scenarioId, receiver) {
      const id = await payChargeTowards(ctx, check, scenarioId, receiver);
      return { caused: id === undefined ? undefined : { idMember: "id", id, status: "paid" }, restore: nothingToRestore };
    },
  },
  "boleto.paid": boletoEvent("CONFIRMED", async (ctx, _check, scenarioId, boletoId) => {
    await payBoleto(ctx, scenarioId, boletoId, "the boleto.paid event needs a payment");
    return true;
  }),
  "boleto.canceled": boletoEvent("CANCELED", async (ctx, check, scenarioId, boletoId) => {
    const cancelled = await sender(ctx, scenarioId)("cancelBoleto", { params: { boletoId }, body: { reason: "conformance: boleto.canceled event" } });
    check.that(is2xx(cancelled), `cancelling the REGISTERED boleto ${boletoId} answered ${describe(cancelled)}`);
    if (!is2xx(cancelled)) return false;
    check.response("cancelBoleto", "200", cancelled, "cancel");
    return true;
  }),
};

/** The event types the family's contract publishes (`x-webhooks` of its 3.0 document). */
export function publishedEventTypes(document: Json): string[] {
  const webhooks = document["x-webhooks"];
  return typeof webhooks === "object" && webhooks !== null ? Object.keys(webhooks) : [];
}

/** The cause of a published event type; a type without one is the suites' mistake, not the server's. */
export function causeOf(type: string): EventCause {
  const cause = EVENT_CAUSES[type];
  if (!cause) throw new Error(`the contract publishes the event ${type}, which no cause of scenarios/events-webhook-causes.ts makes happen`);
  return cause;
}

/**
 * Each event type the family publishes and the profile holds it to (its webhook operation is
 * the document's word, or the profile is full: family B's events are D24's), caused one at a
 * time towards a receiver of its own; `judge` gets what arrived first within `waitMs` of the
 * cause. Not applicable when the profile holds the family to no event type.
 */
export async function receiveEachEvent(
  ctx: FamilyContext,
  check: ScenarioAssertions,
  scenarioId: string,
  waitMs: number,
  judge: (type: string, delivery: ReceivedWebhook, caused: CausedEvent) => void | Promise<void>,
): Promise<void> {
  const types = publishedEventTypes(ctx.contract.document).filter((type) => ctx.asserts({ kind: "operation", node: eventOperation(ctx.contract.document, type) }));
  if (types.length === 0) throw new NotApplicable(`the ${ctx.family} events are decisions of the project (D24): the document names none (checked under --profile full)`);
  for (const type of types) {
    const receiver = await startReceiver(ctx);
    try {
      const { caused, restore } = await causeOf(type).provoke(ctx, check, scenarioId, receiver);
      try {
        if (!caused) continue;
        await receiver.wait(waitMs);
        const delivery = receiver.received[0];
        check.that(delivery !== undefined, `${type}: no webhook reached ${receiver.url} within ${waitMs / 1000} s of its cause`);
        if (delivery) await judge(type, delivery, caused);
      } finally {
        await restore();
      }
    } finally {
      await receiver.close();
    }
  }
}
