/**
 * "Webhook events are signed with HMAC" (both families), over every event type the family's
 * contract publishes (`x-webhooks`): each is caused (events-webhook-causes.ts: `charge.paid` by
 * a charge paid towards a receiver on this machine; `boleto.paid` and `boleto.canceled` by a
 * boleto paid or cancelled, the account's endpoint aimed at the receiver), and the event POSTed
 * to the receiver carries an HMAC signature header (events-webhook-support.ts says when this
 * can be run).
 *
 * Under seed only the events the document names are caused (`charge.paid`; family B's are
 * D24's), and the header's name and encoding are the server's (decision D25), so any header
 * naming a signature with a MAC-sized value counts. Under full: the Standard Webhooks headers
 * `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256>` (D25), and
 * the body is the contract's event of that type, JSON, carrying the resource in the state the
 * event reports (D24). Whether the signature verifies with the account's secret is
 * events-webhook-verifies.ts.
 */
import type { FamilyId } from "@payment-collection/contract/model/layout.ts";
import type { FamilyContext } from "../core/check-context.ts";
import type { ResponsePair } from "../core/results.ts";
import type { Scenario, ScenarioAssertions } from "../core/scenario.ts";
import { parseJsonBody, schemaProblems } from "../core/validate.ts";
import { shortened } from "../core/describe-response.ts";
import { eventHeader, eventOperation, eventSchema, type ReceivedWebhook } from "./events-webhook-support.ts";
import { receiveEachEvent, type CausedEvent } from "./events-webhook-causes.ts";
import type { Json } from "./support.ts";

/** How long the receiver waits for each event after its cause. */
const WAIT_MS = 5_000;

/** A MAC of at least 128 bits, hex or base64, possibly after a scheme label (`v1,`, `sha256=`). */
const MAC_VALUE = /(?:^|[,=\s])([A-Fa-f0-9]{32,}|[A-Za-z0-9+/_-]{22,}={0,2})(?:$|[,\s])/;
const STANDARD_SIGNATURE = /^v1,[A-Za-z0-9+/]{43}=$/;

/** One received event of `type`, judged as the profile holds it. */
function judgeSigned(ctx: FamilyContext, check: ScenarioAssertions, type: string, event: ReceivedWebhook, caused: CausedEvent): void {
  check.that(event.method === "POST", `${type}: the webhook came as ${event.method}, expected POST`);
  const signatureHeaders = Object.entries(event.headers).filter(([name]) => /signature/i.test(name));
  check.that(signatureHeaders.length > 0, `${type}: the webhook carries no signature header (headers: ${Object.keys(event.headers).join(", ")})`);
  check.that(
    signatureHeaders.some(([, value]) => MAC_VALUE.test(String(value))),
    `${type}: no signature header holds an HMAC: ${signatureHeaders.map(([n, v]) => `${n}: ${String(v)}`).join("; ")}`,
  );
  // The signature's header names and encoding (D25) and the event's payload (D24) are the project's.
  const signatureHeader = eventHeader(ctx.contract.document, type, "webhook-signature");
  if (!signatureHeader) throw new Error(`the contract publishes no webhook-signature header of ${type}`);
  if (ctx.asserts({ kind: "parameter", parameter: signatureHeader })) {
    check.that(typeof event.headers["webhook-id"] === "string", `D25: the ${type} webhook carries no webhook-id header`);
    check.that(/^\d+$/.test(String(event.headers["webhook-timestamp"] ?? "")), `D25: the ${type} webhook carries no integer webhook-timestamp header`);
    const signatures = String(event.headers["webhook-signature"] ?? "").split(" ");
    check.that(signatures.some((s) => STANDARD_SIGNATURE.test(s)), `D25: the ${type} webhook-signature is not v1,<base64 HMAC-SHA256>: ${event.headers["webhook-signature"] ?? "(absent)"}`);
  }
  const operation = eventOperation(ctx.contract.document, type);
  const payload = (operation?.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)?.content?.["application/json"]?.schema;
  if (!ctx.asserts({ kind: "operation", node: operation }) || !ctx.asserts({ kind: "schema", schema: payload })) return;
  const schema = eventSchema(ctx.contract.document, type);
  if (!schema) throw new Error(`the contract publishes no ${type} body`);
  const parsed = parseJsonBody(event.body);
  check.that(/^application\/json\s*(;|$)/i.test(String(event.headers["content-type"] ?? "")), `D24: events are POSTed as application/json; this ${type} came as ${JSON.stringify(event.headers["content-type"] ?? "(no Content-Type)")}`);
  check.that(parsed.ok, `D24: the ${type} body is not JSON: ${shortened(event.body, 120)}`);
  if (!parsed.ok) return;
  for (const problem of schemaProblems(schema, parsed.value, `D24: ${type} body`)) check.that(false, problem);
  const data = (parsed.value as Json | null)?.data as Json | undefined;
  check.that(
    data?.[caused.idMember] === caused.id && data?.status === caused.status,
    `D24: the ${type} event's data is not the resource ${caused.id} in status ${caused.status} (${caused.idMember} ${JSON.stringify(data?.[caused.idMember])}, status ${JSON.stringify(data?.status)})`,
  );
}

/** The rule over the family's events. */
function webhookSigned(family: FamilyId, title: string, statements: string[], covers: ResponsePair[]): Scenario {
  return {
    id: `${family}/events/webhook-signed`,
    family,
    profile: "seed",
    title,
    statements,
    covers,
    async run(ctx, check) {
      await receiveEachEvent(ctx, check, this.id, WAIT_MS, (type, event, caused) => judgeSigned(ctx, check, type, event, caused));
    },
  };
}

export const webhookSignedWithHmac = webhookSigned(
  "family-a",
  "every event family A publishes (the payment webhook of a charge) arrives signed with an HMAC",
  ["A-EVENTS-EVENT-hmac", "A-EVENTS-EVENT-payment-webhook", "A-EVENTS-EVENT-payment-webhook-summary", "A-CHARGE-FIELD-webhook_url", "A-CHARGE-FIELD-request.webhook_url"],
  [{ operationId: "createCharge", status: "201" }],
);

export const boletoWebhooksSigned = webhookSigned(
  "family-b",
  "every event family B publishes (a boleto paid, a boleto cancelled) arrives signed with an HMAC, as published",
  ["A-EVENTS-EVENT-hmac"],
  [{ operationId: "cancelBoleto", status: "200" }],
);
