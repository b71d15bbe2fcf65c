/**
 * The values a run makes up come from its seed (`--seed N`): the same seed draws the same values,
 * per check, whatever the other checks drew before; another seed draws others.
 */
import { describe, expect, it } from "vitest";
import { inCheck } from "../src/core/check-scope.ts";
import { RunRandom } from "../src/core/run-random.ts";

const draws = (random: RunRandom, check: string) => inCheck(check, async () => [random.uuid(), random.uuid(), random.digits(9)]);

describe("RunRandom", () => {
  it("draws the same values for a check under the same seed, whatever other checks drew first", async () => {
    const first = new RunRandom(7);
    const second = new RunRandom(7);
    await draws(second, "family-b/other-check");
    expect(await draws(second, "family-b/getBoleto/404/unknown-id")).toEqual(await draws(first, "family-b/getBoleto/404/unknown-id"));
    expect(second.token("run-id:family-a")).toBe(first.token("run-id:family-a"));
  });

  it("draws other values under another seed, UUIDs of version 4 and decimal digits", async () => {
    const [uuid, , digits] = await draws(new RunRandom(7), "a");
    const [other] = await draws(new RunRandom(8), "a");
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(digits).toMatch(/^\d{9}$/);
    expect(other).not.toBe(uuid);
  });
});
