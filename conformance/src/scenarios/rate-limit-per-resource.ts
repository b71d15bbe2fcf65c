/**
 * Per-resource limits are counted separately from the general one (family B: "| PIX | 30
 * creations/min | POST /pix and POST /pix/payment |" next to the general limit): when a PIX
 * creation reports a limit of its own (an X-RateLimit-Limit other than that of a GET), requests
 * that are not PIX creations do not use it up, while the general limit counts every request.
 * A server that reports one limit for everything shows no separate count in its headers: then
 * the scenario is not applicable. Nothing is exhausted.
 */
import { exampleBody } from "../checks/provisioning.ts";
import { NotApplicable } from "../core/check-context.ts";
import type { Scenario } from "../core/scenario.ts";
import type { ObservedResponse } from "../core/validate.ts";
import { describe, is2xx, sender } from "./support.ts";

function reading(response: ObservedResponse) {
  const n = (name: string) => (/^\d+$/.test(response.headers[name] ?? "") ? Number(response.headers[name]) : undefined);
  const limit = n("x-ratelimit-limit");
  const remaining = n("x-ratelimit-remaining");
  const reset = n("x-ratelimit-reset");
  return limit === undefined || remaining === undefined || reset === undefined ? undefined : { limit, remaining, reset };
}

export const perResourceLimitsSeparate: Scenario = {
  id: "family-b/rate-limits/per-resource-separate",
  family: "family-b",
  profile: "seed",
  title: "the PIX creation limit is counted apart from the general limit",
  statements: ["B-LIMITS-LIMIT-pix", "B-LIMITS-LIMIT-general", "B-LIMITS-HEADER-rate-limit"],
  covers: [
    { operationId: "createPixCharge", status: "201" },
    { operationId: "getHealth", status: "200" },
  ],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const key = ctx.rateLimitKey();
    const pix = () => send("createPixCharge", { key, body: exampleBody(ctx, "createPixCharge"), headers: { "X-Idempotency-Key": ctx.idempotencyKey() } });
    const p1 = await pix();
    if (!is2xx(p1)) throw new NotApplicable(`the server refused the contract's PIX charge (${describe(p1)}); its request shape is decision D14`);
    check.response("createPixCharge", "201", p1, "first PIX creation");
    const h1 = await send("getHealth", { key });
    const h2 = await send("getHealth", { key });
    const p2 = await pix();
    check.response("getHealth", "200", h1, "first health");
    check.response("getHealth", "200", h2, "second health");
    if (is2xx(p2)) check.response("createPixCharge", "201", p2, "second PIX creation");
    const [rp1, rh1, rh2, rp2] = [p1, h1, h2, p2].map(reading);
    if (!rp1 || !rh1 || !rh2 || !rp2) throw new NotApplicable("not every response carried the three X-RateLimit-* headers");
    if (rp1.limit === rh1.limit) {
      throw new NotApplicable(`PIX creations and other requests report the same limit (${rp1.limit}): the headers cannot show a separate count`);
    }
    if (rh1.reset === rh2.reset && rh1.limit === rh2.limit) {
      check.that(rh2.remaining === rh1.remaining - 1, `the general limit went from ${rh1.remaining} to ${rh2.remaining} left for one request`);
    }
    if (rp1.reset === rp2.reset && rp1.limit === rp2.limit) {
      check.that(
        rp2.remaining === rp1.remaining - 1,
        `the PIX creation limit went from ${rp1.remaining} to ${rp2.remaining} left across two GET requests and one PIX creation: other requests use it up`,
      );
    }
  },
};
