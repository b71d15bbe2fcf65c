/**
 * A charge's expiry is its creation plus its lifetime in whole seconds. Family A, D02: "The
 * charge's `expires_at` is `created_at` plus `expires_in`". Family B, D14: `expiresIn` is
 * seconds, default 86400, the PIX charge's lifetime "as `calendario.expiracao` of the BCB Pix
 * API" (the contract's description), which the Central Bank counts from the creation
 * (`calendario.criacao`): `expiresAt` is `createdAt` plus `expiresIn`. Held with the value the
 * request gave and with the contract's default when it gave none. The creation's answer alone
 * shows it, so these are response checks (full profile: the document gives the lifetime no
 * meaning), and no clock control is needed. Compared to the second: RFC 3339 timestamps may
 * carry fractions of a second, or none.
 */
import { keywordOf, objectView } from "../derived/request-schema.ts";
import { NotApplicable, type FamilyContext, type RequestOptions } from "../core/check-context.ts";
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import type { ObservedResponse } from "../core/validate.ts";
import { exampleBody, pick } from "./provisioning.ts";
import type { ResponseCheck } from "./response-check.ts";

/** Where a family names the lifetime (in the request) and the two times (in the creation's answer). */
export interface LifetimeMembers {
  lifetime: string;
  createdAt: string;
  expiresAt: string;
}

/**
 * The lifetime the checks give: within D02's and D14's bounds, unlike the default, and not a
 * whole number of minutes, so that a server reading it in another unit shows.
 */
export const GIVEN_LIFETIME_SECONDS = 3661;

/** A numeric keyword (`default`, `minimum`) of the request member that gives the lifetime, from the contract. */
export function lifetimeKeyword(ctx: FamilyContext, operationId: string, member: string, keyword: "default" | "minimum"): number {
  const body = ctx.operation(operationId).requestBody;
  const schema = objectView(body?.schema)?.properties[member];
  const value = schema ? keywordOf(schema, keyword) : undefined;
  if (typeof value !== "number") throw new NotApplicable(`the contract gives ${operationId}'s ${member} no ${keyword}`);
  return value;
}

/** The contract's example of a creation with the lifetime given, or left out (undefined). */
export function bodyWithLifetime(ctx: FamilyContext, operationId: string, member: string, seconds: number | undefined): Record<string, unknown> {
  const body = exampleBody(ctx, operationId);
  delete body[member];
  return seconds === undefined ? body : { ...body, [member]: seconds };
}

/** Why the creation's expiry is not its creation plus `seconds` (none when the times cannot be read: the schema check says so). */
export function expiryProblems(response: ObservedResponse, members: LifetimeMembers, seconds: number, decision: string): string[] {
  const createdText = pick(response, [members.createdAt]);
  const expiresText = pick(response, [members.expiresAt]);
  const createdAt = Date.parse(createdText ?? "");
  const expiresAt = Date.parse(expiresText ?? "");
  if (Number.isNaN(createdAt) || Number.isNaN(expiresAt)) return [];
  if (Math.abs(expiresAt - (createdAt + seconds * 1000)) < 1000) return [];
  const name = (path: string) => path.split(".").pop();
  return [
    `${decision}: ${name(members.expiresAt)} ${expiresText} is ${(expiresAt - createdAt) / 1000} s after ${name(members.createdAt)} ${createdText}, expected ${seconds} s (${new Date(createdAt + seconds * 1000).toISOString()})`,
  ];
}

/**
 * The two checks of a family's creation: a lifetime given ({@link GIVEN_LIFETIME_SECONDS}) and
 * none (the contract's default); `request` wraps the body in the family's request.
 */
export function lifetimeChecks(spec: {
  family: FamilyId;
  operationId: string;
  decision: string;
  members: LifetimeMembers;
  statements: string[];
  request(ctx: FamilyContext, body: Record<string, unknown>): RequestOptions;
}): ResponseCheck[] {
  const { family, operationId, decision, members, statements } = spec;
  const base = { family, operationId, status: "201", profile: "full" as const, decision, statements };
  return [
    {
      ...base,
      variant: "lifetime-given",
      title: `${members.lifetime} ${GIVEN_LIFETIME_SECONDS}: the expiry is the creation plus ${GIVEN_LIFETIME_SECONDS} s`,
      request: async (ctx) => spec.request(ctx, bodyWithLifetime(ctx, operationId, members.lifetime, GIVEN_LIFETIME_SECONDS)),
      assess: (_ctx, response) => expiryProblems(response, members, GIVEN_LIFETIME_SECONDS, decision),
    },
    {
      ...base,
      variant: "lifetime-default",
      title: `no ${members.lifetime}: the expiry is the creation plus the contract's default`,
      request: async (ctx) => {
        lifetimeKeyword(ctx, operationId, members.lifetime, "default");
        return spec.request(ctx, bodyWithLifetime(ctx, operationId, members.lifetime, undefined));
      },
      assess: (ctx, response) => expiryProblems(response, members, lifetimeKeyword(ctx, operationId, members.lifetime, "default"), `${decision} (default)`),
    },
  ];
}
