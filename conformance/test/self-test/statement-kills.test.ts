/**
 * The statement-kills bookkeeping (no server): a broken server counts as killed only by a
 * failing result under its caughtBy that names a statement it breaks, and the table says, per
 * observable statement, which broken servers break it and what became of them.
 */
import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/core/results.ts";
import { loadCatalogue } from "../../src/core/statement-map.ts";
import { disagreement, formatStatementKills, killers, kills, statementKillReport } from "./statement-kills.ts";

const result = (id: string, statements: string[]): CheckResult => ({
  id, source: "scenario", family: "family-a", title: id, profile: "seed", statements, decisions: [], covers: [], verdict: "fail", reasons: [], durationMs: 0,
});

describe("a kill names a statement the broken server breaks", () => {
  const server = { caughtBy: "family-a/idempotency/replay", statements: ["A-IDEM-RULE-replay"] };

  it("counts a failing result under caughtBy that names one of the statements", () => {
    expect(killers([result("family-a/idempotency/replay-returns-original", ["A-IDEM-RULE-replay"])], server).map((r) => r.id)).toEqual(["family-a/idempotency/replay-returns-original"]);
  });

  it("does not count a result under caughtBy that names other statements, and says why", () => {
    const failing = [result("family-a/idempotency/replay-returns-original", ["A-IDEM-RULE-new-key"])];
    expect(killers(failing, server)).toEqual([]);
    expect(disagreement(failing, server)).toMatch(/name none of \["A-IDEM-RULE-replay"\]/);
  });

  it("does not count a result outside caughtBy, whatever it names", () => {
    expect(killers([result("family-a/charges/created-pending", ["A-IDEM-RULE-replay"])], server)).toEqual([]);
  });

  it("stops a broken server's run only at a result that kills it: failing, under caughtBy, naming a statement", () => {
    const stop = kills(server);
    expect(stop(result("family-a/idempotency/replay-returns-original", ["A-IDEM-RULE-replay"]))).toBe(true);
    expect(stop({ ...result("family-a/idempotency/replay-returns-original", ["A-IDEM-RULE-replay"]), verdict: "pass" })).toBe(false);
    expect(stop({ ...result("family-a/idempotency/replay-returns-original", ["A-IDEM-RULE-replay"]), verdict: "not-applicable" })).toBe(false);
    expect(stop(result("family-a/idempotency/replay-returns-original", ["A-IDEM-RULE-new-key"]))).toBe(false);
    expect(stop(result("family-a/charges/created-pending", ["A-IDEM-RULE-replay"]))).toBe(false);
  });

  it("counts, for a decision the contract does not model (no statement names it), a result naming that decision", () => {
    const cors = { caughtBy: "family-b/derived/cors/getHealth/", statements: [], decisions: ["D44"] };
    const naming = (decisions: string[]) => ({ ...result("family-b/derived/cors/getHealth/preflight-granted", []), decisions });
    expect(killers([naming(["D44"])], cors).map((r) => r.id)).toEqual(["family-b/derived/cors/getHealth/preflight-granted"]);
    expect(killers([naming(["D39"])], { ...cors, decisions: ["D44"] })).toEqual([]);
    expect(disagreement([naming(["D39"])], cors)).toMatch(/name none of \["D44"\]/);
  });
});

describe("the statement-kills table", () => {
  const catalogue = loadCatalogue();
  const servers = [
    { name: "replay-a", family: "family-a" as const, suite: "mutation" as const, caughtBy: "x", statements: ["A-IDEM-RULE-replay"], decisions: [] },
    { name: "replay-b", family: "family-a" as const, suite: "mutation" as const, caughtBy: "x", statements: ["A-IDEM-RULE-replay"], decisions: [] },
  ];
  const records = new Map([
    ["mutation:replay-a", { name: "replay-a", suite: "mutation" as const, killed: true, by: ["x/1"] }],
    ["mutation:replay-b", { name: "replay-b", suite: "mutation" as const, killed: false, by: [] }],
  ]);
  const report = statementKillReport(catalogue, servers, records);

  it("lists every observable statement with its broken servers and their outcome", () => {
    expect(report.rows.length).toBe(catalogue.statements.filter((s) => s.wire).length);
    expect(report.rows.find((r) => r.id === "A-IDEM-RULE-replay")?.servers).toEqual([
      { name: "replay-a", outcome: "killed" },
      { name: "replay-b", outcome: "survived" },
    ]);
    expect(report.rows.find((r) => r.id === "A-IDEM-RULE-new-key")?.servers).toEqual([]);
  });

  it("says in the table and the counts that a broken server survived", () => {
    const table = formatStatementKills(report);
    expect(table).toMatch(/\| A-IDEM-RULE-replay \| A \| replay-a \(killed\), replay-b \(survived\) \| \*\*NO\*\* \|/);
    expect(report.summary[0]).toMatch(/^1 of \d+ observable statements have a broken server .*2 broken servers, 2 run in this self-test, 1 killed$/);
  });
});
