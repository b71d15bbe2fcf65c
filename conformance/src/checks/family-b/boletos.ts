/** Family B response checks of the boletos: read and cancel. Boletos are the target's fixtures. */
import { exampleBody } from "../provisioning.ts";
import type { ResponseCheck } from "../response-check.ts";
import { NotApplicable, type FamilyContext } from "../../core/check-context.ts";
import { family, rateLimited, unauthorized, unknownId, userAgentTooLong } from "./support.ts";

/** A boleto the target names, for reading (reading changes nothing). */
function anyBoleto(ctx: FamilyContext): string {
  const fixtures = ctx.familyB?.fixtures;
  const id = fixtures?.registeredBoletoIds[0] ?? fixtures?.confirmedBoletoId;
  if (!id) throw new NotApplicable("the target names no boleto (familyB.fixtures.registeredBoletoIds or confirmedBoletoId)");
  return id;
}

/** The document's maximum length of a cancellation reason (inclusive). */
const REASON_LIMIT = 200;

/** A boleto that is not REGISTERED: the target's CONFIRMED one, or one this run canceled. */
async function notRegisteredBoleto(ctx: FamilyContext): Promise<string> {
  const confirmed = ctx.familyB?.fixtures.confirmedBoletoId;
  if (confirmed) return confirmed;
  const canceled = ctx.notes.get("canceled-boleto");
  if (canceled) return canceled;
  throw new NotApplicable("the target names no familyB.fixtures.confirmedBoletoId and this run canceled no boleto");
}

export const BOLETO_CHECKS: ResponseCheck[] = [
  // GET /sdk/boleto/{boletoId}
  {
    family,
    operationId: "getBoleto",
    status: "200",
    variant: "fixture-boleto",
    title: "a boleto the target names",
    request: async (ctx) => ({ params: { boletoId: anyBoleto(ctx) } }),
  },
  {
    family,
    operationId: "getBoleto",
    status: "400",
    variant: "internal-error",
    title: "an internal error during the call (OBE001)",
    errorCode: "OBE001",
    unreachable: "OBE001 reports an internal error of the server; no client request can provoke it",
    request: async () => ({}),
  },
  ...unauthorized("getBoleto", async (ctx, key) => ({ key, params: { boletoId: unknownId(ctx) } })),
  userAgentTooLong("getBoleto", async (ctx) => ({ params: { boletoId: anyBoleto(ctx) } })),
  {
    family,
    operationId: "getBoleto",
    status: "404",
    variant: "unknown-id",
    title: "an id no boleto has",
    request: async (ctx) => ({ params: { boletoId: unknownId(ctx) } }),
  },
  rateLimited("getBoleto", async (ctx) => ({ params: { boletoId: unknownId(ctx) } })),

  // DELETE /api/v1/sdk/boleto/{boletoId}/cancel
  {
    family,
    operationId: "cancelBoleto",
    status: "200",
    variant: "registered-boleto",
    title: "a REGISTERED boleto with a reason of 200 characters",
    // The document's limit is inclusive: a reason of exactly 200 characters is accepted.
    request: async (ctx) => {
      const boletoId = ctx.takeRegisteredBoleto();
      ctx.notes.set("boleto-to-cancel", boletoId);
      return { params: { boletoId }, body: { reason: "r".repeat(REASON_LIMIT) } };
    },
    after: (ctx) => ctx.notes.set("canceled-boleto", ctx.notes.get("boleto-to-cancel") ?? ""),
  },
  {
    family,
    operationId: "cancelBoleto",
    status: "400",
    variant: "reason-too-long",
    title: "a reason of 201 characters on a REGISTERED boleto",
    errorCode: "ODE003",
    // Before the boleto is canceled by the 200 check: the refusal must leave it REGISTERED.
    order: -1,
    request: async (ctx) => ({ params: { boletoId: ctx.peekRegisteredBoleto() }, body: { reason: "r".repeat(REASON_LIMIT + 1) } }),
  },
  ...unauthorized("cancelBoleto", async (ctx, key) => ({ key, params: { boletoId: unknownId(ctx) }, body: { reason: "x" } })),
  {
    family,
    operationId: "cancelBoleto",
    status: "404",
    variant: "unknown-id",
    title: "an id no boleto has",
    errorCode: "ODE001",
    request: async (ctx) => ({ params: { boletoId: unknownId(ctx) }, body: exampleBody(ctx, "cancelBoleto") }),
  },
  {
    family,
    operationId: "cancelBoleto",
    status: "409",
    variant: "not-registered",
    title: "a boleto that is not REGISTERED",
    errorCode: "ODE002",
    // After the 200 check, whose canceled boleto it may use.
    order: 1,
    request: async (ctx) => ({ params: { boletoId: await notRegisteredBoleto(ctx) }, body: exampleBody(ctx, "cancelBoleto") }),
  },
  rateLimited("cancelBoleto", async (ctx) => ({ params: { boletoId: unknownId(ctx) }, body: exampleBody(ctx, "cancelBoleto") })),
];
