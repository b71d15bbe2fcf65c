/** Family B response checks of PIX: charges, their QR code, key queries and payments. */
import { idempotencyConflictChecks } from "../idempotency.ts";
import { lifetimeChecks } from "../lifetime.ts";
import { exampleBody, pixCharge, queriedPixKey } from "../provisioning.ts";
import type { ResponseCheck } from "../response-check.ts";
import { family, rateLimited, unauthorized, unknownId, userAgentTooLong, withIdempotencyKey } from "./support.ts";

export const PIX_CHECKS: ResponseCheck[] = [
  // POST /pix
  {
    family,
    operationId: "createPixCharge",
    status: "201",
    variant: "example",
    title: "the contract's example",
    request: async (ctx) => ({ body: exampleBody(ctx, "createPixCharge"), headers: withIdempotencyKey(ctx) }),
  },
  ...lifetimeChecks({
    family,
    operationId: "createPixCharge",
    decision: "D14",
    members: { lifetime: "expiresIn", createdAt: "data.createdAt", expiresAt: "data.expiresAt" },
    statements: ["B-PIX-ENDPOINT-create"],
    request: (ctx, body) => ({ body, headers: withIdempotencyKey(ctx) }),
  }),
  {
    family,
    operationId: "createPixCharge",
    status: "400",
    variant: "no-amount",
    title: "a PIX charge without amount",
    // That POST /pix requires amount is decision D14 (x-decided required): the document names the member only.
    profile: "full",
    decision: "D14",
    request: async (ctx) => ({ body: {}, headers: withIdempotencyKey(ctx) }),
  },
  ...unauthorized("createPixCharge", async (ctx, key) => ({ key, body: exampleBody(ctx, "createPixCharge") })),
  ...idempotencyConflictChecks({
    family,
    operationId: "createPixCharge",
    header: "X-Idempotency-Key",
    decision: "D36",
    request: async (ctx, key) => ({ body: exampleBody(ctx, "createPixCharge"), headers: { "X-Idempotency-Key": key } }),
  }),
  rateLimited("createPixCharge", async (ctx) => ({ body: exampleBody(ctx, "createPixCharge") })),

  // GET /pix/{pixId}/qrcode and GET /pix/{pixId}
  ...(["getPixQrCode", "getPixCharge"] as const).flatMap((operationId): ResponseCheck[] => [
    {
      family,
      operationId,
      status: "200",
      variant: "created-pix-charge",
      title: "a PIX charge created by this run",
      request: async (ctx) => ({ params: { pixId: await pixCharge(ctx) } }),
    },
    ...unauthorized(operationId, async (ctx, key) => ({ key, params: { pixId: unknownId(ctx) } })),
    userAgentTooLong(operationId, async (ctx) => ({ params: { pixId: await pixCharge(ctx) } })),
    {
      family,
      operationId,
      status: "404",
      variant: "unknown-id",
      title: "an id no PIX charge has",
      request: async (ctx) => ({ params: { pixId: unknownId(ctx) } }),
    },
    rateLimited(operationId, async (ctx) => ({ params: { pixId: unknownId(ctx) } })),
  ]),

  // POST /pix/query
  {
    family,
    operationId: "queryPixKey",
    status: "200",
    variant: "example-key",
    title: "the contract's example key",
    request: async (ctx) => ({ body: exampleBody(ctx, "queryPixKey") }),
  },
  {
    family,
    operationId: "queryPixKey",
    status: "400",
    variant: "no-key",
    title: "a query without key",
    profile: "full",
    decision: "D14",
    request: async () => ({ body: {} }),
  },
  ...unauthorized("queryPixKey", async (ctx, key) => ({ key, body: exampleBody(ctx, "queryPixKey") })),
  {
    family,
    operationId: "queryPixKey",
    status: "404",
    variant: "unknown-key",
    title: "a PIX key nobody holds",
    profile: "full",
    decision: "D14",
    request: async (ctx) => ({ body: { key: `nobody-${ctx.runId}@example.invalid` } }),
  },
  rateLimited("queryPixKey", async (ctx) => ({ body: exampleBody(ctx, "queryPixKey") })),

  // POST /pix/payment
  {
    family,
    operationId: "createPixPayment",
    status: "201",
    variant: "queried-key",
    title: "a payment of the key queried by this run",
    request: async (ctx) => ({
      body: { ...exampleBody(ctx, "createPixPayment"), endToEndId: await queriedPixKey(ctx) },
      headers: withIdempotencyKey(ctx),
    }),
  },
  {
    family,
    operationId: "createPixPayment",
    status: "400",
    variant: "no-amount",
    title: "a payment without amount",
    profile: "full",
    decision: "D14",
    request: async (ctx) => {
      const body = { ...exampleBody(ctx, "createPixPayment"), endToEndId: await queriedPixKey(ctx) };
      delete (body as Record<string, unknown>).amount;
      return { body, headers: withIdempotencyKey(ctx) };
    },
  },
  ...unauthorized("createPixPayment", async (ctx, key) => ({ key, body: exampleBody(ctx, "createPixPayment") })),
  {
    family,
    operationId: "createPixPayment",
    status: "404",
    variant: "unknown-end-to-end-id",
    title: "a payment of an EndToEndId no query returned",
    profile: "full",
    decision: "D14",
    request: async (ctx) => ({
      body: { ...exampleBody(ctx, "createPixPayment"), endToEndId: `E00000000${"2".repeat(12)}${ctx.runId.padEnd(11, "0").slice(0, 11)}` },
      headers: withIdempotencyKey(ctx),
    }),
  },
  ...idempotencyConflictChecks({
    family,
    operationId: "createPixPayment",
    header: "X-Idempotency-Key",
    decision: "D36",
    request: async (ctx, key) => ({ body: { ...exampleBody(ctx, "createPixPayment"), endToEndId: await queriedPixKey(ctx) }, headers: { "X-Idempotency-Key": key } }),
  }),
  rateLimited("createPixPayment", async (ctx) => ({ body: exampleBody(ctx, "createPixPayment") })),
];
