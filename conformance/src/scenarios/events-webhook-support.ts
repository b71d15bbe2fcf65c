/**
 * What the webhook scenarios share: a receiver on 127.0.0.1 and a charge, aimed at it, paid.
 *
 * Payment needs either the sandbox control `POST /_sandbox/charges/{id}/pay` (the project's
 * sandbox; start it with `--allow-private-webhooks` so it may call a loopback receiver) or a
 * real payment, which a conformance run cannot make: without the control the scenarios are not
 * applicable, and so they are for a server not on this machine (it cannot reach the receiver).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { toJsonSchema } from "@payment-collection/contract/model/json-schema.ts";
import { profileSchema } from "../core/profiles/schema-profile.ts";
import { NotApplicable, type FamilyContext } from "../core/check-context.ts";
import { currentCheck } from "../core/check-scope.ts";
import type { ScenarioAssertions } from "../core/scenario.ts";
import { payCharge } from "./sandbox-controls.ts";
import { at, chargeRequest, describe, is4xx, require2xx, sender, type Json } from "./support.ts";

export interface ReceivedWebhook {
  method: string;
  headers: IncomingHttpHeaders;
  /** The exact body, as text. */
  body: string;
  /** When it arrived (ms since the epoch, this machine's clock). */
  receivedMs: number;
  /** When its connection closed, once it did (an answer held back ends only when the sender gives up). */
  closedMs?: number;
}

/**
 * How the receiver answers one delivery: a status (with `{}`), no answer at all (the request is
 * held until the sender gives up), the connection reset before any answer (a network error), or
 * a status whose body never ends.
 */
export type ReceiverAnswer = number | "no-answer" | "reset" | { status: number; endlessBody: true };

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Resolves once `count` deliveries arrived or `ms` passed, whichever comes first. */
  wait(ms: number, count?: number): Promise<void>;
  close(): Promise<void>;
}

/** What an endless answer writes, and how often: far more than a sender reads in all (D26: a few KiB), slowly enough to cost nothing. */
const ENDLESS_CHUNK = Buffer.alloc(8 * 1024, " ");
const ENDLESS_EVERY_MS = 20;

/** Answers a delivery as `answer` says; returns the status it answered (0: none). */
function answerDelivery(res: ServerResponse, answer: ReceiverAnswer): number {
  if (answer === "no-answer") return 0;
  if (answer === "reset") {
    res.socket?.resetAndDestroy();
    return 0;
  }
  if (typeof answer === "number") {
    res.writeHead(answer, { "content-type": "application/json" }).end("{}");
    return answer;
  }
  res.writeHead(answer.status, { "content-type": "application/json" });
  const writer = setInterval(() => res.write(ENDLESS_CHUNK), ENDLESS_EVERY_MS);
  res.write(ENDLESS_CHUNK);
  res.once("close", () => clearInterval(writer));
  return answer.status;
}

/** Where a receiver listens and how its URL names it: a host name and the address it resolves to here. */
export interface ReceiverHost {
  name: string;
  address: string;
}

/**
 * A receiver that keeps what it is sent to its own path and answers as `script` says, in order,
 * then 200. The path carries a fresh token, so a late retry meant for an earlier receiver that
 * had the same port is not taken for this scenario's event. Each delivery is recorded in the
 * run's exchange log, as the check's. It listens on 127.0.0.1, named so in its URL, unless
 * `host` gives a name and the address it resolves to.
 */
export async function startReceiver(ctx: FamilyContext, script: ReceiverAnswer[] = [], host?: ReceiverHost): Promise<WebhookReceiver> {
  const path = `/conformance-webhook/${ctx.uuid()}`;
  const checkId = currentCheck();
  const answers = [...script];
  const received: ReceivedWebhook[] = [];
  const waiters: Array<() => void> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const ours = req.url === path;
      const delivery: ReceivedWebhook = { method: req.method ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), receivedMs: Date.now() };
      res.once("close", () => (delivery.closedMs = Date.now()));
      if (ours) received.push(delivery);
      const answer = (ours ? answers.shift() : undefined) ?? 200;
      const status = answerDelivery(res, answer);
      if (ours) {
        const responseBody = typeof answer === "number" ? "{}" : typeof answer === "string" ? "" : "(a body that never ends)";
        ctx.pacer.record({
          startedAt: delivery.receivedMs, endedAt: Date.now(), checkId, direction: "received", method: delivery.method, url: `${url}`,
          requestHeaders: plainHeaders(delivery), requestBody: delivery.body, status, responseHeaders: status ? { "content-type": "application/json" } : {}, responseBody,
        });
      }
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host?.address ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${host?.name ?? "127.0.0.1"}:${port}${path}`;
  return {
    url,
    received,
    wait(ms, count = 1) {
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, ms));
        const check = () => {
          if (received.length < count) return waiters.push(check);
          clearTimeout(timer);
          resolve();
        };
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function isLoopback(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "::1" || /^127\./.test(host);
}

/** Not applicable unless the server runs on this machine, where it can reach a receiver on 127.0.0.1. */
export function requireLocalServer(ctx: FamilyContext): void {
  if (!isLoopback(ctx.target.baseUrl)) {
    throw new NotApplicable("the server is not on this machine: it cannot reach a receiver on 127.0.0.1");
  }
}

/**
 * Creates a charge whose `webhook_url` is the receiver and pays it through the sandbox control.
 * Returns the created charge's id; throws NotApplicable when the target cannot show a webhook.
 * Records a problem (and returns undefined) when the created charge names another webhook_url.
 */
export async function payChargeTowards(
  ctx: FamilyContext,
  check: ScenarioAssertions,
  scenarioId: string,
  receiver: WebhookReceiver,
): Promise<string | undefined> {
  requireLocalServer(ctx);
  const send = sender(ctx, scenarioId);
  const request = chargeRequest(ctx, ctx.idempotencyKey());
  const created = await send("createCharge", { ...request, body: { ...(request.body as Json), webhook_url: receiver.url } });
  if (is4xx(created)) {
    // A server that keeps webhooks off private addresses (as it should in production) refuses the receiver.
    throw new NotApplicable(
      `the server refused a webhook_url on 127.0.0.1, where this run's receiver listens (answered ${describe(created)}); let it call private addresses for this run: the project's sandbox with --allow-private-webhooks`,
    );
  }
  require2xx(created, "create a charge with a webhook_url on 127.0.0.1");
  check.response("createCharge", "201", created);
  const id = at(created, "id");
  if (typeof id !== "string") throw new NotApplicable("the created charge has no id");
  const echoed = at(created, "webhook_url");
  check.that(echoed === undefined || echoed === receiver.url, `the created charge carries webhook_url ${JSON.stringify(echoed)}, not the one sent`);
  if (echoed !== undefined && echoed !== receiver.url) return undefined;
  await payCharge(ctx, scenarioId, "primary", id, "the webhook needs a real payment");
  return id;
}

/** The Operation Object the contract publishes for an event (`x-webhooks.<type>.post`). */
export function eventOperation(document: Json, type: string): Json | undefined {
  const webhooks = document["x-webhooks"] as Record<string, { post?: Json }> | undefined;
  return webhooks?.[type]?.post;
}

/** A header parameter of an event as the contract publishes it. */
export function eventHeader(document: Json, type: string, name: string): Json | undefined {
  const parameters = eventOperation(document, type)?.parameters;
  return Array.isArray(parameters) ? (parameters as Json[]).find((p) => p.in === "header" && p.name === name) : undefined;
}

/**
 * The JSON Schema of an event's body under the full profile, from the family's dereferenced
 * 3.0 document (where the build publishes the events under `x-webhooks`).
 */
export function eventSchema(document: Json, type: string): Json | undefined {
  const body = eventOperation(document, type)?.requestBody as { content?: Record<string, { schema?: Json }> } | undefined;
  const schema = body?.content?.["application/json"]?.schema;
  return schema ? toJsonSchema(profileSchema(schema, "full"), "3.0") : undefined;
}

/** The delivery's headers as the Standard Webhooks library takes them (single values). */
export function plainHeaders(delivery: ReceivedWebhook): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(delivery.headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  return out;
}
