/**
 * Decision D13: the PIX and transaction paths are used exactly as published, with no prefix.
 * The target may declare a prefix (a server that decided otherwise still meets `seed`); under
 * `full` every operation whose prefix D13 decides must answer at its published path.
 */
import type { Scenario } from "../core/scenario.ts";

export const publishedPrefix: Scenario = {
  id: "family-b/paths/published-prefix",
  family: "family-b",
  profile: "full",
  decision: "D13",
  title: "the PIX and transaction operations answer at their published paths, without a prefix",
  statements: ["B-SERVICE-RULE-published-paths"],
  async run(ctx, check) {
    const decided = ctx.contract.operations.filter((op) => op.markings.behaviour.some((b) => b.decision === "D13"));
    for (const op of decided) {
      const prefix = ctx.prefixFor(op.path);
      check.that(prefix === "", `D13: the target serves ${op.operationId} under the prefix ${prefix} (${prefix}${op.path}), the contract publishes ${op.path}`);
    }
  },
};
