/**
 * Which request members name a URL the service will call: webhook targets (decision D48).
 *
 * The contract marks such a member's schema `x-webhook-target: true` (family A's charge
 * `webhook_url`). A server must refuse a target it must not call (a non-public address,
 * `localhost`, credentials, another scheme) with the operation's 400, unless its operator
 * lets it call private targets; the conformance suites send such URLs to every marked member.
 */
import { isObject, type Json } from "./json.ts";
import type { ContractOperation } from "./operations.ts";
import { deref } from "./refs.ts";

export const WEBHOOK_TARGET_EXTENSION = "x-webhook-target";

/** A request body member the service will call. */
export interface WebhookTargetMember {
  operationId: string;
  /** The member's name in the request body (top level). */
  member: string;
}

/** The body schema's properties, through `allOf` (a `$ref` with siblings in 3.1). */
function propertiesOf(document: Json, schema: unknown): Array<[string, unknown]> {
  const node = deref<unknown>(document, schema);
  if (!isObject(node)) return [];
  const own = isObject(node.properties) ? Object.entries(node.properties) : [];
  const inherited = Array.isArray(node.allOf) ? node.allOf.flatMap((part) => propertiesOf(document, part)) : [];
  return [...own, ...inherited];
}

/** Every request body member of the operations marked as a webhook target. */
export function webhookTargetMembers(document: Json, operations: readonly ContractOperation[]): WebhookTargetMember[] {
  return operations.flatMap((operation) =>
    propertiesOf(document, operation.requestBody?.schema)
      .filter(([, schema]) => isObject(deref(document, schema)) && (deref(document, schema) as Json)[WEBHOOK_TARGET_EXTENSION] === true)
      .map(([member]) => ({ operationId: operation.operationId, member })),
  );
}
