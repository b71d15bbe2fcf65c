/** Family B response checks of the customers: create, read, update and delete. */
import { customer, customerBody, customerWithOpenCharge, newCustomer } from "../provisioning.ts";
import type { ResponseCheck } from "../response-check.ts";
import { NotApplicable, type FamilyContext } from "../../core/check-context.ts";
import { family, rateLimited, unauthorized, unknownId, userAgentTooLong } from "./support.ts";
import { isDocumentsWord } from "../../core/profiles/document-word.ts";
import { isObject } from "@payment-collection/contract/model/index.ts";

/**
 * The id of a customer that does not exist. Under seed it must come from the target: what a
 * well-formed id looks like is the server's own (decision D30 makes it a UUID).
 */
function unknownCustomerId(ctx: FamilyContext, forDelete: boolean): string {
  const fixture = ctx.familyB?.fixtures.unknownCustomerId;
  if (fixture) return fixture;
  if (forDelete && ctx.profile === "seed") {
    throw new NotApplicable("the target names no familyB.fixtures.unknownCustomerId (what a well-formed customer id is, is the server's own)");
  }
  return unknownId(ctx);
}

export const CUSTOMER_CHECKS: ResponseCheck[] = [
  // POST /api/v1/sdk/customers
  {
    family,
    operationId: "createCustomer",
    status: "201",
    variant: "all-fields",
    title: "the contract's example with a fresh CPF and e-mail",
    request: async (ctx) => ({ body: customerBody(ctx) }),
  },
  {
    family,
    operationId: "createCustomer",
    status: "400",
    variant: "missing-name",
    title: "a customer without the required name",
    request: async (ctx) => {
      const body = customerBody(ctx);
      delete body.name;
      return { body };
    },
  },
  {
    family,
    operationId: "createCustomer",
    status: "400",
    variant: "missing-phoneNumber",
    title: "a customer without the required phoneNumber",
    request: async (ctx) => {
      const body = customerBody(ctx);
      delete body.phoneNumber;
      return { body };
    },
  },
  ...unauthorized("createCustomer", async (ctx, key) => ({ key, body: customerBody(ctx) })),
  rateLimited("createCustomer", async (ctx) => ({ body: customerBody(ctx) })),

  // GET /api/v1/sdk/customers/{id}
  {
    family,
    operationId: "getCustomer",
    status: "200",
    variant: "created-customer",
    title: "a customer created by this run",
    request: async (ctx) => ({ params: { id: await customer(ctx) } }),
  },
  ...unauthorized("getCustomer", async (ctx, key) => ({ key, params: { id: unknownId(ctx) } })),
  userAgentTooLong("getCustomer", async (ctx) => ({ params: { id: await customer(ctx) } })),
  {
    family,
    operationId: "getCustomer",
    status: "404",
    variant: "unknown-id",
    title: "an id no customer has",
    request: async (ctx) => ({ params: { id: unknownCustomerId(ctx, false) } }),
  },
  rateLimited("getCustomer", async (ctx) => ({ params: { id: unknownId(ctx) } })),

  // PUT /api/v1/sdk/customers/{id}
  {
    family,
    operationId: "updateCustomer",
    status: "200",
    variant: "notes",
    title: "new notes for a customer created by this run",
    request: async (ctx) => ({ params: { id: await customer(ctx) }, body: { notes: `updated by conformance run ${ctx.runId}` } }),
  },
  {
    family,
    operationId: "updateCustomer",
    status: "200",
    variant: "null-members",
    title: "null for every member whose null the contract accepts (D23: how a cleared member shows)",
    profile: "full",
    decision: "D23",
    request: async (ctx) => {
      const schema = ctx.operation("updateCustomer").requestBody?.schema ?? {};
      const parts = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf : [])].filter(isObject);
      const members = parts.flatMap((part) => Object.entries(isObject(part.properties) ? part.properties : {})).filter(([, member]) => isObject(member) && !isDocumentsWord({ kind: "keyword", schema: member, keyword: "nullable" }));
      if (members.length === 0) throw new NotApplicable("the contract accepts null for no member of the update");
      return { params: { id: await customer(ctx) }, body: Object.fromEntries(members.map(([name]) => [name, null])) };
    },
  },
  {
    family,
    operationId: "updateCustomer",
    status: "400",
    variant: "no-field",
    title: "an update with no field (at least one is required)",
    request: async (ctx) => ({ params: { id: await customer(ctx) }, body: {} }),
  },
  ...unauthorized("updateCustomer", async (ctx, key) => ({ key, params: { id: unknownId(ctx) }, body: { notes: "x" } })),
  {
    family,
    operationId: "updateCustomer",
    status: "404",
    variant: "unknown-id",
    title: "an id no customer has",
    request: async (ctx) => ({ params: { id: unknownCustomerId(ctx, false) }, body: { notes: "x" } }),
  },
  rateLimited("updateCustomer", async (ctx) => ({ params: { id: unknownId(ctx) }, body: { notes: "x" } })),

  // DELETE /api/sdk/customers/{id}
  {
    family,
    operationId: "deleteCustomer",
    status: "200",
    variant: "new-customer",
    title: "a customer created for the purpose",
    request: async (ctx) => ({ params: { id: await newCustomer(ctx) } }),
  },
  {
    family,
    operationId: "deleteCustomer",
    status: "400",
    variant: "malformed-id",
    title: "an id of an incorrect format",
    errorCode: "OCD001",
    request: async (ctx) => {
      const fixture = ctx.familyB?.fixtures.malformedCustomerId;
      if (fixture) return { params: { id: fixture } };
      if (ctx.profile === "seed") {
        throw new NotApplicable("the target names no familyB.fixtures.malformedCustomerId (what a malformed id is, is the server's own)");
      }
      return { params: { id: "not-a-customer-id" } };
    },
  },
  // D30: a well-formed id is a UUID and nothing else, so one with a character before or after
  // it is as malformed as one of another shape (an anchored check of the form, not a search).
  ...(["x{uuid}", "{uuid}x"] as const).map(
    (form): ResponseCheck => ({
      family,
      operationId: "deleteCustomer",
      status: "400",
      variant: `malformed-id-${form.startsWith("x") ? "prefixed" : "suffixed"}-uuid`,
      title: `an id that is a UUID with one character ${form.startsWith("x") ? "before" : "after"} it`,
      errorCode: "OCD001",
      profile: "full",
      decision: "D30",
      request: async (ctx) => ({ params: { id: form.replace("{uuid}", ctx.uuid()) } }),
    }),
  ),
  ...unauthorized("deleteCustomer", async (ctx, key) => ({ key, params: { id: unknownId(ctx) } })),
  // A well-formed id no customer has: a server that reads past the header deletes nothing.
  userAgentTooLong("deleteCustomer", async (ctx) => ({ params: { id: unknownId(ctx) } })),
  {
    family,
    operationId: "deleteCustomer",
    status: "404",
    variant: "unknown-id",
    title: "a well-formed id no customer has",
    errorCode: "OCD001",
    request: async (ctx) => ({ params: { id: unknownCustomerId(ctx, true) } }),
  },
  {
    family,
    operationId: "deleteCustomer",
    status: "409",
    variant: "open-charge",
    title: "a customer tied to an open charge",
    errorCode: "OCD001",
    // The catalogue marks this statement as not observable; with a customer tied to an open
    // charge (the document's example of an internal rule) it is.
    statements: ["B-ERRORS-ERROR-OCD001-409"],
    request: async (ctx) => ({ params: { id: await customerWithOpenCharge(ctx) } }),
  },
  rateLimited("deleteCustomer", async (ctx) => ({ params: { id: unknownId(ctx) } })),
];
