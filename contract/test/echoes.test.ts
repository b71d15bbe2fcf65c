/**
 * Echoes (`x-echoes`): a response member that gives back a request member as sent names it, and
 * the member it names is one of the operation's request body (of the record's creation, for a read). Family A's `payer_request`
 * echoes the charge request's `payer` (D01) in every version of the documents.
 */
import { describe, expect, it } from "vitest";
import { FAMILIES, OPENAPI_VERSIONS } from "../src/model/layout.ts";
import { loadDocument } from "../src/model/documents.ts";
import { operationsOf } from "../src/model/operations.ts";
import { decidedKeywordsOf } from "../src/model/markings.ts";
import { echoesOf } from "../src/model/echoes.ts";

describe("echoes in the documents", () => {
  for (const version of OPENAPI_VERSIONS) {
    for (const family of FAMILIES) {
      it(`name a member of the operation's request, marked as D01's (${family.id}, ${version.id})`, () => {
        const { document } = loadDocument(family.id, { version: version.id, form: "dereferenced" });
        const found = operationsOf(document).flatMap((op) =>
          op.responses.filter((r) => r.status.startsWith("2")).flatMap((r) => echoesOf(r.schema).map((echo) => ({ op, echo }))),
        );
        expect(found.map(({ op, echo }) => `${op.operationId}.${echo.member} <- ${echo.echoes}`)).toEqual(
          family.id === "family-a" ? ["createCharge.payer_request <- payer", "getCharge.payer_request <- payer"] : [],
        );
        for (const { op, echo } of found) {
          // A read gives back what its record's creation was sent; a creation names a member of its own request.
          if (op.requestBody) expect(Object.keys((op.requestBody.schema.properties ?? {}) as object)).toContain(echo.echoes);
          expect(decidedKeywordsOf(echo.schema)).toContainEqual({ decision: "D01", keywords: ["x-echoes"] });
        }
      });
    }
  }

  it("are found through allOf, anyOf and nested properties", () => {
    const schema = { allOf: [{ properties: { data: { properties: { copy: { anyOf: [{ type: "object", "x-echoes": "payer" }, { type: "null" }] } } } } }], properties: { other: { type: "string" } } };
    expect(echoesOf(schema).map((e) => [e.member, e.echoes])).toEqual([["data.copy", "payer"]]);
    expect(echoesOf(undefined)).toEqual([]);
  });
});
