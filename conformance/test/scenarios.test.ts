/**
 * The scenarios and the statement report hold together: every scenario names statements that
 * exist, has a unique id of its family, and every statement of the catalogue is either named by
 * a scenario or check, or has a reason why it cannot be observed on the wire.
 */
import { describe, expect, it } from "vitest";
import type { CheckResult } from "../src/core/results.ts";
import { statementCoverage } from "../src/runner/statement-coverage.ts";
import { loadCatalogue } from "../src/core/statement-map.ts";
import { SCENARIOS } from "../src/scenarios/index.ts";
import { EVENT_CAUSES, publishedEventTypes } from "../src/scenarios/events-webhook-causes.ts";
import { loadFamilyContract } from "@payment-collection/contract/model/index.ts";

const catalogue = loadCatalogue();

function result(id: string, statements: string[], verdict: CheckResult["verdict"]): CheckResult {
  return { id, source: "scenario", family: "family-a", title: id, profile: "seed", statements, decisions: [], covers: [], verdict, reasons: verdict === "pass" ? [] : ["why"], durationMs: 0 };
}

describe("behaviour scenarios", () => {
  it("have unique ids of their family and name statements of the catalogue", () => {
    const ids = SCENARIOS.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const s of SCENARIOS) expect(s.id.startsWith(`${s.family}/`), s.id).toBe(true);
    const unknown = SCENARIOS.flatMap((s) => s.statements.filter((id) => !catalogue.byId.has(id)).map((id) => `${s.id}: ${id}`));
    expect(unknown).toEqual([]);
    expect(SCENARIOS.filter((s) => s.profile === "full" && !s.decision).map((s) => s.id)).toEqual([]);
  });
});

describe("the event scenarios", () => {
  it("know a cause for every event type the contract publishes, and for none it does not", () => {
    // The webhook scenarios cause every published event (D24) through EVENT_CAUSES: a type published
    // without a cause would go unchecked, a cause of no published type checks nothing.
    const published = (["family-a", "family-b"] as const).flatMap((family) => publishedEventTypes(loadFamilyContract(family).document)).sort();
    expect(published.length).toBeGreaterThan(0);
    expect(Object.keys(EVENT_CAUSES).sort()).toEqual(published);
  });
});

describe("the statement report", () => {
  it("marks a statement broken when one of its checks fails, and uncovered when none names it", () => {
    const [first, second] = catalogue.statements.filter((s) => s.wire && s.family === "A");
    const entries = statementCoverage(
      { families: ["family-a"], results: [result("x/pass", [first!.id], "pass"), result("x/fail", [first!.id], "fail")] },
      catalogue,
    );
    expect(entries.find((e) => e.statement.id === first!.id)!.state).toBe("fail");
    expect(entries.find((e) => e.statement.id === second!.id)!.state).toBe("uncovered");
  });
});
