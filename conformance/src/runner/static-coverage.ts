/**
 * Which checks enforce each statement of the catalogue, known without a run: each response
 * check enforces the wire statements the statement map derives from the catalogue's encodings,
 * plus the ones it names itself; each behaviour scenario enforces the statements it names; each
 * generic check class (src/derived/) enforces its class's statements on every operation.
 * The docs portal shows this beside every statement; a run's own report says which passed.
 */
import { familyName, loadFamilyContract, FAMILY_IDS } from "@payment-collection/contract/model/index.ts";
import { FAMILY_CHECKS } from "../checks/index.ts";
import { checkId } from "../checks/response-check.ts";
import { loadCatalogue, statementsFor } from "../core/statement-map.ts";
import { SCENARIOS } from "../scenarios/index.ts";
import { classStatements, DERIVED_CLASSES } from "../derived/index.ts";

export interface CoveringCheck {
  /** Name of the check as the conformance report prints it. */
  name: string;
  title?: string;
  /** Profile the check runs under (`seed` or `full`). */
  profile: string;
  /** The suite it belongs to, e.g. `family A` or `family B scenario`. */
  suite: string;
}

/** Statement id -> the checks and scenarios that enforce it, in suite order. */
export function staticStatementCoverage(): Map<string, CoveringCheck[]> {
  const catalogue = loadCatalogue();
  const byStatement = new Map<string, CoveringCheck[]>();
  const add = (statement: string, check: CoveringCheck): void => {
    const list = byStatement.get(statement) ?? [];
    if (!list.some((known) => known.name === check.name && known.profile === check.profile)) list.push(check);
    byStatement.set(statement, list);
  };
  for (const family of FAMILY_IDS) {
    const contract = loadFamilyContract(family);
    for (const check of FAMILY_CHECKS[family]) {
      const ids = new Set(statementsFor(catalogue, contract, { family, operationId: check.operationId, status: check.status, errorCode: check.errorCode }));
      for (const extra of check.statements ?? []) ids.add(extra);
      const covering = { name: checkId(check), title: check.title, profile: check.profile ?? "seed", suite: familyName(family) };
      for (const id of ids) add(id, covering);
    }
  }
  // The generic check classes (src/derived/), which apply to every operation of a family.
  for (const family of FAMILY_IDS) {
    for (const derivedClass of DERIVED_CLASSES) {
      const covering = { name: `${family}/derived/${derivedClass}`, title: `generic check class ${derivedClass}, every operation`, profile: "seed", suite: `${familyName(family)} generic checks` };
      for (const id of classStatements(derivedClass, family)) add(id, covering);
    }
  }
  for (const scenario of SCENARIOS) {
    const covering = { name: scenario.id, title: scenario.title, profile: scenario.profile, suite: `${familyName(scenario.family)} scenario` };
    for (const id of scenario.statements) add(id, covering);
  }
  return byStatement;
}
