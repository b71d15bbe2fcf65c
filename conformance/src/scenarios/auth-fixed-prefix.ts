/**
 * "The same fixed prefix is used for all keys." Seen from the keys the server accepts (of
 * different accounts, when the target names them): they share their prefix. Which prefix is
 * left open (decision D22): only that there is one is checked.
 */
import { NotApplicable } from "../core/check-context.ts";
import type { Scenario } from "../core/scenario.ts";
import { acceptedKeys, shown } from "./auth-key-support.ts";

export const fixedPrefix: Scenario = {
  id: "family-b/auth/fixed-prefix",
  family: "family-b",
  profile: "seed",
  title: "every key the server accepts has the same prefix",
  statements: ["B-AUTH-AUTH-fixed-prefix"],
  covers: [{ operationId: "getHealth", status: "200" }],
  async run(ctx, check) {
    const parsed = (await acceptedKeys(ctx, this.id)).filter((key) => key.parts !== undefined);
    if (parsed.length < 2) throw new NotApplicable(`only ${parsed.length} of the target's family B keys are accepted and of the published format: a prefix shared by all keys needs two`);
    const prefixes = new Set(parsed.map((key) => key.parts!.prefix));
    check.that(prefixes.size === 1, `the server accepts keys of ${prefixes.size} prefixes: ${parsed.map(shown).join(", ")}`);
  },
};
