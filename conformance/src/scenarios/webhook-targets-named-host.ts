/**
 * Webhook targets named by a host name, which the server resolves when it sends an event.
 *
 * - `family-a/events/webhook-to-host-name` (the document: "When the payment of a charge is
 *   received, the service sends a webhook to the charge's `webhook_url`"): a `webhook_url` that
 *   names its host (`localhost`, the one name every resolver gives a loopback address, RFC 6761
 *   §6.3) gets the payment's webhook, on a server that may call this machine (the sandbox with
 *   `--allow-private-webhooks`; a server that refuses the URL cannot show the rule here).
 * - `family-a/webhook-targets/name-resolving-non-public-not-called` (decision D48, full): "A
 *   name that resolves to such an address is refused when an event is to be sent (the attempt is
 *   given up at once)". A charge whose `webhook_url` names this machine by its host name, where
 *   that name resolves to a non-public address (as `/etc/hosts` commonly makes it: `127.0.1.1`
 *   on Debian, the container's private address in a container), is taken (D48: a name is judged
 *   when an event is sent), paid, and nothing may reach the receiver listening at that address.
 *   Not applicable when the target declares that the server calls private targets, or when this
 *   machine's name resolves to no non-public address it can listen on.
 */
import { lookup } from "node:dns/promises";
import { hostname } from "node:os";
import { isIP } from "node:net";
import { NotApplicable, type FamilyContext } from "../core/check-context.ts";
import type { Scenario } from "../core/scenario.ts";
import { payChargeTowards, requireLocalServer, startReceiver, type ReceiverHost, type WebhookReceiver } from "./events-webhook-support.ts";

/** How long the receiver waits for the event after the payment. */
const WAIT_MS = 5_000;

/** Whether an address (IPv4 or IPv6) is a loopback, private, shared, link-local or unique-local one: one this machine may hold and D48 forbids. */
function isNonPublicHere(address: string): boolean {
  if (isIP(address) === 6) return address === "::1" || /^f[cd][0-9a-f]{0,2}:/i.test(address) || /^fe[89ab][0-9a-f]?:/i.test(address);
  const [a, b] = address.split(".").map(Number) as [number, number];
  return a === 127 || a === 10 || (a === 172 && b >= 16 && b < 32) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b < 128) || (a === 169 && b === 254);
}

/** The address a host name resolves to first on this machine (what a server on it connects to), or undefined. */
async function firstAddress(name: string): Promise<string | undefined> {
  try {
    return (await lookup(name, { verbatim: true })).address;
  } catch {
    return undefined;
  }
}

/** A receiver at `host`, or not applicable when this machine cannot listen there. */
async function receiverAt(ctx: FamilyContext, host: ReceiverHost): Promise<WebhookReceiver> {
  try {
    return await startReceiver(ctx, [], host);
  } catch (error) {
    throw new NotApplicable(`a receiver cannot listen on ${host.address}, where ${host.name} resolves (${(error as Error).message})`);
  }
}

export const webhookToHostName: Scenario = {
  id: "family-a/events/webhook-to-host-name",
  family: "family-a",
  profile: "seed",
  title: "a charge's webhook_url that names its host (localhost) gets the payment's webhook",
  statements: ["A-EVENTS-EVENT-payment-webhook", "A-CHARGE-FIELD-webhook_url"],
  covers: [{ operationId: "createCharge", status: "201" }],
  async run(ctx, check) {
    requireLocalServer(ctx);
    const address = await firstAddress("localhost");
    if (address === undefined) throw new NotApplicable("localhost does not resolve on this machine");
    const receiver = await receiverAt(ctx, { name: "localhost", address });
    try {
      if ((await payChargeTowards(ctx, check, this.id, receiver)) === undefined) return;
      await receiver.wait(WAIT_MS);
      check.that(receiver.received.length > 0, `no webhook reached ${receiver.url} (localhost resolves to ${address}) within ${WAIT_MS / 1000} s of the payment`);
    } finally {
      await receiver.close();
    }
  },
};

export const nameResolvingNonPublicNotCalled: Scenario = {
  id: "family-a/webhook-targets/name-resolving-non-public-not-called",
  family: "family-a",
  profile: "full",
  decision: "D48",
  title: "a webhook_url whose host name resolves to a non-public address is taken, and its events are not sent",
  statements: ["A-EVENTS-EVENT-payment-webhook", "A-CHARGE-FIELD-request.webhook_url"],
  covers: [{ operationId: "createCharge", status: "201" }],
  async run(ctx, check) {
    if (ctx.familyA?.privateWebhookTargets === "allowed") {
      throw new NotApplicable("the target declares that the server calls private webhook targets (familyA.privateWebhookTargets: allowed)");
    }
    requireLocalServer(ctx);
    const name = hostname();
    const bare = name.toLowerCase().replace(/\.+$/, "");
    if (bare === "localhost" || bare.endsWith(".localhost") || isIP(name)) throw new NotApplicable(`this machine's name ${name} is refused as it is written (D48), not when it is resolved`);
    const address = await firstAddress(name);
    if (address === undefined || !isNonPublicHere(address)) {
      throw new NotApplicable(`this machine's name ${name} resolves to ${address ?? "nothing"}, no non-public address a receiver here could listen on`);
    }
    const receiver = await receiverAt(ctx, { name, address });
    try {
      // Taken when the charge is created (D48 judges a name when an event is sent); a server that refuses it then cannot show the rule.
      if ((await payChargeTowards(ctx, check, this.id, receiver)) === undefined) return;
      await receiver.wait(WAIT_MS);
      check.that(
        receiver.received.length === 0,
        `D48: the payment's webhook reached ${receiver.url}, whose host ${name} resolves to the non-public address ${address}: a name resolving to such an address is refused when an event is to be sent`,
      );
    } finally {
      await receiver.close();
    }
  },
};
