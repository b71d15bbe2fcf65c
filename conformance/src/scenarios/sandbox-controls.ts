/**
 * The sandbox's controls (spec/sandbox-controls) that some scenarios need: what the published
 * interface cannot do, offered by the project's sandbox only. Against any other server a
 * control answers 404 (or 405), and the rule it would show is not applicable.
 *
 * - the clock (`POST /_sandbox/clock/advance`) moves one account's time, so that rules that
 *   take hours or days (D08's key retention, a charge's expiry) show in a run. The scenarios move
 *   the clock of the rate-limit key's account only, which only the 429 checks use afterwards
 *   (their windows run on real time), so no other check sees an account ahead of the real time;
 * - the payment of a charge (`POST /_sandbox/charges/{id}/pay`) or of a PIX charge
 *   (`POST /_sandbox/pix/{pixId}/pay`) stands for a payer.
 */
import { NotApplicable, type FamilyContext, type KeyName } from "../core/check-context.ts";
import type { ObservedResponse } from "../core/validate.ts";
import { at, describe, require2xx } from "./support.ts";

/**
 * POSTs a control (its path template filled with `params`) on a key's account; not applicable
 * when the server has no such control (`rule`: what cannot be shown without it).
 */
async function control(ctx: FamilyContext, scenarioId: string, key: KeyName, template: string, params: Record<string, string>, body: unknown, rule: string): Promise<ObservedResponse> {
  const value = ctx.keyValue(key)!;
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
  const answer = await ctx.pacer.send({
    method: "POST",
    url: `${ctx.target.baseUrl}${path}`,
    headers: { [ctx.contract.apiKeyHeader]: value, "content-type": "application/json" },
    body: JSON.stringify(body),
    bucket: ctx.bucketOfKey(value),
    checkId: scenarioId,
  });
  if (answer.status === 404 || answer.status === 405) throw new NotApplicable(`the server has no control POST ${template} (a control of the project's sandbox): ${rule}`);
  require2xx(answer, `use the control POST ${path} (${describe(answer)})`);
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
