/**
 * Every broken server of the self-test in one list: those a response check or a scenario must
 * catch (mutation.ts) and those a generic check must catch (derived-mutation-suite.ts), each with
 * the catalogue statements it breaks.
 */
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import { BEHAVIOUR_MUTATIONS } from "./behaviour-mutants.ts";
import { DERIVED_MUTATIONS } from "./derived-mutants.ts";
import { EXPIRY_MUTATIONS } from "./expiry-mutants.ts";
import { MUTATIONS } from "./mutants.ts";
import { STATEMENT_MUTATIONS_A } from "./statement-mutants-a.ts";
import { STATEMENT_MUTATIONS_B } from "./statement-mutants-b.ts";
import { WEBHOOK_TARGET_MUTATIONS } from "./webhook-target-mutants.ts";
import { WIRE_RULE_MUTATIONS } from "./wire-rule-mutants.ts";

/** The broken servers mutation.ts runs (one family's suite each). */
export const ALL_MUTATIONS = [...MUTATIONS, ...BEHAVIOUR_MUTATIONS, ...WIRE_RULE_MUTATIONS, ...STATEMENT_MUTATIONS_A, ...STATEMENT_MUTATIONS_B, ...EXPIRY_MUTATIONS, ...WEBHOOK_TARGET_MUTATIONS];

export interface BrokenServer {
  name: string;
  family: FamilyId;
  /** mutation: caught by a response check or a scenario (mutation.ts); derived: by a generic check. */
  suite: "mutation" | "derived";
  caughtBy: string;
  statements: string[];
  /** The decisions it breaks where the contract does not model them (D44): no statement names those. */
  decisions: string[];
}

export function brokenServers(): BrokenServer[] {
  return [
    ...ALL_MUTATIONS.map((m): BrokenServer => ({ name: m.name, family: m.family, suite: "mutation", caughtBy: m.caughtBy, statements: m.statements ?? [], decisions: [] })),
    ...DERIVED_MUTATIONS.map((m): BrokenServer => ({ name: m.name, family: m.family, suite: "derived", caughtBy: m.caughtBy, statements: m.statements ?? [], decisions: m.decisions ?? [] })),
  ];
}
