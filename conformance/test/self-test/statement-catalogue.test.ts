/**
 * Every observable statement of the catalogue (`wire: true`) has a broken server that breaks it,
 * and every broken server names the statements it breaks, by ids the catalogue holds and marks
 * observable. No server runs here: it reads the lists only.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadCatalogue } from "../../src/core/statement-map.ts";
import { brokenServers } from "./broken-servers.ts";
import { NOT_BREAKABLE, wireStatements } from "./statement-kills.ts";

const catalogue = loadCatalogue();
const servers = brokenServers();

describe("the statement catalogue and the broken servers", () => {
  it("loads the catalogue", () => {
    expect(catalogue.problems).toEqual([]);
    expect(wireStatements(catalogue).length).toBeGreaterThan(0);
  });

  it("every broken server names the statements it breaks (or the decision it breaks where the contract does not model it)", () => {
    const unnamed = servers.filter((s) => s.statements.length === 0 && s.decisions.length === 0).map((s) => `${s.suite}:${s.name}`);
    expect(unnamed, `broken servers naming no statement:\n${unnamed.join("\n")}`).toEqual([]);
  });

  it("a decision a broken server names instead of statements is one the contract does not model", () => {
    const record = readFileSync(new URL("../../../docs/decisions.md", import.meta.url), "utf8");
    const modelled = [...new Set(servers.flatMap((s) => s.decisions))].filter((id) => !/\*\*In the contract:\*\* not yet modelled/.test(record.split(/^## /m).find((entry) => entry.startsWith(`${id} `)) ?? ""));
    expect(modelled).toEqual([]);
  });

  it("every statement a broken server names is an observable statement of the catalogue", () => {
    const wrong = servers.flatMap((s) =>
      s.statements.filter((id) => !catalogue.byId.get(id)?.wire).map((id) => `${s.name}: ${id} ${catalogue.byId.has(id) ? "is not observable (wire: false)" : "is not in the catalogue"}`),
    );
    expect(wrong, wrong.join("\n")).toEqual([]);
  });

  it("every observable statement has a broken server, unless no server can break it", () => {
    const broken = new Set(servers.flatMap((s) => s.statements));
    const exempt = new Set(NOT_BREAKABLE.map((n) => n.statement));
    const without = wireStatements(catalogue).filter((s) => !broken.has(s.id) && !exempt.has(s.id)).map((s) => `${s.id} (${s.family})`);
    expect(without, `observable statements no broken server breaks:\n${without.join("\n")}`).toEqual([]);
  });

  it("a statement said to be unbreakable is observable and has indeed no broken server", () => {
    const broken = new Set(servers.flatMap((s) => s.statements));
    const stale = NOT_BREAKABLE.filter((n) => !catalogue.byId.get(n.statement)?.wire || broken.has(n.statement)).map((n) => n.statement);
    expect(stale).toEqual([]);
  });
});
