/**
 * The profiles are derived from the contract's decision markings: `seed` keeps only what the
 * interface description states, `full` adds the project's decisions.
 */
import { describe, expect, it } from "vitest";
import { findOperation, loadFamilyContract } from "@payment-collection/contract/model/index.ts";
import { asserted, decisionBehind, profileSchema, responseExpectation } from "../src/core/profiles/index.ts";
import { responseProblems, type ObservedResponse } from "../src/core/validate.ts";

const a = loadFamilyContract("family-a");
const b = loadFamilyContract("family-b");
const createCharge = findOperation(a, "createCharge");
const chargeSchema = createCharge.responses.find((r) => r.status === "201")!.schema!;

function json(status: number, body: unknown, contentType = "application/json"): ObservedResponse {
  return { status, headers: { "content-type": contentType }, body: JSON.stringify(body) };
}

/** A charge as the contract's example shows it, then changed by `edit`. */
function charge(edit: (c: Record<string, unknown>) => void = () => {}): Record<string, unknown> {
  const example = {
    id: "ch_01M7Z876J0R2V6X9K3T5N0B1C7",
    object: "charge",
    status: "pending",
    amount: 15000,
    currency: "BRL",
    method: "pix",
    reference: null,
    payer: null,
    payer_request: null,
    pix: { br_code: "00020101021226830014br.gov.bcb.pix2561pix.example.com.br/qr/v2/cob/9d36b84fc70b478fb95c12729b90ca255204000053039865802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***63043F3A", txid: "9d36b84fc70b478fb95c12729b90ca25", end_to_end_id: null },
    webhook_url: null,
    expires_at: "2026-11-21T15:30:00Z",
    paid_at: null,
    created_at: "2026-11-21T14:30:00Z",
  };
  edit(example);
  return example;
}

describe("seed schema of Charge", () => {
  const seed = profileSchema(chargeSchema, "seed");
  const full = profileSchema(chargeSchema, "full");

  it("requires no Charge field under seed: the document lists the fields, which of them are required is decision D35", () => {
    expect(full.required).toEqual(expect.arrayContaining(["id", "amount", "status", "payer", "pix", "paid_at", "created_at"]));
    expect(seed.required ?? []).toEqual([]);
  });

  it("drops the decided txid pattern (D04) but keeps the type", () => {
    const pix = propertyOf(seed, "pix");
    const txid = propertyOf(pix, "txid");
    expect(txid.pattern).toBeUndefined();
    expect(txid.type).toBe("string");
  });
});

/** A property of an object schema, looking through `allOf` wrappers (a decided `$ref` keeps its marking beside an `allOf`). */
function propertyOf(schema: Record<string, unknown>, name: string): Record<string, unknown> {
  const own = (schema.properties as Record<string, Record<string, unknown>> | undefined)?.[name];
  if (own) return own;
  for (const branch of (schema.allOf as Array<Record<string, unknown>> | undefined) ?? []) {
    try {
      return propertyOf(branch, name);
    } catch {
      // not in this branch
    }
  }
  throw new Error(`no property ${name}`);
}

describe("charge creation status", () => {
  const seed = responseExpectation(createCharge, "201", "seed");
  const full = responseExpectation(createCharge, "201", "full");

  it("accepts a 200 under seed (the document does not show the code) and demands 201 under full", () => {
    expect(responseProblems(seed, json(200, charge()))).toEqual([]);
    expect(responseProblems(full, json(200, charge()))).toEqual(["status 200, expected 201"]);
    expect(responseProblems(full, json(201, charge()))).toEqual([]);
  });

  it("accepts a charge without payer and reference under seed only", () => {
    const without = charge((c) => {
      delete c.payer;
      delete c.reference;
    });
    expect(responseProblems(seed, json(201, without))).toEqual([]);
    expect(responseProblems(full, json(201, without)).join("\n")).toMatch(/payer/);
  });

  it("still fails a wrong type of a stated field under seed", () => {
    const problems = responseProblems(seed, json(201, charge((c) => (c.amount = "15000"))));
    expect(problems.join("\n")).toMatch(/amount.*integer/);
  });

  it("still fails a stated field of the wrong type under seed", () => {
    expect(responseProblems(seed, json(201, charge((c) => (c.amount = "150.00")))).join("\n")).toMatch(/amount/);
  });

  it("accepts unknown members in both profiles", () => {
    const extra = charge((c) => (c.livemode = true));
    expect(responseProblems(seed, json(201, extra))).toEqual([]);
    expect(responseProblems(full, json(201, extra))).toEqual([]);
  });

  it("accepts a JSON media type with parameters", () => {
    expect(responseProblems(full, json(201, charge(), "application/json; charset=utf-8"))).toEqual([]);
    expect(responseProblems(full, json(201, charge(), "text/plain"))).toHaveLength(1);
  });
});

describe("family A errors", () => {
  const getMerchant = findOperation(a, "getMerchant");

  it("accept any 4xx and any JSON body under seed where status, media type and body are decided (D21)", () => {
    const seed = responseExpectation(getMerchant, "403", "seed");
    expect(responseProblems(seed, json(401, { error: "forbidden" }))).toEqual([]);
    expect(responseProblems(seed, json(200, {}))).toEqual(["status 200, expected any 4xx (contract: 403)"]);
    const full = responseExpectation(getMerchant, "403", "full");
    expect(responseProblems(full, json(401, { code: "INSUFFICIENT_SCOPE" }, "application/problem+json")).join("\n")).toMatch(
      /status 401, expected 403/,
    );
  });

  it("demand application/problem+json under full, any JSON media type under seed (D21)", () => {
    const body = { type: "about:blank", title: "Idempotency-Key required", status: 400, code: "IDEMPOTENCY_KEY_REQUIRED" };
    expect(responseProblems(responseExpectation(createCharge, "400", "seed"), json(400, body))).toEqual([]);
    expect(responseProblems(responseExpectation(createCharge, "400", "full"), json(400, body)).join("\n")).toMatch(
      /Content-Type application\/json, expected application\/problem\+json/,
    );
  });

  it("require Retry-After on a family A 429 under full only: the rate limits of family A are decision D09", () => {
    const body = json(429, { code: "RATE_LIMITED", type: "x", title: "x", status: 429 }, "application/problem+json");
    expect(responseProblems(responseExpectation(createCharge, "429", "full"), body)).toContain("header Retry-After missing (required by the contract)");
    expect(responseProblems(responseExpectation(createCharge, "429", "seed"), body)).not.toContain("header Retry-After missing (required by the contract)");
  });
});

describe("family B", () => {
  it("keeps the documented envelope 2 of a boleto error under seed, with any 4xx (D18)", () => {
    const cancel = findOperation(b, "cancelBoleto");
    const seed = responseExpectation(cancel, "409", "seed");
    const envelope2 = { version: "1.0.0", status: "ERROR", error: { errorCode: "ODE002", message: "not cancellable" } };
    expect(responseProblems(seed, json(422, envelope2))).toEqual([]);
    const envelope1 = { success: false, error: { code: "ODE002", message: "x", details: "y" } };
    expect(responseProblems(seed, json(409, envelope1)).length).toBeGreaterThan(0);
  });

  it("treats PIX shapes as the server's own under seed (D11, D14)", () => {
    const createPix = findOperation(b, "createPixCharge");
    const seed = responseExpectation(createPix, "201", "seed");
    expect(seed.bodySchema).toBeUndefined();
    expect(responseProblems(seed, json(200, { success: true, data: { qr: "anything" } }))).toEqual([]);
    const full = responseExpectation(createPix, "201", "full");
    expect(responseProblems(full, json(201, { success: true, data: { qr: "anything" } })).length).toBeGreaterThan(0);
  });

  it("relaxes the decided customer status enum (D19) to a string under seed", () => {
    const getCustomer = findOperation(b, "getCustomer");
    const body = {
      success: true,
      data: {
        id: "42",
        name: "Maria",
        email: "maria@example.com",
        documentNumber: "12345678909",
        status: "BLOCKED",
        address: { street: "Rua A", number: "1", complement: null, neighborhood: "Centro", city: "São Paulo", state: "SP" },
        notes: null,
        createdAt: "2026-11-21T14:30:00Z",
        updatedAt: null,
      },
      timestamp: "2026-11-21T14:30:00Z",
    };
    expect(responseProblems(responseExpectation(getCustomer, "200", "seed"), json(200, body))).toEqual([]);
    expect(responseProblems(responseExpectation(getCustomer, "200", "full"), json(200, body)).join("\n")).toMatch(/status.*allowed values/);
  });
});

describe("the one answer to 'is this the document's word?'", () => {
  const cancelBoleto = findOperation(b, "cancelBoleto");
  const reason = (cancelBoleto.requestBody!.schema.properties as Record<string, unknown>).reason;
  const amount = (createCharge.requestBody!.schema.properties as Record<string, unknown>).amount;

  it("names the decision behind family A's rate limits and none behind family B's", () => {
    expect(decisionBehind({ kind: "behaviour", node: createCharge, about: "x-rate-limits" })).toBe("D09");
    expect(asserted("seed", { kind: "behaviour", node: findOperation(a, "getMerchant"), about: "x-rate-limits" })).toBe(false);
    expect(asserted("seed", { kind: "behaviour", node: findOperation(b, "createPixCharge"), about: "x-rate-limits" })).toBe(true);
    expect(asserted("full", { kind: "behaviour", node: createCharge, about: "x-rate-limits" })).toBe(true);
  });

  it("answers per keyword: a cancel reason's 200 characters are the document's, that it is required is D18", () => {
    expect(decisionBehind({ kind: "keyword", schema: reason, keyword: "maxLength" })).toBeUndefined();
    expect(decisionBehind({ kind: "keyword", schema: reason, keyword: "required" })).toBe("D18");
    expect(decisionBehind({ kind: "keyword", schema: amount, keyword: "minimum" })).toBe("D03");
    expect(decisionBehind({ kind: "keyword", schema: amount, keyword: "exclusiveMaximum" })).toBe("D03");
    expect(decisionBehind({ kind: "keyword", schema: amount, keyword: "type" })).toBeUndefined();
  });

  it("answers per error code where a response marking names codes", () => {
    const response = cancelBoleto.responses.find((r) => r.status === "400")!;
    expect(asserted("seed", { kind: "response", response, aspect: "status", code: "OBE001" })).toBe(true);
    expect(decisionBehind({ kind: "response", response, aspect: "status", code: "ODE003" })).toBe("D18");
    // Without the code a check provokes, the marking relaxes: seed never holds a decision against a server.
    expect(asserted("seed", { kind: "response", response, aspect: "status" })).toBe(false);
  });

  it("drops the keywords it names from the seed schema, and only those", () => {
    const seed = profileSchema(cancelBoleto.requestBody!.schema, "seed");
    expect(seed.required).toEqual([]);
    expect((seed.properties as Record<string, Record<string, unknown>>).reason!.maxLength).toBe(200);
    const full = profileSchema(cancelBoleto.requestBody!.schema, "full");
    expect(full.required).toEqual(["reason"]);
  });
});
