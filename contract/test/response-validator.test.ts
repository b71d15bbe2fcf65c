/**
 * The model's response validator (src/model/response-validator.ts) that the sandbox tests and
 * the conformance scenarios rely on: it accepts the contract's own examples and catches each
 * kind of non-conformance a server can commit. (Moved here from the sandbox's tests.)
 */
import { describe, expect, it } from "vitest";
import { createResponseValidator, listOperations, loadContractDocuments } from "../src/model/index.ts";

const validator = createResponseValidator(loadContractDocuments());

function concretePath(template: string): string {
  return template.replace(/\{[^}]+\}/g, "abc123");
}

describe("operation matching", () => {
  it("prefers literal segments and honours the method", () => {
    expect(validator.index.match("POST", "/pix/query")?.operationId).toBe("queryPixKey");
    expect(validator.index.match("GET", "/pix/query")?.operationId).toBe("getPixCharge");
    expect(validator.index.match("GET", "/pix/p1/qrcode")?.pathParams).toEqual({ pixId: "p1" });
    expect(validator.index.match("DELETE", "/api/sdk/customers/c%2F1")?.pathParams).toEqual({ id: "c/1" });
    expect(validator.index.match("PATCH", "/v1/charges/ch_1")).toBeNull();
    expect(validator.index.allowedMethods("/api/v1/sdk/customers/c1").sort()).toEqual(["GET", "PUT"]);
  });
});

describe("the contract's examples", () => {
  it("conform to the contract", () => {
    let checked = 0;
    for (const op of listOperations(loadContractDocuments())) {
      for (const response of op.responses) {
        for (const media of response.content) {
          if (media.example === undefined) continue;
          const headers: Record<string, string> = { "content-type": media.mediaType };
          for (const header of response.headers) if (header.required) headers[header.name] = "1";
          const check = validator.validate({ method: op.method, url: concretePath(op.path), status: Number(response.status), headers, body: JSON.stringify(media.example) });
          expect(check.operation?.operationId).toBe(op.operationId);
          expect(check.problems, `${op.operationId} ${response.status}`).toEqual([]);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(25);
  });
});

describe("non-conformance", () => {
  const charge = validator.index.byOperationId("getCharge")!;
  const example = charge.responses.find((r) => r.status === "200")!.example as Record<string, unknown>;
  const base = { method: "GET", url: "/v1/charges/ch_1", status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(example) };

  it("is caught for an undocumented status", () => {
    expect(validator.validate({ ...base, status: 418 }).problems.join()).toMatch(/not documented/);
  });

  it("is caught for a wrong media type", () => {
    expect(validator.validate({ ...base, headers: { "content-type": "text/plain" } }).problems.join()).toMatch(/Content-Type/);
    expect(validator.validate({ ...base, headers: {} }).problems.join()).toMatch(/Content-Type is missing/);
  });

  it("is caught for a body that breaks the schema or is not JSON", () => {
    expect(validator.validate({ ...base, body: JSON.stringify({ ...example, amount: "15000" }) }).problems.join()).toMatch(/amount/);
    expect(validator.validate({ ...base, body: JSON.stringify({ ...example, status: "unknown" }) }).problems.join()).toMatch(/status/);
    const { paid_at: _omitted, ...withoutPaidAt } = example;
    expect(validator.validate({ ...base, body: JSON.stringify(withoutPaidAt) }).problems.join()).toMatch(/paid_at/);
    expect(validator.validate({ ...base, body: "{" }).problems.join()).toMatch(/not JSON/);
  });

  it("is caught for a missing required header and a header of the wrong type", () => {
    const limited = { method: "GET", url: "/v1/merchant", status: 429, body: JSON.stringify({ type: "t", title: "t", status: 429, code: "RATE_LIMITED" }) };
    expect(validator.validate({ ...limited, headers: { "content-type": "application/problem+json" } }).problems.join()).toMatch(/Retry-After/);
    const wrongType = validator.validate({ ...limited, headers: { "content-type": "application/problem+json", "retry-after": "soon" } });
    expect(wrongType.problems.join()).toMatch(/Retry-After/);
    const fine = validator.validate({ ...limited, headers: { "content-type": "application/problem+json", "retry-after": "3", "x-ratelimit-reset": "1795300500" } });
    expect(fine.problems).toEqual([]);
  });

  it("reports nothing for a request no operation documents", () => {
    expect(validator.validate({ method: "GET", url: "/nowhere", status: 404, headers: {}, body: "" })).toEqual({ operation: null, problems: [] });
  });
});
