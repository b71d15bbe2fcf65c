/**
 * "Webhook events are signed with HMAC" (family A): a charge created with a `webhook_url`
 * pointing at a receiver on this machine is paid, and the event POSTed to the receiver carries
 * an HMAC signature header.
 *
 * Payment needs either the sandbox control `POST /_sandbox/charges/{id}/pay` (the project's
 * sandbox; start it with `allowPrivateWebhookTargets` so it may call a loopback receiver) or a
 * real payment, which a conformance run cannot make: without the control the scenario is not
 * applicable. Under seed the header's name and encoding are the server's (decision D25), so any
 * header naming a signature with a MAC-sized value counts; under full, the Standard Webhooks
 * headers `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256>`.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { NotApplicable } from "../runner/check-context.ts";
import type { Scenario } from "../runner/scenario.ts";
import { at, chargeRequest, describe, require2xx, sender, type Json } from "./support.ts";

/** How long the receiver waits for the event after the payment. */
const WAIT_MS = 5_000;

interface Received {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A receiver on 127.0.0.1 that keeps what it is sent to its own path and answers 200. The path
 * carries a fresh token, so a late retry meant for an earlier receiver that had the same port
 * is not taken for this scenario's event.
 */
async function startReceiver() {
  const path = `/conformance-webhook/${randomUUID()}`;
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.url === path) {
        received.push({ method: req.method ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    /** Resolves when something arrived or the time is up. */
    wait(ms: number): Promise<void> {
      if (received.length > 0) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, ms);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A MAC of at least 128 bits, hex or base64, possibly after a scheme label (`v1,`, `sha256=`). */
const MAC_VALUE = /(?:^|[,=\s])([A-Fa-f0-9]{32,}|[A-Za-z0-9+/_-]{22,}={0,2})(?:$|[,\s])/;
const STANDARD_SIGNATURE = /^v1,[A-Za-z0-9+/]{43}=$/;

function isLoopback(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "::1" || /^127\./.test(host);
}

export const webhookSignedWithHmac: Scenario = {
  id: "a/events/webhook-signed",
  family: "a",
  profile: "seed",
  title: "the payment webhook of a charge arrives signed with an HMAC",
  statements: ["A-EVENTS-EVENT-hmac", "A-EVENTS-EVENT-payment-webhook", "A-CHARGE-FIELD-request.webhook_url"],
  covers: [{ operationId: "createCharge", status: "201" }],
  async run(ctx, check) {
    if (!isLoopback(ctx.target.baseUrl)) {
      throw new NotApplicable("the server is not on this machine: it cannot reach a receiver on 127.0.0.1");
    }
    const send = sender(ctx, this.id);
    const receiver = await startReceiver();
    try {
      const request = chargeRequest(ctx, ctx.idempotencyKey());
      const created = await send("createCharge", { ...request, body: { ...(request.body as Json), webhook_url: receiver.url } });
      require2xx(created, "create a charge with a webhook_url on 127.0.0.1");
      check.response("createCharge", "201", created);
      const id = at(created, "id");
      if (typeof id !== "string") throw new NotApplicable("the created charge has no id");
      const echoed = at(created, "webhook_url");
      check.that(echoed === undefined || echoed === receiver.url, `the created charge carries webhook_url ${JSON.stringify(echoed)}, not the one sent`);
      if (echoed !== undefined && echoed !== receiver.url) return;
      const pay = await ctx.pacer.send({
        method: "POST",
        url: `${ctx.target.baseUrl}/_sandbox/charges/${encodeURIComponent(id)}/pay`,
        headers: { [ctx.contract.apiKeyHeader]: ctx.keyValue("primary")!, "content-type": "application/json" },
        body: "{}",
        bucket: ctx.bucketOfKey(ctx.keyValue("primary")),
        checkId: this.id,
      });
      if (pay.status === 404 || pay.status === 405) {
        throw new NotApplicable("the server has no payment control (POST /_sandbox/charges/{id}/pay); the webhook needs a real payment");
      }
      require2xx(pay, `pay the charge through the sandbox control (${describe(pay)})`);
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
      if (ctx.profile === "full") {
        check.that(typeof event.headers["webhook-id"] === "string", "D25: the webhook carries no webhook-id header");
        check.that(/^\d+$/.test(String(event.headers["webhook-timestamp"] ?? "")), "D25: the webhook carries no integer webhook-timestamp header");
        const signatures = String(event.headers["webhook-signature"] ?? "").split(" ");
        check.that(signatures.some((s) => STANDARD_SIGNATURE.test(s)), `D25: webhook-signature is not v1,<base64 HMAC-SHA256>: ${event.headers["webhook-signature"] ?? "(absent)"}`);
      }
    } finally {
      await receiver.close();
    }
  },
};
