/**
 * `verifyWebhook` (decisions D24, D25) against the Standard Webhooks reference library
 * (`standardwebhooks`): what the library signs, the helper accepts, and the helper's
 * signature is the library's; every failed check throws its own error class.
 */
import { Webhook } from "standardwebhooks";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  signWebhook,
  verifyWebhook,
  WebhookHeadersError,
  WebhookPayloadError,
  WebhookSignatureError,
  WebhookTimestampError,
  WebhookVerificationError,
  type WebhookEvent,
} from "../../src/client/index.ts";
import { loadDocument } from "./support/contract-examples.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const OTHER_SECRET = "whsec_00De5bDAp3kzEKZ9sfzBBV2iJuRFOgKi";

/** A charge.paid body built from the contract's own charge example. */
function chargePaidBody(): string {
  const charge = loadDocument("family-a").paths["/v1/charges/{id}"].get.responses["200"].content["application/json"].example;
  return JSON.stringify({ type: "charge.paid", timestamp: "2026-11-21T12:00:00.000Z", data: { ...charge, status: "paid" } });
}

/** Headers of a delivery signed by the reference library. */
function signedByLibrary(body: string, secret = SECRET, at = new Date(), id = "msg_01JDQ7Z8M4R2V6X9K3T5N0B1C7") {
  return { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": new Webhook(secret).sign(id, at, body) };
}

describe("verifyWebhook", () => {
  it("accepts what the reference library signs and returns the typed event", async () => {
    const body = chargePaidBody();
    const event = await verifyWebhook(body, signedByLibrary(body), SECRET);
    expect(event).toEqual(JSON.parse(body));
    expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
    if (event.type === "charge.paid") expectTypeOf(event.data.amount).toEqualTypeOf<number>();
  });

  it("signs exactly as the reference library does", async () => {
    const body = chargePaidBody();
    const at = new Date();
    const headers = signedByLibrary(body, SECRET, at);
    const ours = await signWebhook(SECRET, headers["webhook-id"], Math.floor(at.getTime() / 1000), body);
    expect(`v1,${ours}`).toBe(headers["webhook-signature"]);
    expect(() => new Webhook(SECRET).verify(body, { ...headers, "webhook-signature": `v1,${ours}` })).not.toThrow();
  });

  it("takes a fetch Headers object, Node's header object and the body as bytes", async () => {
    const body = chargePaidBody();
    const headers = signedByLibrary(body);
    await expect(verifyWebhook(new TextEncoder().encode(body), new Headers(headers), SECRET)).resolves.toMatchObject({ type: "charge.paid" });
    const nodeStyle = { "Webhook-Id": headers["webhook-id"], "webhook-timestamp": [headers["webhook-timestamp"]], "webhook-signature": headers["webhook-signature"] };
    await expect(verifyWebhook(body, nodeStyle, SECRET)).resolves.toMatchObject({ type: "charge.paid" });
  });

  it("accepts a delivery signed with two secrets during a rotation when either is the receiver's", async () => {
    const body = chargePaidBody();
    const at = new Date();
    const headers = signedByLibrary(body, SECRET, at);
    const both = { ...headers, "webhook-signature": `${new Webhook(OTHER_SECRET).sign(headers["webhook-id"], at, body)} ${headers["webhook-signature"]}` };
    await expect(verifyWebhook(body, both, SECRET)).resolves.toBeDefined();
    await expect(verifyWebhook(body, both, OTHER_SECRET)).resolves.toBeDefined();
  });

  it("refuses another secret, an altered body, id or timestamp with WebhookSignatureError", async () => {
    const body = chargePaidBody();
    const headers = signedByLibrary(body);
    const refusals = [
      verifyWebhook(body, headers, OTHER_SECRET),
      verifyWebhook(body.replace('"paid"', '"pending"'), headers, SECRET),
      verifyWebhook(body, { ...headers, "webhook-id": "msg_other" }, SECRET),
      verifyWebhook(body, { ...headers, "webhook-timestamp": String(Number(headers["webhook-timestamp"]) - 1) }, SECRET),
      verifyWebhook(body, { ...headers, "webhook-signature": headers["webhook-signature"].replace("v1,", "v2,") }, SECRET),
    ];
    for (const refusal of refusals) {
      const error = await refusal.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookSignatureError);
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect((error as WebhookVerificationError).kind).toBe("bad-signature");
    }
  });

  it("refuses a timestamp outside the tolerance, in the past or the future, with WebhookTimestampError", async () => {
    const body = chargePaidBody();
    const headers = signedByLibrary(body);
    const sent = Number(headers["webhook-timestamp"]) * 1000;
    await expect(verifyWebhook(body, headers, SECRET, { now: () => sent + 301_000 })).rejects.toBeInstanceOf(WebhookTimestampError);
    await expect(verifyWebhook(body, headers, SECRET, { now: () => sent - 301_000 })).rejects.toBeInstanceOf(WebhookTimestampError);
    await expect(verifyWebhook(body, headers, SECRET, { now: () => sent + 299_000 })).resolves.toBeDefined();
    await expect(verifyWebhook(body, headers, SECRET, { now: () => sent + 30_000, toleranceSeconds: 10 })).rejects.toMatchObject({
      kind: "timestamp-out-of-tolerance",
      toleranceSeconds: 10,
    });
  });

  it("refuses missing or malformed headers with WebhookHeadersError", async () => {
    const body = chargePaidBody();
    const { "webhook-signature": _signature, ...unsigned } = signedByLibrary(body);
    await expect(verifyWebhook(body, unsigned, SECRET)).rejects.toBeInstanceOf(WebhookHeadersError);
    await expect(verifyWebhook(body, { ...signedByLibrary(body), "webhook-timestamp": "soon" }, SECRET)).rejects.toBeInstanceOf(WebhookHeadersError);
  });

  it("refuses a correctly signed body that is not an event with WebhookPayloadError", async () => {
    for (const body of ["not json", JSON.stringify({ hello: "world" })]) {
      await expect(verifyWebhook(body, signedByLibrary(body), SECRET)).rejects.toBeInstanceOf(WebhookPayloadError);
    }
  });
});
