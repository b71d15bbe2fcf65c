/**
 * A charge that expires, observed: created with the contract's shortest lifetime, it is read in
 * the last second before its expiry, then right after it, the rate-limit account's clock moved
 * there (sandbox-controls.ts). Expiry is judged against the charge's own expiry time; that this
 * time is the creation plus the lifetime is the response checks' (checks/lifetime.ts). Family
 * A's charges use it (D02, D04), and family B's PIX charges (D11, D14).
 *
 * The clock moves by whole seconds while the real time runs on, so a read is judged only when
 * the clock's answers place it on its side of the expiry: the first read comes after the first
 * move, whose answer is at least the last second before the expiry, and before the second move,
 * whose answer less the second it added is the latest time the read can have happened at. When
 * a slow moment lets more than that second pass, the attempt is made again with a new charge.
 */
import { NotApplicable, type FamilyContext, type RequestOptions } from "../core/check-context.ts";
import type { ScenarioAssertions } from "../core/scenario.ts";
import type { ObservedResponse } from "../core/validate.ts";
import { bodyWithLifetime, lifetimeKeyword } from "../checks/lifetime.ts";
import { advanceClock, clockKey } from "./sandbox-controls.ts";
import { at, describe, is2xx, require2xx, sender } from "./support.ts";

export interface ExpiryRule {
  scenarioId: string;
  /** The decisions the reasons name (`D02, D04`). */
  decision: string;
  create: { operationId: string; lifetime: string; headers(ctx: FamilyContext): Record<string, string> };
  read: { operationId: string; parameter: string };
  /** Dotted paths in the creation's and the read's bodies. */
  paths: { id: string; createdAt: string; expiresAt: string; status: string };
  /** The status before the expiry and after it. */
  open: string;
  closed: string;
}

/** Attempts before the scenario gives up on a server too slow to be read within the last second. */
const ATTEMPTS = 3;
const RULE = "a charge's lifetime cannot pass in a run";

const time = (value: unknown) => (typeof value === "string" ? Date.parse(value) : Number.NaN);
const iso = (ms: number) => new Date(ms).toISOString();

/** Creates a charge with the shortest lifetime on the clock's account, reads it either side of its expiry and judges both reads. */
export async function expiresAtItsExpiry(ctx: FamilyContext, check: ScenarioAssertions, rule: ExpiryRule): Promise<void> {
  const account = clockKey(ctx);
  const send = sender(ctx, rule.scenarioId);
  const { operationId, lifetime: member } = rule.create;
  const lifetime = lifetimeKeyword(ctx, operationId, member, "minimum");
  const read = (id: string): Promise<ObservedResponse> => send(rule.read.operationId, { key: account, params: { [rule.read.parameter]: id } });
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const request: RequestOptions = { key: account, body: bodyWithLifetime(ctx, operationId, member, lifetime), headers: rule.create.headers(ctx) };
    const created = await send(operationId, request);
    require2xx(created, `create a charge with ${member} ${lifetime}`);
    const id = at(created, rule.paths.id);
    const createdAt = time(at(created, rule.paths.createdAt));
    const expiresAt = time(at(created, rule.paths.expiresAt));
    if (!check.response(operationId, "201", created) || typeof id !== "string" || Number.isNaN(createdAt) || Number.isNaN(expiresAt)) return;
    // Whole seconds from the creation to the last second before the expiry.
    const toLastSecond = Math.ceil((expiresAt - createdAt) / 1000) - 1;
    if (toLastSecond < 1) throw new NotApplicable(`the charge expires ${(expiresAt - createdAt) / 1000} s after its creation: no second before its expiry to read it in`);
    const before = await advanceClock(ctx, rule.scenarioId, toLastSecond, RULE);
    if (Number.isNaN(before)) throw new NotApplicable("the clock control's answer gives no `now`: the reads cannot be placed either side of the expiry");
    // More than a second passed since the creation: again, with a new charge.
    if (before >= expiresAt) continue;
    const early = await read(id);
    const after = await advanceClock(ctx, rule.scenarioId, 1, RULE);
    // The read may have come after the expiry (or the clock says the account is not past it).
    if (after - 1000 >= expiresAt || after < expiresAt) continue;
    const late = await read(id);
    judge(check, rule, early, rule.open, `in the last second before its ${rule.paths.expiresAt.split(".").pop()} ${iso(expiresAt)} (the account's clock from ${iso(before)} to ${iso(after - 1000)})`);
    judge(check, rule, late, rule.closed, `once its ${rule.paths.expiresAt.split(".").pop()} ${iso(expiresAt)} had passed (the account's clock at ${iso(after)} or later)`);
    return;
  }
  throw new NotApplicable(`${ATTEMPTS} times, more than a second passed on the account's clock between creating a charge and reading it: its last second before the expiry could not be read`);
}

function judge(check: ScenarioAssertions, rule: ExpiryRule, response: ObservedResponse, expected: string, when: string): void {
  const status = at(response, rule.paths.status);
  check.that(is2xx(response) && status === expected, `${rule.decision}: read ${when}, the charge answered ${is2xx(response) ? `status ${JSON.stringify(status)}` : describe(response)}, expected ${expected}`);
  if (is2xx(response)) check.response(rule.read.operationId, "200", response, `${rule.read.operationId} ${expected === rule.open ? "before" : "after"} the expiry`);
}
