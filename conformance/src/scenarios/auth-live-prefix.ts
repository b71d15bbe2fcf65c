/**
 * "Live keys start with `sk_live_`." Seen on a live family A server (target environment
 * `live`): every key of the target it accepts starts with `sk_live_`. A key is accepted when
 * GET /v1/merchant is not refused as unauthenticated (a 403 for a missing scope still is an
 * accepted key). A sandbox target takes test keys (decision D38): not applicable there.
 */
import { NotApplicable, type KeyName } from "../core/check-context.ts";
import type { Scenario } from "../core/scenario.ts";
import { sender } from "./support.ts";

const KEY_NAMES: KeyName[] = ["primary", "secondAccount", "noMerchantRead", "rateLimits", "primarySecondKey"];

export const livePrefix: Scenario = {
  id: "family-a/auth/live-prefix",
  family: "family-a",
  profile: "seed",
  title: "every key a live server accepts starts with sk_live_",
  statements: ["A-AUTH-AUTH-live-prefix"],
  covers: [{ operationId: "getMerchant", status: "200" }],
  async run(ctx, check) {
    if (ctx.familyA?.environment !== "live") throw new NotApplicable("the target is a sandbox (environment: sandbox): its keys are test keys");
    const send = sender(ctx, this.id);
    let accepted = 0;
    for (const name of KEY_NAMES) {
      const value = ctx.key(name);
      if (!value) continue;
      const response = await send("getMerchant", { key: name });
      if (response.status === 401 || response.status === 429) continue;
      accepted += 1;
      check.that(value.startsWith("sk_live_"), `the live server accepts the target's ${name} key, which does not start with sk_live_ (it starts ${JSON.stringify(value.slice(0, 5))})`);
    }
    if (accepted === 0) throw new NotApplicable("the live server accepted none of the target's family A keys");
  },
};
