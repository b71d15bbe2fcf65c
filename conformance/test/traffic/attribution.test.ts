/**
 * What a finding of the request body is named after: a member's finding (an unknown member, a
 * wrong type) names the statement of the body, or `contract` where none applies, never a
 * header's statement; the body as a whole (not JSON) names the statement of its media type.
 */
import { describe, expect, it } from "vitest";
import { loadCatalogue } from "../../src/core/statement-map.ts";
import { TrafficEngine, type Violation } from "../../src/traffic/engine.ts";
import type { TrafficExchange } from "../../src/traffic/exchange.ts";
import { familyRoutes, routeByPath } from "../../src/traffic/routing.ts";

const routes = familyRoutes({});
const catalogue = loadCatalogue();

function consumerFindings(method: string, path: string, requestBody: string, profile: "seed" | "full" = "seed"): Violation[] {
  const engine = new TrafficEngine({ profile, routes });
  const exchange: TrafficExchange = {
    id: 1,
    startedAt: 0,
    endedAt: 1,
    method,
    url: `http://api.test${path}`,
    requestHeaders: { "content-type": "application/json", "x-api-key": "sk_live_attribution_test", "idempotency-key": "attribution-0001" },
    requestBody,
    status: 400,
    responseHeaders: { "content-type": "application/json" },
    responseBody: "{}",
  };
  engine.observe(exchange, routeByPath(routes, method, path));
  return engine.summary().consumerFindings;
}

describe("naming a finding of the request body", () => {
  it("an unknown member of POST /v1/charges names the statement of the body's members", () => {
    for (const profile of ["seed", "full"] as const) {
      const found = consumerFindings("POST", "/v1/charges", JSON.stringify({ amount: 1990, method: "pix", colour: "red" }), profile).filter((f) => f.seen.startsWith("colour"));
      expect(found, profile).toMatchObject([{ operationId: "createCharge", naming: { id: "A-CHARGES-FIELD-request-body", kind: "statement" } }]);
    }
  });

  it("a body that is not JSON names the statement of the body's media type", () => {
    const found = consumerFindings("POST", "/v1/charges", "amount=1990");
    expect(found).toMatchObject([{ naming: { id: "A-CHARGES-HEADER-content-type" }, expected: "a JSON body" }]);
  });

  it("no member's finding of any operation is named after a header's statement", () => {
    const named: string[] = [];
    for (const route of routes) {
      for (const op of route.contract.operations.filter((o) => o.requestBody)) {
        const path = op.path.replace(/\{[^}]+\}/g, "x1");
        const members = Object.keys((op.requestBody!.schema as { properties?: object }).properties ?? {});
        // An unknown member, and each member with a value of no JSON Schema type it could have.
        const body = JSON.stringify({ colour: "red", ...Object.fromEntries(members.map((m) => [m, [[{ wrong: true }]]])) });
        for (const finding of consumerFindings(op.method, path, body)) {
          const statement = catalogue.byId.get(finding.naming.id);
          if (statement?.kind === "header") named.push(`${op.operationId}: ${finding.seen} named ${finding.naming.id}`);
        }
      }
    }
    expect(named).toEqual([]);
  });
});
