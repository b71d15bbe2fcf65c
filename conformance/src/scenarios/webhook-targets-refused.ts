/**
 * Decision D48 (full profile): a URL the service will call (a request member the contract
 * marks `x-webhook-target`, family A's charge `webhook_url`) is refused with the operation's
 * 400 `VALIDATION_ERROR` when it names a host the service must not call (loopback, private,
 * link-local and cloud metadata, unspecified, IPv4-mapped IPv6, `localhost`), carries
 * credentials or another scheme, or names no host at all (D01, RFC 9110 §4.2.1): a server that POSTs wherever a client says is a server-side
 * request forgery hole. Each kind is sent to every marked member of every operation, after
 * the same request with the contract's own (public) target was accepted, so a server that
 * refuses every target is not taken for one that refuses these; public targets the decision
 * leaves to the client (public addresses, a target of the member's greatest length) must be
 * taken like the contract's own, so a server that refuses more than D48 lets it is seen too.
 *
 * Not applicable when the target declares that the server calls private targets
 * (`familyA.privateWebhookTargets: allowed`: a development server whose receiver runs on the
 * same machine, as the sandbox with `--allow-private-webhooks`).
 */
import { MALFORMED_REQUEST_CODE, webhookTargetMembers, type ContractOperation } from "@payment-collection/contract/model/index.ts";
import { exampleBody } from "../checks/provisioning.ts";
import { NotApplicable, type FamilyContext, type RequestOptions } from "../core/check-context.ts";
import type { Scenario } from "../core/scenario.ts";
import { describe, expectCode, is2xx, sender } from "./support.ts";

/** One kind of webhook target, as a URL a client could send. */
export interface WebhookTarget {
  kind: string;
  url: string;
}

/**
 * The kinds D48 names, each a URL that passes D01's shape where the kind allows (absolute,
 * `http` or `https`, short), so that only the target itself is wrong; and a URL with no target
 * in it, which D01's pattern lets through.
 */
export const FORBIDDEN_WEBHOOK_TARGETS: readonly WebhookTarget[] = [
  { kind: "loopback IPv4", url: "http://127.0.0.1/webhooks" },
  { kind: "loopback IPv4 written as one number", url: "http://2130706433/webhooks" },
  { kind: "loopback IPv6", url: "http://[::1]/webhooks" },
  { kind: "localhost", url: "http://localhost/webhooks" },
  { kind: "localhost with the root's trailing dot", url: "http://localhost./webhooks" },
  { kind: "a name under localhost", url: "http://webhooks.localhost/webhooks" },
  { kind: "private 10/8", url: "http://10.0.0.1/webhooks" },
  { kind: "private 172.16/12", url: "http://172.16.0.1/webhooks" },
  { kind: "private 192.168/16", url: "https://192.168.1.1/webhooks" },
  { kind: "link-local cloud metadata", url: "http://169.254.169.254/latest/meta-data/" },
  { kind: "IPv4-mapped IPv6 of loopback", url: "http://[::ffff:127.0.0.1]/webhooks" },
  { kind: "IPv4-compatible IPv6 of loopback", url: "http://[::127.0.0.1]/webhooks" },
  { kind: "unique-local IPv6", url: "http://[fd00::1]/webhooks" },
  { kind: "unspecified", url: "http://0.0.0.0/webhooks" },
  { kind: "credentials in the URL", url: "https://user:secret@loja.example.com.br/webhooks" },
  { kind: "a user name alone in the URL", url: "https://user@loja.example.com.br/webhooks" },
  { kind: "a password alone in the URL", url: "https://:secret@loja.example.com.br/webhooks" },
  { kind: "another scheme", url: "ftp://loja.example.com.br/webhooks" },
  // Not a target at all: D01's absolute http or https URL has a host (RFC 9110 §4.2.1: a
  // recipient must reject an http URI without one as invalid), though it passes D01's pattern.
  { kind: "an https URL without a host", url: "https://" },
];

/**
 * Targets D48 leaves to the client (D01: any absolute http or https URL within its length), which
 * the service must take like the contract's own: public addresses written as such, and a
 * public target of the member's greatest length (its `maxLength`, when the contract gives one).
 * A server that refuses them refuses more than the decision lets it.
 */
export const ACCEPTED_WEBHOOK_TARGETS: readonly WebhookTarget[] = [
  { kind: "a public IPv4 address", url: "https://1.1.1.1/webhooks" },
  { kind: "a public IPv6 address", url: "https://[2606:4700:4700::1111]/webhooks" },
];

/** A public target exactly `length` characters long (a path padded out), or undefined when none can be that short. */
export function longestTarget(length: number): WebhookTarget | undefined {
  const base = "https://loja.example.com.br/webhooks/";
  return length >= base.length ? { kind: `a public target of ${length} characters, the member's maxLength`, url: base.padEnd(length, "a") } : undefined;
}

/** The operation's request with its contract example, a fresh key for every required idempotency header, and `member` set. */
function requestWith(ctx: FamilyContext, operation: ContractOperation, member: string, url?: string): RequestOptions {
  const body = exampleBody(ctx, operation.operationId);
  if (url !== undefined) body[member] = url;
  const headers = Object.fromEntries(
    operation.parameters.filter((p) => p.in === "header" && p.required && /idempotency-key/i.test(p.name)).map((p) => [p.name, ctx.idempotencyKey()]),
  );
  return { body, headers };
}

export const webhookTargetsRefused: Scenario = {
  id: "family-a/webhook-targets/non-public-refused",
  family: "family-a",
  profile: "full",
  decision: "D48",
  title: "a webhook target on a loopback, private or link-local address, localhost, with credentials, of another scheme or without a host is refused with 400",
  statements: ["A-EVENTS-EVENT-payment-webhook", "A-CHARGE-FIELD-request.webhook_url"],
  covers: [{ operationId: "createCharge", status: "400" }],
  async run(ctx, check) {
    if (ctx.familyA?.privateWebhookTargets === "allowed") {
      throw new NotApplicable("the target declares that the server calls private webhook targets (familyA.privateWebhookTargets: allowed)");
    }
    const members = webhookTargetMembers(ctx.contract.document, ctx.contract.operations);
    if (members.length === 0) throw new NotApplicable("the contract marks no request member as a webhook target (x-webhook-target)");
    const send = sender(ctx, this.id);
    for (const { operationId, member } of members) {
      const operation = ctx.operation(operationId);
      // The contract's own target first: a server that refuses it shows nothing by refusing the others.
      const accepted = await send(operationId, requestWith(ctx, operation, member));
      if (!is2xx(accepted)) throw new NotApplicable(`${operationId} with the contract's example ${member} was answered ${describe(accepted)}`);
      const maxLength = (ctx.operation(operationId).requestBody?.schema as { properties?: Record<string, { maxLength?: unknown }> } | undefined)?.properties?.[member]?.maxLength;
      const longest = typeof maxLength === "number" ? longestTarget(maxLength) : undefined;
      for (const target of [...ACCEPTED_WEBHOOK_TARGETS, ...(longest ? [longest] : [])]) {
        const response = await send(operationId, requestWith(ctx, operation, member, target.url));
        check.that(is2xx(response), `D48: ${operationId} with ${member} ${target.url.length > 80 ? `${target.url.slice(0, 60)}... (${target.url.length} characters)` : target.url} (${target.kind}) was answered ${describe(response)}, expected it taken like the contract's own target: only targets the service must not call are refused`);
      }
      for (const target of FORBIDDEN_WEBHOOK_TARGETS) {
        const response = await send(operationId, requestWith(ctx, operation, member, target.url));
        const label = `${operationId} with ${member} ${target.url} (${target.kind})`;
        check.that(response.status === 400, `D48: ${label} was answered ${describe(response)}, expected 400: the service must not call it`);
        if (response.status === 400) {
          check.response(operationId, "400", response, label);
          expectCode(check, response, MALFORMED_REQUEST_CODE, label);
        }
      }
    }
  },
};
