/**
 * Webhook targets (`x-webhook-target`, D48): the members the documents mark are URLs in request
 * bodies, in every version and form of the documents; the operation that takes them documents
 * the 400 a refused target gets and carries D48's behaviour marking.
 */
import { describe, expect, it } from "vitest";
import { FAMILIES, OPENAPI_VERSIONS } from "../src/model/layout.ts";
import { loadDocument } from "../src/model/documents.ts";
import { operationsOf } from "../src/model/operations.ts";
import { deref } from "../src/model/refs.ts";
import { webhookTargetMembers } from "../src/model/webhook-targets.ts";

describe("webhook targets in the documents", () => {
  for (const version of OPENAPI_VERSIONS) {
    for (const family of FAMILIES) {
      for (const form of ["referenced", "dereferenced"] as const) {
        it(`are URLs of request bodies whose operation documents 400 under D48 (${family.id}, ${version.id}, ${form})`, () => {
          const { document } = loadDocument(family.id, { version: version.id, form });
          const operations = operationsOf(document);
          const members = webhookTargetMembers(document, operations);
          // Family A's charge webhook_url is the one target the contract has today.
          expect(members.map((m) => `${m.operationId}.${m.member}`)).toEqual(family.id === "family-a" ? ["createCharge.webhook_url"] : []);
          for (const { operationId, member } of members) {
            const operation = operations.find((op) => op.operationId === operationId)!;
            const body = deref<Record<string, any>>(document, operation.requestBody!.schema);
            const schema = deref<Record<string, any>>(document, body.properties[member]);
            expect(schema.format, `${operationId}.${member}`).toBe("uri");
            expect(operation.responses.map((r) => r.status)).toContain("400");
            expect(operation.markings.behaviour.map((b) => b.decision)).toContain("D48");
          }
        });
      }
    }
  }

  it("are found through allOf and $ref, and only where marked true", () => {
    const document = {
      components: { schemas: { Target: { type: "string", format: "uri", "x-webhook-target": true } } },
    };
    const operation = (schema: unknown) => ({ operationId: "op", requestBody: { schema } }) as never;
    const marked = { allOf: [{ properties: { hook: { $ref: "#/components/schemas/Target" } } }], properties: { other: { type: "string", "x-webhook-target": false } } };
    expect(webhookTargetMembers(document, [operation(marked)])).toEqual([{ operationId: "op", member: "hook" }]);
    expect(webhookTargetMembers(document, [operation(undefined)])).toEqual([]);
  });
});
