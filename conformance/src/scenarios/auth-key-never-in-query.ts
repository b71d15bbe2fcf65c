/**
 * "The key must never be sent in a URL query" (family B; family A: the key travels in the
 * `x-api-key` header): a valid key sent only as a query parameter, under the names a server
 * might read, is not accepted: the request is answered as one without a key.
 */
import type { FamilyContext } from "../core/check-context.ts";
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import type { Scenario, ScenarioAssertions } from "../core/scenario.ts";
import { describe, expectCode, sender } from "./support.ts";

/** Query parameter names under which a server could be tempted to read a key. */
const NAMES = (header: string) => [...new Set([header, header.toLowerCase(), "api_key", "apiKey", "key"])];

async function keyOnlyInQuery(ctx: FamilyContext, check: ScenarioAssertions, id: string, operationId: string): Promise<void> {
  const send = sender(ctx, id);
  const key = ctx.keyValue("primary")!;
  const query = Object.fromEntries(NAMES(ctx.contract.apiKeyHeader).map((name) => [name, key]));
  const response = await send(operationId, { key: "none", query });
  // Family A's 401 status is decision D21: under seed any refusal counts; family B states 401.
  const refused = ctx.family === "family-b" ? response.status === 401 : response.status >= 400 && response.status < 500;
  check.that(refused, `the primary key sent only in the URL query was answered ${describe(response)}, expected a 401 as without a key`);
  if (refused) {
    check.response(operationId, "401", response);
    if (ctx.family === "family-b") expectCode(check, response, "UNAUTHORIZED", "key in the query");
  }
}

function scenario(family: FamilyId, operationId: string, statements: string[]): Scenario {
  return {
    id: `${family}/auth/key-never-in-query`,
    family,
    profile: "seed",
    title: "a key sent only in the URL query is not accepted",
    statements,
    covers: [{ operationId, status: "401" }],
    run(ctx, check) {
      return keyOnlyInQuery(ctx, check, this.id, operationId);
    },
  };
}

export const keyNeverInQueryA = scenario("family-a", "getMerchant", ["A-AUTH-AUTH-header"]);
export const keyNeverInQueryB = scenario("family-b", "getHealth", ["B-AUTH-AUTH-never-in-query", "B-AUTH-AUTH-header", "B-AUTH-ERROR-unauthorized"]);
