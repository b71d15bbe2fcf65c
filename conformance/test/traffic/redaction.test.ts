/**
 * Keys never appear in any output, wherever a client put them: the key header, a query
 * parameter named like a key, an Authorization header.
 */
import { describe, expect, it } from "vitest";
import { TrafficEngine, violationLine } from "../../src/traffic/engine.ts";
import { familyRoutes, routeByPath } from "../../src/traffic/routing.ts";
import { keyFingerprint } from "../../src/traffic/exchange.ts";

describe("key redaction", () => {
  it("replaces a key sent in the query by its fingerprint and never prints an Authorization header", () => {
    const routes = familyRoutes({});
    const engine = new TrafficEngine({ profile: "seed", routes });
    const secret = "sk_live_only_in_the_query_123";
    const token = "Bearer a-session-token-456";
    engine.observe(
      {
        id: 1,
        startedAt: 0,
        endedAt: 1,
        method: "GET",
        url: `http://api.test/v1/merchant?api_key=${secret}`,
        requestHeaders: { authorization: token },
        status: 500,
        responseHeaders: { "content-type": "application/json" },
        responseBody: JSON.stringify({ echo: secret }),
      },
      routeByPath(routes, "GET", "/v1/merchant"),
    );
    const summary = engine.summary();
    const text = [JSON.stringify(summary), ...summary.violations.map(violationLine), ...summary.consumerFindings.map(violationLine)].join("\n");
    expect(summary.violations.length + summary.consumerFindings.length).toBeGreaterThan(0);
    expect(text).not.toContain(secret);
    expect(text).not.toContain("a-session-token-456");
    expect(text).toContain(keyFingerprint(secret));
    expect(text).toContain("authorization: <redacted>");
  });
});
