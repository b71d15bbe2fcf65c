/**
 * "Webhook events are signed with HMAC" (family A): a charge created with a `webhook_url`
 * pointing at a receiver on this machine is paid, and the event POSTed to the receiver carries
 * an HMAC signature header (events-webhook-support.ts says when this can be run).
 *
 * Under seed the header's name and encoding are the server's (decision D25), so any header
 * naming a signature with a MAC-sized value counts. Under full: the Standard Webhooks headers
 * `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256>` (D25), and
 * the body is the contract's `charge.paid` event carrying the paid charge (D24). Whether the
 * signature verifies with the account's secret is events-webhook-verifies.ts.
 */
import type { Scenario } from "../core/scenario.ts";
import { parseJsonBody, schemaProblems } from "../core/validate.ts";
import { eventHeader, eventOperation, eventSchema, payChargeTowards, startReceiver } from "./events-webhook-support.ts";
import { shortened } from "../core/describe-response.ts";

/** How long the receiver waits for the event after the payment. */
const WAIT_MS = 5_000;

/** A MAC of at least 128 bits, hex or base64, possibly after a scheme label (`v1,`, `sha256=`). */
const MAC_VALUE = /(?:^|[,=\s])([A-Fa-f0-9]{32,}|[A-Za-z0-9+/_-]{22,}={0,2})(?:$|[,\s])/;
const STANDARD_SIGNATURE = /^v1,[A-Za-z0-9+/]{43}=$/;

type Json = Record<string, unknown>;

export const webhookSignedWithHmac: Scenario = {
  id: "family-a/events/webhook-signed",
  family: "family-a",
  profile: "seed",
  title: "the payment webhook of a charge arrives signed with an HMAC",
  statements: ["A-EVENTS-EVENT-hmac", "A-EVENTS-EVENT-payment-webhook", "A-EVENTS-EVENT-payment-webhook-summary", "A-CHARGE-FIELD-webhook_url", "A-CHARGE-FIELD-request.webhook_url"],
  covers: [{ operationId: "createCharge", status: "201" }],
  async run(ctx, check) {
    const receiver = await startReceiver(ctx);
    try {
      const id = await payChargeTowards(ctx, check, this.id, receiver);
      if (id === undefined) return;
      await receiver.wait(WAIT_MS);
      const event = receiver.received[0];
      check.that(event !== undefined, `no webhook reached ${receiver.url} within ${WAIT_MS / 1000} s of the payment`);
      if (!event) return;
      check.that(event.method === "POST", `the webhook came as ${event.method}, expected POST`);
      const signatureHeaders = Object.entries(event.headers).filter(([name]) => /signature/i.test(name));
      check.that(signatureHeaders.length > 0, `the webhook carries no signature header (headers: ${Object.keys(event.headers).join(", ")})`);
      check.that(
        signatureHeaders.some(([, value]) => MAC_VALUE.test(String(value))),
        `no signature header holds an HMAC: ${signatureHeaders.map(([n, v]) => `${n}: ${String(v)}`).join("; ")}`,
      );
      // The signature's header names and encoding (D25) and the event's payload (D24) are the project's.
      const signatureHeader = eventHeader(ctx.contract.document, "charge.paid", "webhook-signature");
      if (!signatureHeader) throw new Error("the contract publishes no webhook-signature header of charge.paid");
      if (ctx.asserts({ kind: "parameter", parameter: signatureHeader })) {
        check.that(typeof event.headers["webhook-id"] === "string", "D25: the webhook carries no webhook-id header");
        check.that(/^\d+$/.test(String(event.headers["webhook-timestamp"] ?? "")), "D25: the webhook carries no integer webhook-timestamp header");
        const signatures = String(event.headers["webhook-signature"] ?? "").split(" ");
        check.that(signatures.some((s) => STANDARD_SIGNATURE.test(s)), `D25: webhook-signature is not v1,<base64 HMAC-SHA256>: ${event.headers["webhook-signature"] ?? "(absent)"}`);
      }
      const paidEvent = eventOperation(ctx.contract.document, "charge.paid");
      if (!paidEvent) throw new Error("the contract publishes no charge.paid webhook");
      // The event exists by the document's word; its payload is the project's (D24).
      const payload = (paidEvent.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)?.content?.["application/json"]?.schema;
      if (ctx.asserts({ kind: "operation", node: paidEvent }) && ctx.asserts({ kind: "schema", schema: payload })) {
        const schema = eventSchema(ctx.contract.document, "charge.paid");
        if (!schema) throw new Error("the contract publishes no charge.paid body");
        const parsed = parseJsonBody(event.body);
        check.that(/^application\/json\s*(;|$)/i.test(String(event.headers["content-type"] ?? "")), `D24: events are POSTed as application/json; this one came as ${JSON.stringify(event.headers["content-type"] ?? "(no Content-Type)")}`);
        check.that(parsed.ok, `D24: the webhook body is not JSON: ${shortened(event.body, 120)}`);
        if (!parsed.ok) return;
        for (const problem of schemaProblems(schema, parsed.value, "D24: charge.paid body")) check.that(false, problem);
        const data = (parsed.value as Json | null)?.data as Json | undefined;
        check.that(data?.id === id && data?.status === "paid", `D24: the event's data is not the paid charge ${id} (id ${JSON.stringify(data?.id)}, status ${JSON.stringify(data?.status)})`);
      }
    } finally {
      await receiver.close();
    }
  },
};
