/**
 * Using up a rate limit (the generic rate-limit checks): a limit enforced with 429 passes; a 2xx
 * after the server said `X-RateLimit-Remaining: 0` in the same window fails; a window that keeps
 * renewing before the requests can use it up (a slow link, a loaded client) is not applicable,
 * never a failure, since "in one window" could not be shown. Exhausting the account before the
 * 429 checks follows a window that renews under a batch of parallel requests.
 */
import { describe, expect, it } from "vitest";
import { loadFamilyContract } from "@payment-collection/contract/model/index.ts";
import { FamilyContext } from "../src/core/check-context.ts";
import { Pacer } from "../src/core/pacing.ts";
import type { FamilyBTarget } from "../src/core/target.ts";
import { exhaustLimit } from "../src/core/exhaust.ts";
import { useUp } from "../src/derived/rate-limits.ts";
import { DEFAULT_DERIVED_SETTINGS, DerivedEnv } from "../src/derived/shared.ts";

const target: FamilyBTarget = {
  baseUrl: "http://127.0.0.1:9",
  keys: { primary: "pk_test_first", rateLimits: "pk_test_limits" },
  pathPrefix: { pix: "", transactions: "" },
  fixtures: { registeredBoletoIds: [], unknownCustomerId: "c0" },
};
const LIMIT = 10;

/** A server scripted by request number (1, 2, ...): status, Remaining and the window's Reset. */
function envAgainst(answer: (n: number) => { status: number; remaining: number; reset: number }): DerivedEnv {
  const pacer = new Pacer();
  let n = 0;
  pacer.send = async () => {
    const { status, remaining, reset } = answer(++n);
    return { status, headers: { "x-ratelimit-limit": String(LIMIT), "x-ratelimit-remaining": String(remaining), "x-ratelimit-reset": String(reset) }, body: "{}", durationMs: 0 } as never;
  };
  const ctx = new FamilyContext("family-b", loadFamilyContract("family-b"), "seed", target, pacer, false);
  return new DerivedEnv(ctx, "rate-limits", DEFAULT_DERIVED_SETTINGS, undefined, undefined);
}

const make = () => ({ operationId: "getHealth", method: "GET", url: `${target.baseUrl}/sdk/status/health`, headers: {} });

describe("using up a rate limit", () => {
  it("passes a limit enforced with 429 once the window's requests are spent", async () => {
    const env = envAgainst((n) => (n <= LIMIT ? { status: 200, remaining: LIMIT - n, reset: 1000 } : { status: 429, remaining: 0, reset: 1000 }));
    expect(await useUp(env, make, "rateLimits", LIMIT, 60)).toMatchObject({ limited: true, problems: [] });
  });

  it("fails a 2xx after Remaining 0 in the same window", async () => {
    const env = envAgainst((n) => ({ status: 200, remaining: Math.max(0, LIMIT - n), reset: 1000 }));
    const outcome = await useUp(env, make, "rateLimits", LIMIT, 60);
    expect(outcome).toMatchObject({ limited: false, problems: [expect.stringMatching(/reached 0 in the window ending 1000/)] });
  });

  it("is not applicable when the window keeps renewing before its limit is used up", async () => {
    // Windows of four requests each: Remaining 9, 8, 7, 6, then 9 again with the next Reset.
    const env = envAgainst((n) => ({ status: 200, remaining: LIMIT - 1 - ((n - 1) % 4), reset: 1000 + Math.floor((n - 1) / 4) }));
    expect(await useUp(env, make, "rateLimits", LIMIT, 60)).toMatch(/renewed 3 times before its 10 requests were sent/);
  });
});

describe("exhausting the account's limit before the 429 checks", () => {
  /** A context whose requests get scripted answers by request number (1, 2, ...): status and Remaining. */
  function contextAgainst(answer: (n: number) => { status: number; remaining: number }): FamilyContext {
    const pacer = new Pacer();
    let n = 0;
    pacer.send = async () => {
      const { status, remaining } = answer(++n);
      return { status, headers: { "x-ratelimit-limit": "20", "x-ratelimit-remaining": String(remaining) }, body: "{}", durationMs: 0 } as never;
    };
    return new FamilyContext("family-b", loadFamilyContract("family-b"), "seed", target, pacer, false);
  }

  it("follows a window that renews in the middle of a batch, its new Remaining soon below the old window's last", async () => {
    // Window one: requests 1-8 (Remaining 19 down to 12); window two from request 9 (19, 18, ... 0), then 429.
    const ctx = contextAgainst((n) => (n <= 8 ? { status: 200, remaining: 20 - n } : n <= 28 ? { status: 200, remaining: 28 - n } : { status: 429, remaining: 0 }));
    expect(await exhaustLimit(ctx, { cap: 1000 })).toBeUndefined();
  });

  it("still fails a server that announces a limit and never answers 429", async () => {
    const ctx = contextAgainst((n) => ({ status: 200, remaining: Math.max(0, 20 - n) }));
    await expect(exhaustLimit(ctx, { cap: 1000 })).rejects.toThrow(/announced and not enforced/);
  });
});
