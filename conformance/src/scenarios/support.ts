/**
 * What the scenarios share: a sender that tags every request with the scenario's id (so a
 * failure shows its exchanges), JSON access to bodies, and the requests several scenarios make
 * (a charge, a customer). Requests are the contract's examples (checks/provisioning.ts).
 */
import { customerBody, exampleBody } from "../checks/provisioning.ts";
import { NotApplicable, type FamilyContext, type RequestOptions } from "../core/check-context.ts";
import type { ScenarioAssertions } from "../core/scenario.ts";
import { errorCodeOf, parseJsonBody, type ObservedResponse } from "../core/validate.ts";
import { describeResponse, quoted } from "../core/describe-response.ts";

export type Json = Record<string, unknown>;

export const is2xx = (response: ObservedResponse) => response.status >= 200 && response.status < 300;
export const is4xx = (response: ObservedResponse) => response.status >= 400 && response.status < 500;

/** The parsed JSON body, or undefined. */
export function json(response: ObservedResponse): Json | undefined {
  const parsed = parseJsonBody(response.body);
  return parsed.ok && typeof parsed.value === "object" && parsed.value !== null ? (parsed.value as Json) : undefined;
}

/**
 * The schema of a member of a documented response body, at a dotted path (`data.status`),
 * looking through `allOf`: what a scenario asks the profile about before it judges the member.
 */
export function responseMemberSchema(ctx: FamilyContext, operationId: string, status: string, path: string): unknown {
  let node: unknown = ctx.operation(operationId).responses.find((r) => r.status === status)?.schema;
  for (const segment of path.split(".")) {
    const parts = typeof node === "object" && node !== null ? [node as Json, ...((node as Json).allOf as Json[] | undefined ?? [])] : [];
    node = parts.map((part) => (part.properties as Json | undefined)?.[segment]).find((found) => found !== undefined);
  }
  return node;
}

/** The value at a dotted path of a JSON body (`pix.br_code`, `data.status`). */
export function at(response: ObservedResponse | Json | undefined, path: string): unknown {
  let node: unknown = response && "status" in response && "body" in response && "headers" in response ? json(response as ObservedResponse) : response;
  for (const segment of path.split(".")) {
    node = typeof node === "object" && node !== null ? (node as Json)[segment] : undefined;
  }
  return node;
}

export function codeOf(response: ObservedResponse): string | undefined {
  return errorCodeOf(json(response));
}

/** A response in a reason: the status and the error's explanation whole (core/describe-response.ts). */
export const describe = describeResponse;

/**
 * Whether the run's profile holds the body of a documented response: under seed a body the
 * project decided (`x-decided-responses` body, e.g. GET /v1/charges/{id}, D06) is not the
 * document's, and a scenario must not read the document's members out of it.
 */
export function bodyIsStated(ctx: FamilyContext, operationId: string, status: string): boolean {
  return ctx.expectation(operationId, status).bodySchema !== undefined;
}

/** Sends requests of one scenario, tagged with its id. */
export function sender(ctx: FamilyContext, scenarioId: string) {
  return (operationId: string, options: RequestOptions = {}) => ctx.send(operationId, { ...options, checkId: scenarioId });
}

/** A customer created and then deleted (soft delete), for the rules about deleted customers: its id and the delete's answer. */
export async function deletedCustomer(ctx: FamilyContext, send: ReturnType<typeof sender>): Promise<{ id: string; deleted: ObservedResponse }> {
  const created = await send("createCustomer", customerRequest(ctx));
  require2xx(created, "create a customer");
  const id = String(at(created, "data.id"));
  const deleted = await send("deleteCustomer", { params: { id } });
  require2xx(deleted, "delete the new customer");
  return { id, deleted };
}

/** Stops the scenario (not applicable) when a request it depends on was refused. */
export function require2xx(response: ObservedResponse, what: string): void {
  if (!is2xx(response)) throw new NotApplicable(`could not ${what}: answered ${describe(response)}`);
}

/** Records a problem unless the response carries the stated error code. */
export function expectCode(check: ScenarioAssertions, response: ObservedResponse, code: string, label: string): void {
  const found = codeOf(response);
  check.that(found === code, `${label}: error code ${found ?? "(none)"}, expected ${code}`);
}

/** A valid charge creation (the contract's example) with the given Idempotency-Key. */
/**
 * A member no schema names, nesting an object (members out of order) and an array: the
 * contract's objects are open, so a server may take it, and an idempotent creation must then
 * compare it as part of the payload, at every depth.
 */
export const UNKNOWN_MEMBER = { "x-conformance-extra": { zeta: [3, 1, { b: true, a: null }], alpha: "text" } };

export function chargeRequest(ctx: FamilyContext, key: string | undefined, overrides: Partial<RequestOptions> = {}): RequestOptions {
  return {
    body: exampleBody(ctx, "createCharge"),
    headers: key === undefined ? {} : { "Idempotency-Key": key },
    ...overrides,
  };
}

/** A valid customer creation with a fresh document number and e-mail. */
export function customerRequest(ctx: FamilyContext, overrides: Partial<RequestOptions> = {}): RequestOptions {
  return { body: customerBody(ctx), ...overrides };
}

/** Compares two JSON values, ignoring member order. */
export function sameJson(a: unknown, b: unknown): boolean {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.keys(value as Json).sort().map((k) => [k, canonical((value as Json)[k])]));
    }
    return value;
  };
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** Members of `expected` whose value differs in `actual` (top level and one level down). */
export function differences(expected: Json, actual: Json, prefix = ""): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(expected)) {
    const other = actual[key];
    if (sameJson(value, other)) continue;
    if (typeof value === "object" && value !== null && !Array.isArray(value) && typeof other === "object" && other !== null && prefix === "") {
      out.push(...differences(value as Json, other as Json, `${key}.`));
    } else {
      out.push(`${prefix}${key}: ${quoted(value, 60)} then ${quoted(other, 60)}`);
    }
  }
  return out;
}
