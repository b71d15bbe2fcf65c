/**
 * The statement catalogue names the generic check classes that enforce each statement
 * (`enforcedBy`), and the classes read their statements from it: every name there is a class,
 * every class enforces something in each family it runs in (a statement, or the decision the
 * contract does not model that it holds a server to, which the decision record knows), and a
 * statement a class names for one variant only is listed under that class too.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadCatalogue } from "../src/core/statement-map.ts";
import { CLASS_MODULES, classStatements, DERIVED_CLASSES, EXHAUST_CLASSES } from "../src/derived/index.ts";

const catalogue = loadCatalogue();

describe("generic check classes in the statement catalogue", () => {
  it("names only classes that exist", () => {
    const named = new Set(catalogue.statements.flatMap((s) => s.enforcedBy ?? []));
    expect([...named].filter((name) => !(DERIVED_CLASSES as readonly string[]).includes(name))).toEqual([]);
  });

  it("gives every class statements in each family it runs in (rate limits: family B, whose limits the document publishes)", () => {
    for (const derivedClass of DERIVED_CLASSES.filter((c) => !CLASS_MODULES[c].DECISION)) {
      const families = EXHAUST_CLASSES.includes(derivedClass) ? ["family-b"] : ["family-a", "family-b"];
      for (const family of families) expect(classStatements(derivedClass, family, catalogue), `${derivedClass} in ${family}`).not.toEqual([]);
    }
  });

  it("gives a class no statement names a decision of the record that the contract does not model", () => {
    const record = readFileSync(new URL("../../docs/decisions.md", import.meta.url), "utf8");
    for (const derivedClass of DERIVED_CLASSES.filter((c) => CLASS_MODULES[c].DECISION)) {
      const decision = CLASS_MODULES[derivedClass].DECISION!;
      expect([...classStatements(derivedClass, "family-a", catalogue), ...classStatements(derivedClass, "family-b", catalogue)], derivedClass).toEqual([]);
      const entry = record.split(/^## /m).find((section) => section.startsWith(`${decision} `));
      expect(entry, `${decision} in docs/decisions.md`).toMatch(/\*\*In the contract:\*\* not yet modelled/);
      expect(entry, `${decision} says where it is checked`).toContain(`generic check class \`${derivedClass}\``);
    }
  });

  it("lists under a class the statements it names for single variants", () => {
    for (const derivedClass of DERIVED_CLASSES) {
      const all = [...classStatements(derivedClass, "family-a", catalogue), ...classStatements(derivedClass, "family-b", catalogue)];
      for (const id of CLASS_MODULES[derivedClass].VARIANT_STATEMENTS ?? []) expect(all, `${derivedClass}: ${id}`).toContain(id);
    }
  });
});
