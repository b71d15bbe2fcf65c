/**
 * A paid charge stays paid once its expiry has passed: expiry is for charges still open. A charge
 * created with the shortest lifetime the contract allows and paid (through the sandbox's payment
 * control) is read once its expiry has passed, the rate-limit account's clock moved beyond it
 * (sandbox-controls.ts). Family A's charges (D04: "no transition leaves `paid` or `expired`")
 * and family B's PIX charges (D11: `CONCLUIDA` is final) use it. Not applicable without the
 * payment or the clock control, or without the `rateLimits` key.
 */
import { NotApplicable, type FamilyContext, type KeyName } from "../core/check-context.ts";
import type { ScenarioAssertions } from "../core/scenario.ts";
import { bodyWithLifetime, lifetimeKeyword } from "../checks/lifetime.ts";
import { advanceClock, clockKey } from "./sandbox-controls.ts";
import { at, describe, is2xx, require2xx, sender } from "./support.ts";

export interface PaidRule {
  scenarioId: string;
  /** The decision the reasons name. */
  decision: string;
  create: { operationId: string; lifetime: string; headers(ctx: FamilyContext): Record<string, string>; without?: string[] };
  pay(ctx: FamilyContext, key: KeyName, id: string): Promise<void>;
  read: { operationId: string; parameter: string };
  /** Dotted paths in the creation's and the read's bodies. */
  paths: { id: string; createdAt: string; expiresAt: string; status: string };
  paid: string;
}

const time = (value: unknown) => (typeof value === "string" ? Date.parse(value) : Number.NaN);

export async function paidStaysPaid(ctx: FamilyContext, check: ScenarioAssertions, rule: PaidRule): Promise<void> {
  const account = clockKey(ctx);
  const send = sender(ctx, rule.scenarioId);
  const { operationId, lifetime: member } = rule.create;
  const lifetime = lifetimeKeyword(ctx, operationId, member, "minimum");
  const body = bodyWithLifetime(ctx, operationId, member, lifetime);
  // No webhook address: the payment would send an event to the example's.
  for (const name of rule.create.without ?? []) delete body[name];
  const created = await send(operationId, { key: account, body, headers: rule.create.headers(ctx) });
  require2xx(created, `create a charge with ${member} ${lifetime}`);
  const id = at(created, rule.paths.id);
  const createdAt = time(at(created, rule.paths.createdAt));
  const expiresAt = time(at(created, rule.paths.expiresAt));
  if (!check.response(operationId, "201", created) || typeof id !== "string" || Number.isNaN(createdAt) || Number.isNaN(expiresAt)) return;
  await rule.pay(ctx, account, id);
  const now = await advanceClock(ctx, rule.scenarioId, Math.max(1, Math.ceil((expiresAt - createdAt) / 1000) + 1), "a charge's lifetime cannot pass in a run");
  const expiry = rule.paths.expiresAt.split(".").pop();
  if (!(now >= expiresAt)) throw new NotApplicable(`the clock control's answer (now ${String(now)}) does not place the account past the charge's ${expiry}`);
  const read = await send(rule.read.operationId, { key: account, params: { [rule.read.parameter]: id } });
  const status = at(read, rule.paths.status);
  check.that(is2xx(read) && status === rule.paid, `${rule.decision}: a paid charge read once its ${expiry} ${new Date(expiresAt).toISOString()} had passed answered ${is2xx(read) ? `status ${JSON.stringify(status)}` : describe(read)}, expected ${rule.paid}`);
  if (is2xx(read)) check.response(rule.read.operationId, "200", read);
}
