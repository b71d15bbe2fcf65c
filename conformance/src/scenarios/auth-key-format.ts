/**
 * "Key format: `<prefix>_<environment>_<random_string>`, where environment is `test` (sandbox,
 * {sdk_sandbox_url}) or `live` (production, {sdk_base_url}), and random_string is unique."
 * Seen from the keys the server accepts: each has the format, all of one environment (a
 * server is the sandbox or production, not both), no two with the same random string; and
 * the environment binds the key to the server: an accepted key moved to the other environment
 * (same prefix, same random string, so a key no one was issued) is refused with 401.
 */
import { NotApplicable } from "../core/check-context.ts";
import type { Scenario } from "../core/scenario.ts";
import { acceptedKeys, shown } from "./auth-key-support.ts";
import { describe, expectCode, sender } from "./support.ts";

export const keyFormat: Scenario = {
  id: "family-b/auth/key-format",
  family: "family-b",
  profile: "seed",
  title: "accepted keys are <prefix>_<environment>_<random_string>, of one environment, and bound to it",
  statements: ["B-AUTH-AUTH-key-format", "B-AUTH-ERROR-unauthorized"],
  covers: [
    { operationId: "getHealth", status: "200" },
    { operationId: "getHealth", status: "401" },
  ],
  async run(ctx, check) {
    const accepted = await acceptedKeys(ctx, this.id);
    if (accepted.length === 0) throw new NotApplicable("the server accepted none of the target's family B keys");
    for (const key of accepted) check.that(key.parts !== undefined, `the accepted key ${shown(key)} is not of the form <prefix>_<environment>_<random_string> with environment test or live`);
    const parsed = accepted.filter((key) => key.parts !== undefined);
    const environments = new Set(parsed.map((key) => key.parts!.environment));
    check.that(environments.size <= 1, `the server accepts keys of both environments (${parsed.map(shown).join(", ")}): test keys belong to the sandbox, live keys to production`);
    const randoms = new Set(parsed.map((key) => key.parts!.random));
    check.that(randoms.size === parsed.length, "two accepted keys share their random string, which the document says is unique");
    const [first] = parsed;
    if (!first) return;
    const { prefix, environment, random } = first.parts!;
    const other = environment === "test" ? "live" : "test";
    const send = sender(ctx, this.id);
    const moved = await send("getHealth", { key: "none", headers: { [ctx.contract.apiKeyHeader]: `${prefix}_${other}_${random}` } });
    check.that(moved.status === 401, `the ${first.name} key moved to the ${other} environment (${prefix}_${other}_...) was answered ${describe(moved)}, expected 401: the environment binds a key to its server`);
    if (moved.status === 401) {
      check.response("getHealth", "401", moved, "key of the other environment");
      expectCode(check, moved, "UNAUTHORIZED", "key of the other environment");
    }
  },
};
