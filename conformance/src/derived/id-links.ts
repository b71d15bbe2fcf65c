/**
 * Which records an operation's path parameter names, derived from the contract: a parameter
 * `{p}` after the literal segment `s` (`/pix/{pixId}`, `/api/sdk/customers/{id}`) names a
 * record of resource `s`; the record is made by the operation that POSTs to a path ending in
 * `/s` without parameters, and read by the GET of `.../s/{p}`. The id of a created record is
 * the first of the usual id members found in its response.
 *
 * The contract gives no link in two places, named here and nowhere else:
 * - boletos have no creation operation: their ids come from the target's fixtures;
 * - a body member ending in `Id` (`endToEndId`, `customerId`) takes the last value of a
 *   response member of the same name the run saw (a PIX payment pays the key a query returned).
 */
import type { ContractOperation, FamilyContract } from "@payment-collection/contract/model/index.ts";
import type { FamilyContext } from "../core/check-context.ts";
import { isObject } from "./shared.ts";

/** Members that carry a record's id, most specific first after the parameter's own name. */
export const ID_MEMBERS = ["id", "transactionId", "pixId", "boletoId", "txid"];

/** Records of a resource no operation creates, from the target's fixtures. */
export const FIXTURE_RECORDS: Record<string, { readable: (ctx: FamilyContext) => string[]; take: (ctx: FamilyContext) => string; peek: (ctx: FamilyContext) => string }> = {
  boleto: {
    readable: (ctx) => [...(ctx.familyB?.fixtures.registeredBoletoIds ?? []).slice(0, 1), ...(ctx.familyB?.fixtures.confirmedBoletoId ? [ctx.familyB.fixtures.confirmedBoletoId] : [])],
    // A change that succeeds consumes the boleto; one expected to be refused only peeks.
    take: (ctx) => ctx.takeRegisteredBoleto(),
    peek: (ctx) => ctx.peekRegisteredBoleto(),
  },
};

/** Path parameters of an operation. */
export function pathParameters(op: ContractOperation): string[] {
  return op.parameters.filter((p) => p.in === "path").map((p) => p.name);
}

/** The resource a path parameter names: the literal segment before it. */
export function resourceOf(op: ContractOperation, parameter: string): string | undefined {
  const segments = op.path.split("/");
  const at = segments.indexOf(`{${parameter}}`);
  return at > 0 ? segments[at - 1] : undefined;
}

/** The last literal segment of a path: the resource a POST to it creates. */
export const lastLiteral = (path: string) => path.split("/").filter((s) => s && !s.startsWith("{")).pop();

/** The operation that creates records of a resource (POST .../resource, no parameters). */
export function creationOf(contract: FamilyContract, resource: string): ContractOperation | undefined {
  return contract.operations.find((o) => o.method === "POST" && pathParameters(o).length === 0 && lastLiteral(o.path) === resource);
}

/** The operation that reads one record: GET .../resource/{parameter}. */
export function readOf(contract: FamilyContract, resource: string, parameter: string): ContractOperation | undefined {
  return contract.operations.find((o) => o.method === "GET" && o.path.endsWith(`/${resource}/{${parameter}}`));
}

/** Operations that create records: POSTs without path parameters whose resource some other operation takes. */
export function isCreation(contract: FamilyContract, op: ContractOperation): boolean {
  const resource = lastLiteral(op.path);
  return (
    op.method === "POST" &&
    pathParameters(op).length === 0 &&
    contract.operations.some((o) => pathParameters(o).some((p) => resourceOf(o, p) === resource))
  );
}

/** Header parameters that carry an idempotency key (each replay needs a fresh one). */
export function idempotencyHeaders(op: ContractOperation): string[] {
  return op.parameters.filter((p) => p.in === "header" && /idempotency/i.test(p.name)).map((p) => p.name);
}

/**
 * Operations that make a record: the creations above, and any POST without path parameters
 * that takes an idempotency key (a PIX payment: no operation reads it back, yet each request
 * that succeeds makes one).
 */
export function createsRecord(contract: FamilyContract, op: ContractOperation): boolean {
  return isCreation(contract, op) || (op.method === "POST" && pathParameters(op).length === 0 && idempotencyHeaders(op).length > 0);
}

/** A change of one record: a request other than GET that names the record in its path. */
export function changesRecord(op: ContractOperation): boolean {
  return op.method !== "GET" && pathParameters(op).length > 0;
}

/** A list: a GET without path parameters whose success body holds an array. */
export function isList(op: ContractOperation): boolean {
  if (op.method !== "GET" || pathParameters(op).length > 0) return false;
  const success = op.responses.find((r) => r.status.startsWith("2"));
  return JSON.stringify(success?.schema ?? {}).includes('"type":"array"');
}

/** The id of the record a creation response carries. */
export function createdIdOf(body: unknown, parameter?: string): string | undefined {
  const names = [...(parameter ? [parameter] : []), ...ID_MEMBERS];
  for (const holder of [isObject(body) ? body.data : undefined, body]) {
    if (!isObject(holder)) continue;
    for (const name of names) {
      const value = holder[name];
      if (typeof value === "string" && value.length > 0) return value;
      if (typeof value === "number") return String(value);
    }
  }
  return undefined;
}

/** Body members that take their value from an earlier response (see the module comment). */
export function isLinkedMember(name: string): boolean {
  return /Id$/.test(name);
}

/** The last value of a member `name` found (two levels deep) in the given bodies. */
export function lastValueOf(bodies: unknown[], name: string): string | undefined {
  for (const body of [...bodies].reverse()) {
    for (const holder of [body, isObject(body) ? body.data : undefined]) {
      if (isObject(holder) && typeof holder[name] === "string") return holder[name] as string;
    }
  }
  return undefined;
}

/** The operation that reads one record of a resource: GET .../resource/{any}. */
export function readerOfResource(contract: FamilyContract, resource: string): ContractOperation | undefined {
  return contract.operations.find((o) => o.method === "GET" && new RegExp(`/${resource}/\\{[^}]+\\}$`).test(o.path));
}
