/**
 * Which account of the target each check runs on. The published limits are per account and
 * minute (100 requests, 30 PIX and 50 transaction creations), and one run sends more than one
 * account's minute allows: on a single account it would wait for windows to renew, although the
 * target gives other accounts. So the run is planned by account before it starts:
 *
 * - the checks that use up a limit run last, on the rate-limit account (the runner's exhaust stage);
 * - the scenarios that make and read only their own records (`Scenario.account === "any"`) run
 *   on the second account, when the target names one;
 * - so do the negative-data checks of operations whose records the check can make itself
 *   (`DerivedEnv.spread`): refusing a body that breaks a constraint is the same on any account;
 * - everything else stays on the primary account: the Dredd suite and the probes (the fixtures
 *   are the primary account's), the other generic checks (they vary the primary account's
 *   traffic, or cross accounts, which spares the primary nothing) and the scenarios that need a
 *   fixture or another key of the primary account.
 *
 * The plan is fixed by the checks, not by the run's history, so that a failing scenario runs on
 * the same account the next time. The report's pacing line shows the requests each account took.
 */
import type { AccountView, FamilyContext } from "./check-context.ts";
import type { Scenario } from "./scenario.ts";

/** Where the checks that may run on any account go. */
export const SPREAD_ACCOUNT: AccountView = "secondAccount";

const views = new WeakMap<FamilyContext, FamilyContext>();

/** The context a scenario runs in: the primary account's, or the second account's view of the run. */
export function contextFor(scenario: Pick<Scenario, "account">, ctx: FamilyContext): FamilyContext {
  if (scenario.account !== "any" || ctx.mock || !ctx.key(SPREAD_ACCOUNT)) return ctx;
  let view = views.get(ctx);
  if (!view) {
    view = ctx.onAccount(SPREAD_ACCOUNT);
    views.set(ctx, view);
  }
  return view;
}
