/**
 * Data the checks need and create through the published interface: a charge to read, customers
 * to read, update and delete, a PIX charge, a transaction, a queried PIX key. Each is created
 * once per run (or fresh when a check consumes it); when the server does not give it, the
 * checks that need it are not applicable, with the reason.
 *
 * Requests are the contract's own examples, so nothing here restates the contract; under seed,
 * properties that exist only because of a decision are left out of them.
 */
import { cpf } from "cpf-cnpj-validator";
import { asserted } from "../core/profiles/document-word.ts";
import { NotApplicable, type FamilyContext, type KeyName } from "../core/check-context.ts";
import { parseJsonBody, type ObservedResponse } from "../core/validate.ts";
import { describeResponse as describe } from "../core/describe-response.ts";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The contract's request example of an operation. Under seed, properties whose schema exists
 * only because of a decision are removed (a server that decided otherwise may refuse them),
 * unless the whole body is a decision (then there is nothing else to send).
 */
export function exampleBody(ctx: FamilyContext, operationId: string): Json {
  const body = ctx.operation(operationId).requestBody;
  if (!body || !isObject(body.example)) return {};
  const example = structuredClone(body.example) as Json;
  // A body that is a decision as a whole is sent as it is: there is nothing else to send.
  if (!asserted(ctx.profile, { kind: "example", schema: body.schema })) return example;
  const strip = (value: Json, schema: unknown): void => {
    if (!isObject(schema) || !isObject(schema.properties)) return;
    for (const [name, sub] of Object.entries(schema.properties)) {
      if (!(name in value)) continue;
      if (!asserted(ctx.profile, { kind: "example", schema: sub })) delete value[name];
      else if (isObject(value[name])) strip(value[name] as Json, sub);
    }
  };
  strip(example, body.schema);
  return example;
}


/** The first string found at one of the given dotted paths of a JSON body. */
export function pick(response: ObservedResponse, paths: string[]): string | undefined {
  const parsed = parseJsonBody(response.body);
  if (!parsed.ok) return undefined;
  for (const path of paths) {
    let node: unknown = parsed.value;
    for (const segment of path.split(".")) node = isObject(node) ? node[segment] : undefined;
    if (typeof node === "string" && node.length > 0) return node;
    if (typeof node === "number") return String(node);
  }
  return undefined;
}

async function create(
  ctx: FamilyContext,
  what: string,
  operationId: string,
  body: Json,
  idPaths: string[],
  options: { key?: KeyName; idempotencyHeader?: string } = {},
): Promise<string> {
  const headers: Record<string, string> = {};
  if (options.idempotencyHeader) headers[options.idempotencyHeader] = ctx.idempotencyKey();
  const response = await ctx.send(operationId, { key: options.key ?? "primary", body, headers, checkId: `provision/${what}` });
  if (response.status < 200 || response.status >= 300) {
    throw new NotApplicable(`could not create ${what} to work with: ${ctx.operation(operationId).method} ${ctx.operation(operationId).path} answered ${describe(response)}`);
  }
  const id = pick(response, idPaths);
  if (!id) throw new NotApplicable(`created ${what}, but found no id in the response (looked at ${idPaths.join(", ")})`);
  return id;
}

// ---------------------------------------------------------------------------------------------
// Family A
// ---------------------------------------------------------------------------------------------

/** A charge of the given key's account, created once per run and key. */
export function charge(ctx: FamilyContext, key: KeyName = "primary"): Promise<string> {
  return ctx.once(`charge:${key}`, () =>
    create(ctx, "a charge", "createCharge", exampleBody(ctx, "createCharge"), ["id"], { key, idempotencyHeader: "Idempotency-Key" }),
  );
}

// ---------------------------------------------------------------------------------------------
// Family B
// ---------------------------------------------------------------------------------------------

/** A valid CPF drawn from the run's seed: nine digits and their two check digits. */
export function freshCpf({ ctx }: { ctx: FamilyContext }): string {
  const digits = ctx.random.digits(9);
  const first = cpf.verifierDigit(digits);
  return `${digits}${first}${cpf.verifierDigit(`${digits}${first}`)}`;
}

/** The contract's customer example with a fresh valid CPF and e-mail (servers may refuse duplicates), drawn from the run's seed. */
export function customerBody(ctx: FamilyContext): Json {
  const body = exampleBody(ctx, "createCustomer");
  body.documentNumber = freshCpf({ ctx });
  body.email = `conformance+${ctx.runId}-${ctx.uuid().slice(0, 8)}@example.com`;
  return body;
}

/** A new customer (for checks that change or delete it). */
export function newCustomer(ctx: FamilyContext, key: KeyName = "primary"): Promise<string> {
  return create(ctx, "a customer", "createCustomer", customerBody(ctx), ["data.id", "id"], { key });
}

/** A customer to read, created once per run. */
export function customer(ctx: FamilyContext): Promise<string> {
  return ctx.once("customer", () => newCustomer(ctx));
}

/** A PIX charge, created once per run. Its id sits where the contract puts it (or in common places). */
export function pixCharge(ctx: FamilyContext): Promise<string> {
  return ctx.once("pix", () =>
    create(ctx, "a PIX charge", "createPixCharge", exampleBody(ctx, "createPixCharge"), ["data.id", "data.pixId", "data.txid", "id"], {
      idempotencyHeader: "X-Idempotency-Key",
    }),
  );
}

/** A transaction, created once per run. */
export function transaction(ctx: FamilyContext): Promise<string> {
  return ctx.once("transaction", async () => {
    const body = exampleBody(ctx, "createTransaction");
    delete body.customerId; // the example names a customer that does not exist on the server
    return create(ctx, "a transaction", "createTransaction", body, ["data.id", "data.transactionId", "id"], {
      idempotencyHeader: "X-Idempotency-Key",
    });
  });
}

/**
 * The EndToEndId of a freshly queried PIX key: what a PIX payment pays. A new query for each
 * payment, since a server may refuse to pay one query twice.
 */
export async function queriedPixKey(ctx: FamilyContext): Promise<string> {
  const response = await ctx.send("queryPixKey", { body: exampleBody(ctx, "queryPixKey"), checkId: "provision/pix-query" });
  if (response.status < 200 || response.status >= 300) {
    throw new NotApplicable(`could not query a PIX key to pay: POST /pix/query answered ${describe(response)}`);
  }
  const endToEndId = pick(response, ["data.endToEndId", "endToEndId"]);
  if (!endToEndId) throw new NotApplicable("queried a PIX key, but found no endToEndId in the response");
  return endToEndId;
}

/**
 * A customer tied to an open charge: the target's fixture, or (full profile) a new customer
 * with a PENDING transaction created for it (transaction shape: decision D15).
 */
export function customerWithOpenCharge(ctx: FamilyContext): Promise<string> {
  const fixture = ctx.familyB?.fixtures.customerWithOpenChargeId;
  if (fixture) return Promise.resolve(fixture);
  // The fallback makes a transaction for the customer: its request shape is a decision (D15).
  const transactionBody = ctx.operation("createTransaction").requestBody;
  if (!transactionBody || !asserted(ctx.profile, { kind: "schema", schema: transactionBody.schema })) {
    return Promise.reject(
      new NotApplicable("the target names no familyB.fixtures.customerWithOpenChargeId (how a customer gets an open charge is the server's own)"),
    );
  }
  return ctx.once("customer-with-open-charge", async () => {
    const id = await newCustomer(ctx);
    const body = { ...exampleBody(ctx, "createTransaction"), customerId: id };
    await create(ctx, "a transaction for the customer", "createTransaction", body, ["data.id", "id"], { idempotencyHeader: "X-Idempotency-Key" });
    return id;
  });
}
