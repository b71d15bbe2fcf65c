/**
 * List filters (`x-list-filter`): every filter the documents declare names a member of the
 * items its list holds and a comparison the model knows, sits on the Parameter Object only, and
 * the comparisons keep what their names say.
 */
import { describe, expect, it } from "vitest";
import { FAMILIES, OPENAPI_VERSIONS } from "../src/model/layout.ts";
import { loadDocument } from "../src/model/documents.ts";
import { operationsOf } from "../src/model/operations.ts";
import { LIST_FILTER_EXTENSION, listItemsOf, listedItems, satisfiesFilter } from "../src/model/list-filters.ts";
import { isObject } from "../src/model/json.ts";

describe("list filters in the documents", () => {
  for (const version of OPENAPI_VERSIONS) {
    for (const family of FAMILIES) {
      it(`name a member of the listed items and stay off the schemas (${family.id}, ${version.id})`, () => {
        const { document } = loadDocument(family.id, { version: version.id, form: "dereferenced" });
        for (const op of operationsOf(document)) {
          for (const parameter of op.parameters.filter((p) => LIST_FILTER_EXTENSION in p.raw)) {
            const where = `${op.operationId} ${parameter.name}`;
            expect(parameter.listFilter, `${where}: member and a known comparison`).toBeDefined();
            expect(parameter.in, where).toBe("query");
            expect(LIST_FILTER_EXTENSION in parameter.schema, `${where}: the schema carries no copy`).toBe(false);
            const success = op.responses.find((r) => r.status.startsWith("2"));
            const items = listItemsOf(success?.schema)?.items;
            expect(isObject(items?.properties) && parameter.listFilter!.member in items.properties, `${where}: ${parameter.listFilter!.member} is a member of the items`).toBe(true);
          }
        }
      });
    }
  }

  it("listTransactions filters on status and a half-open period of createdAt (D15)", () => {
    const { document } = loadDocument("family-b", { version: "3.1", form: "dereferenced" });
    const list = operationsOf(document).find((o) => o.operationId === "listTransactions")!;
    const filters = Object.fromEntries(list.parameters.filter((p) => p.listFilter).map((p) => [p.name, p.listFilter]));
    expect(filters).toEqual({
      status: { member: "status", comparison: "equals" },
      startDate: { member: "createdAt", comparison: "at-or-after" },
      endDate: { member: "createdAt", comparison: "before" },
    });
    expect(list.parameters.filter((p) => p.listFilter).every((p) => p.decided.some((d) => d.decision === "D15" && d.keywords.includes(LIST_FILTER_EXTENSION)))).toBe(true);
    expect(listItemsOf(list.responses.find((r) => r.status === "200")!.schema)?.path).toEqual(["data", "items"]);
    expect(listedItems({ data: { items: [1] } }, ["data", "items"])).toEqual([1]);
    expect(listedItems({ data: {} }, ["data", "items"])).toBeUndefined();
  });
});

describe("comparisons", () => {
  const bound = "2026-12-01T10:00:00.123Z";
  it("compare instants as instants: offsets applied, fractions to the nanosecond", () => {
    expect(satisfiesFilter("at-or-after", bound, bound)).toBe(true);
    expect(satisfiesFilter("after", bound, bound)).toBe(false);
    expect(satisfiesFilter("before", bound, bound)).toBe(false);
    expect(satisfiesFilter("at-or-before", bound, bound)).toBe(true);
    expect(satisfiesFilter("at-or-after", "2026-12-01T07:00:00.123-03:00", bound)).toBe(true);
    expect(satisfiesFilter("before", "2026-12-01T07:00:00.1229999-03:00", bound)).toBe(true);
    expect(satisfiesFilter("after", "2026-12-01T10:00:00.1230001Z", bound)).toBe(true);
    expect(satisfiesFilter("before", "2026-12-01T09:59:59Z", bound)).toBe(true);
  });

  it("hold nothing that does not compare, and equality to the text sent", () => {
    expect(satisfiesFilter("at-or-after", undefined, bound)).toBe(false);
    expect(satisfiesFilter("before", "yesterday", bound)).toBe(false);
    expect(satisfiesFilter("at-or-after", 10, "9")).toBe(true);
    expect(satisfiesFilter("equals", "PENDING", "PENDING")).toBe(true);
    expect(satisfiesFilter("equals", "COMPLETED", "PENDING")).toBe(false);
    expect(satisfiesFilter("equals", undefined, "PENDING")).toBe(false);
  });
});
