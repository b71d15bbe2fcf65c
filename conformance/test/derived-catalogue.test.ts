/**
 * The statement catalogue names the generic check classes that enforce each statement
 * (`enforcedBy`), and the classes read their statements from it: every name there is a class,
 * every class enforces something in each family it runs in, and a statement a class names for
 * one variant only is listed under that class too.
 */
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
    for (const derivedClass of DERIVED_CLASSES) {
      const families = EXHAUST_CLASSES.includes(derivedClass) ? ["family-b"] : ["family-a", "family-b"];
      for (const family of families) expect(classStatements(derivedClass, family, catalogue), `${derivedClass} in ${family}`).not.toEqual([]);
    }
  });

  it("lists under a class the statements it names for single variants", () => {
    for (const derivedClass of DERIVED_CLASSES) {
      const all = [...classStatements(derivedClass, "family-a", catalogue), ...classStatements(derivedClass, "family-b", catalogue)];
      for (const id of CLASS_MODULES[derivedClass].VARIANT_STATEMENTS ?? []) expect(all, `${derivedClass}: ${id}`).toContain(id);
    }
  });
});
