/**
 * The sandbox's controls (spec/sandbox-controls) that some scenarios need: what the published
 * interface cannot do, offered by the project's sandbox only. Against any other server a
 * control answers 404 (or 405), and the rule it would show is not applicable.
 *
 * - the clock (`POST /_sandbox/clock/advance`) moves one account's time, so that rules that
 *   take hours or days (D08's key retention, a charge's expiry) show in a run. The scenarios move
 *   the clock of the rate-limit key's account only, which only the 429 checks use afterwards
 *   (their windows run on real time), so no other check sees an account ahead of the real time;
 * - the payment of a charge (`POST /_sandbox/charges/{id}/pay`), of a PIX charge
 *   (`POST /_sandbox/pix/{pixId}/pay`) or of a boleto (`POST /_sandbox/boletos/{boletoId}/pay`)
 *   stands for a payer;
 * - a boleto made in a given state (`POST /_sandbox/boletos`): the published interface makes none;
 * - the account's webhook endpoint (`GET`/`PUT /_sandbox/webhooks/endpoint`), where family B's
 *   events go (D24: the webhook resources the document mentions publish no operation), and the
 *   account's signing secrets (`GET /_sandbox/webhooks/secret`, D25) and their rotation
 *   (`POST /_sandbox/webhooks/secret/rotate`).
 */
import { NotApplicable, type FamilyContext, type KeyName } from "../core/check-context.ts";
import type { ObservedResponse } from "../core/validate.ts";
import { at, describe, require2xx } from "./support.ts";

/**
 * POSTs a control (its path template filled with `params`) on a key's account; not applicable
 * when the server has no such control (`rule`: what cannot be shown without it). `body`
 * undefined sends none (a GET).
 */
async function control(
  ctx: FamilyContext,
  scenarioId: string,
  key: KeyName,
  template: string,
  params: Record<string, string>,
  body: unknown,
  rule: string,
  method: "GET" | "POST" | "PUT" = "POST",
): Promise<ObservedResponse> {
  const value = ctx.keyValue(key)!;
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
  const answer = await ctx.pacer.send({
    method,
    url: `${ctx.target.baseUrl}${path}`,
    headers: { [ctx.contract.apiKeyHeader]: value, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    bucket: ctx.bucketOfKey(value),
    checkId: scenarioId,
  });
  if (answer.status === 404 || answer.status === 405) throw new NotApplicable(`the server has no control ${method} ${template} (a control of the project's sandbox): ${rule}`);
  require2xx(answer, `use the control ${method} ${path} (${describe(answer)})`);
  return answer;
}

/** The key whose account's clock is moved; not applicable when the target names none. */
export function clockKey(ctx: FamilyContext): "rateLimits" {
  if (ctx.key("rateLimits") === undefined) throw new NotApplicable("the target names no rateLimits key: the clock is moved on that account only");
  return "rateLimits";
}

/**
 * Moves the rate-limit account's clock forward by whole `seconds`; returns the account's time
 * after the move (the control's `now`, in milliseconds), NaN when the answer does not give it.
 */
export async function advanceClock(ctx: FamilyContext, scenarioId: string, seconds: number, rule: string): Promise<number> {
  const moved = await control(ctx, scenarioId, clockKey(ctx), "/_sandbox/clock/advance", {}, { seconds }, rule);
  const now = at(moved, "now");
  return typeof now === "string" ? Date.parse(now) : Number.NaN;
}

/** Pays a family A charge of the key's account, as its payer would. */
export async function payCharge(ctx: FamilyContext, scenarioId: string, key: KeyName, id: string, rule: string): Promise<void> {
  await control(ctx, scenarioId, key, "/_sandbox/charges/{id}/pay", { id }, {}, rule);
}

/** Pays a family B PIX charge of the key's account, as its payer would. */
export async function payPixCharge(ctx: FamilyContext, scenarioId: string, key: KeyName, pixId: string, rule: string): Promise<void> {
  await control(ctx, scenarioId, key, "/_sandbox/pix/{pixId}/pay", { pixId }, {}, rule);
}

/** Makes a boleto of the key's account (the primary's by default) in `status` (family B); returns its id (`data.transactionId`). */
export async function createBoleto(ctx: FamilyContext, scenarioId: string, status: string, rule: string, key: KeyName = "primary"): Promise<string> {
  const made = await control(ctx, scenarioId, key, "/_sandbox/boletos", {}, { status }, rule);
  const id = at(made, "data.transactionId");
  if (typeof id !== "string") throw new NotApplicable(`the control POST /_sandbox/boletos gave no data.transactionId (${describe(made)})`);
  return id;
}

/** Pays a family B boleto of the key's account (the primary's by default), as its payer would. */
export async function payBoleto(ctx: FamilyContext, scenarioId: string, boletoId: string, rule: string, key: KeyName = "primary"): Promise<void> {
  await control(ctx, scenarioId, key, "/_sandbox/boletos/{boletoId}/pay", { boletoId }, {}, rule);
}

/** The webhook endpoint (family B events) of the key's account (the primary's by default), or null. */
export async function webhookEndpoint(ctx: FamilyContext, scenarioId: string, rule: string, key: KeyName = "primary"): Promise<string | null> {
  const read = await control(ctx, scenarioId, key, "/_sandbox/webhooks/endpoint", {}, undefined, rule, "GET");
  const url = at(read, "url");
  return typeof url === "string" ? url : null;
}

/** Sets (or, with null, removes) the webhook endpoint of the key's account (the primary's by default). */
export async function setWebhookEndpoint(ctx: FamilyContext, scenarioId: string, url: string | null, rule: string, key: KeyName = "primary"): Promise<void> {
  await control(ctx, scenarioId, key, "/_sandbox/webhooks/endpoint", {}, { url }, rule, "PUT");
}

/** The secrets signing the events of the key's account (the primary's by default) now (several during a rotation, D25). */
export async function webhookSecrets(ctx: FamilyContext, scenarioId: string, rule: string, key: KeyName = "primary"): Promise<string[]> {
  const read = await control(ctx, scenarioId, key, "/_sandbox/webhooks/secret", {}, undefined, rule, "GET");
  const secrets = at(read, "secrets");
  return Array.isArray(secrets) ? secrets.filter((s): s is string => typeof s === "string") : [];
}

/**
 * Rotates the signing secret of the key's account (D25); returns the new secret and the end of
 * the overlap during which the earlier ones keep signing (the account's time, ms; NaN when the
 * answer does not give it).
 */
export async function rotateWebhookSecret(ctx: FamilyContext, scenarioId: string, rule: string, key: KeyName): Promise<{ current: string; previousUntilMs: number }> {
  const rotated = await control(ctx, scenarioId, key, "/_sandbox/webhooks/secret/rotate", {}, undefined, rule);
  const current = at(rotated, "current");
  if (typeof current !== "string") throw new NotApplicable(`the control POST /_sandbox/webhooks/secret/rotate gave no current secret (${describe(rotated)})`);
  const until = at(rotated, "previousUntil");
  return { current, previousUntilMs: typeof until === "string" ? Date.parse(until) : Number.NaN };
}
