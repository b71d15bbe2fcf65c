/**
 * What a receiver checks on one webhook delivery, read from the contract: the event's entry in
 * the family document's `webhooks` map (OpenAPI 3.1, dereferenced) gives the payload schema and
 * the signature headers. A delivery passes when the Standard Webhooks reference library accepts
 * it, when one of its `v1` signatures is the HMAC-SHA256 the Standard Webhooks specification
 * defines (computed here with node:crypto, so that a scheme mistake shared by the sandbox and
 * the library it signs with would still show), and its payload and headers validate. (The
 * client's `verifyWebhook` is tested against the same library in the client package.)
 */
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { expect } from "vitest";
import { ROOT } from "@payment-collection/contract/build/contract-build.ts";
import { compileOpenApiSchema, describeSchemaErrors } from "@payment-collection/contract/model/json-schema.ts";
import { openapiPath, type FamilyId } from "@payment-collection/contract/model/layout.ts";
import type { ReceivedDelivery } from "./webhook-receiver.ts";

/** The events of each family, as the contract publishes them. */
const EVENT_FAMILY = { "charge.paid": "family-a", "boleto.paid": "family-b", "boleto.canceled": "family-b" } as const satisfies Record<string, FamilyId>;
export type EventType = keyof typeof EVENT_FAMILY;

interface EventContract {
  validatePayload: ReturnType<typeof compileOpenApiSchema>;
  headers: Array<{ name: string; validate: ReturnType<typeof compileOpenApiSchema> }>;
}

const contracts = new Map<EventType, EventContract>();

function eventContract(type: EventType): EventContract {
  let found = contracts.get(type);
  if (!found) {
    const document = JSON.parse(readFileSync(join(ROOT, "generated", openapiPath("3.1", EVENT_FAMILY[type], "dereferenced.json")), "utf8"));
    const operation = document.webhooks[type].post;
    found = {
      validatePayload: compileOpenApiSchema(operation.requestBody.content["application/json"].schema, "3.1"),
      headers: (operation.parameters as Array<{ name: string; in: string; schema: unknown }>)
        .filter((parameter) => parameter.in === "header")
        .map((parameter) => ({ name: parameter.name, validate: compileOpenApiSchema(parameter.schema, "3.1") })),
    };
    contracts.set(type, found);
  }
  return found;
}

/** A verified webhook event. */
export interface WebhookEvent {
  id: string;
  type: EventType;
  created_at: string;
  data: Record<string, unknown>;
}

/** Verifies a delivery twice (reference library, the specification's HMAC), validates it, returns the event. */
export async function checkDelivery(delivery: ReceivedDelivery, secret: string, type: EventType): Promise<WebhookEvent> {
  const headers = delivery.headers as Record<string, string>;
  const event = new Webhook(secret).verify(delivery.body, headers) as WebhookEvent;
  expect(signatureEntries(delivery)).toContain(`v1,${specSignature(delivery, secret)}`);
  expect(event.type).toBe(type);
  const contract = eventContract(type);
  expect(contract.validatePayload(event), describeSchemaErrors(contract.validatePayload).join("\n")).toBe(true);
  for (const header of contract.headers) {
    expect(headers[header.name], header.name).toBeDefined();
    expect(header.validate(headers[header.name]), `${header.name}: ${describeSchemaErrors(header.validate).join("; ")}`).toBe(true);
  }
  expect(delivery.headers["content-type"]).toBe("application/json");
  return event;
}

/**
 * The signature by the specification: base64 of HMAC-SHA256, keyed with the base64-decoded
 * part of the secret after `whsec_`, over `<webhook-id>.<webhook-timestamp>.<body>`.
 */
export function specSignature(delivery: ReceivedDelivery, secret: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const content = `${delivery.headers["webhook-id"]}.${delivery.headers["webhook-timestamp"]}.${delivery.body}`;
  return createHmac("sha256", key).update(content, "utf8").digest("base64");
}

/** The `v1` entries of a delivery's webhook-signature header. */
export function signatureEntries(delivery: ReceivedDelivery): string[] {
  return String(delivery.headers["webhook-signature"] ?? "").split(" ");
}

/** Whether the reference library accepts the delivery under `secret`. */
export function verifiesWith(delivery: ReceivedDelivery, secret: string): boolean {
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}
