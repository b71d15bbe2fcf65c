/**
 * The contract model: loading, the operation type (parameters, bodies, responses, markings,
 * scopes), $ref following, matching, response validation under OpenAPI 3.0 and 3.1, and the
 * domain formats every validator of the model knows.
 */
import { describe, expect, it } from "vitest";
import {
  compileOpenApiSchema,
  componentSchemasReachedBy,
  createResponseValidator,
  deref,
  domainFormatProblem,
  domainFormatReason,
  findOperation,
  findResponse,
  listOperations,
  loadContractDocuments,
  loadDocument,
  loadFamilyContract,
  OperationIndex,
  operationsOf,
  responseFor,
  schemaErrorText,
  schemasReachedBy,
  tiedRefusalCode,
  type OpenApiVersionId,
} from "../src/model/index.ts";
import { bankLineProblem, barCodeProblem, barCodeToBankLine, boletoGeneralCheckDigit } from "../src/domain/domain-checks.ts";

const CPF = "52998224725";
const CNPJ = "12345678000195";
/** A BR Code of the contract's examples (family A, getCharge). */
const BR_CODE =
  "00020101021226830014br.gov.bcb.pix2561pix.example.com.br/qr/v2/cob/9d36b84fc70b478fb95c12729b90ca255204000053039865802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***63043F3A";
const BARCODE = "34198166100001500001090000012345678901234500";
const BANK_LINE = "34191090080001234567489012345008816610000150000";

describe("loading", () => {
  it("reads each document once, in both versions and forms", () => {
    expect(loadDocument("family-a").document).toBe(loadDocument("family-a", { version: "3.1", form: "dereferenced" }).document);
    expect(String(loadDocument("family-a", { version: "3.0" }).document.openapi)).toMatch(/^3\.0/);
    expect(String(loadDocument("family-b", { form: "referenced" }).document.openapi)).toMatch(/^3\.1/);
    expect(loadContractDocuments().map((d) => d.service)).toEqual(["family-a", "family-b", "sandbox-controls"]);
  });

  it("lists the same operations from the referenced and the dereferenced document", () => {
    for (const version of ["3.0", "3.1"] as const) {
      const ids = (form: "referenced" | "dereferenced") => operationsOf(loadDocument("family-b", { version, form }).document).map((o) => o.operationId);
      expect(ids("referenced")).toEqual(ids("dereferenced"));
    }
  });
});

describe("operations", () => {
  const a = loadFamilyContract("family-a");

  it("carry parameters, request body, responses with media types, schemas and headers", () => {
    const create = findOperation(a, "createCharge");
    expect(create).toMatchObject({ family: "family-a", service: "family-a", version: "3.0", method: "POST", path: "/v1/charges" });
    expect(create.parameters.find((p) => p.name === "Idempotency-Key")).toMatchObject({ in: "header" });
    expect(create.requestBody?.mediaType).toBe("application/json");
    expect(create.requestBody?.example).toBeDefined();
    const created = findResponse(create, "201");
    expect(created.mediaType).toBe("application/json");
    expect(created.schema?.type).toBe("object");
    const limited = findResponse(findOperation(a, "getMerchant"), "429");
    expect(limited.headers.find((h) => h.name === "Retry-After")?.required).toBe(true);
    expect(responseFor(findOperation(a, "getCharge"), 418)).toBeUndefined();
  });

  it("carry security, required scopes and decision markings", () => {
    const merchant = findOperation(a, "getMerchant");
    expect(merchant.requiredScopes).toEqual(["merchant:read"]);
    expect(merchant.security).toEqual([{ ApiKey: [] }]);
    const create = findOperation(a, "createCharge");
    expect(create.markings.responses["201"]).toEqual({ decision: "D05", aspects: ["status"] });
    expect(findResponse(create, "201").decided).toEqual({ decision: "D05", aspects: ["status"] });
    expect(create.parameters.find((p) => p.name === "Idempotency-Key")?.decided).toEqual([{ decision: "D08", keywords: ["maxLength"] }]);
    const transactions = findOperation(loadFamilyContract("family-b"), "listTransactions");
    expect(transactions.parameters.filter((p) => p.decision === "D15").map((p) => p.name).sort()).toEqual(["endDate", "startDate", "status"]);
    expect(transactions.markings.behaviour.length).toBeGreaterThan(0);
    expect(transactions.operation["x-decided-behaviour"]).toBeDefined(); // the raw object stays reachable
  });

  it("tie a refusal code only to a constraint of their own request, and only a code their 400 documents", () => {
    const ties: string[] = [];
    for (const family of ["family-a", "family-b"] as const) {
      for (const op of loadFamilyContract(family).operations) {
        const error = op.responses.find((r) => r.status === "400")?.schema as { properties?: Record<string, { enum?: string[]; properties?: Record<string, { enum?: string[] }> }> } | undefined;
        const documented = error?.properties?.code?.enum ?? error?.properties?.error?.properties?.code?.enum ?? error?.properties?.error?.properties?.errorCode?.enum ?? [];
        const body = (op.requestBody?.schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
        const members = [...Object.values(body), ...op.parameters.map((p) => p.schema)];
        for (const member of members) {
          for (const keyword of ["maxLength", "minLength", "pattern", "type", "enum"]) {
            const code = tiedRefusalCode(member, keyword);
            if (code === undefined) continue;
            ties.push(`${op.operationId} ${keyword} ${code}`);
            expect(documented, `${op.operationId}: ${code}`).toContain(code);
            expect((member as Record<string, unknown>)[keyword], `${op.operationId}: ${code} tied to a keyword the schema lacks`).toBeDefined();
          }
        }
      }
    }
    expect(ties.sort()).toEqual(["cancelBoleto maxLength ODE003", "createCharge minLength IDEMPOTENCY_KEY_REQUIRED"]);
  });

  it("follow $ref and name the component schemas a body reaches", () => {
    const referenced = loadDocument("family-a", { version: "3.0", form: "referenced" }).document;
    expect(deref<Record<string, unknown>>(referenced, { $ref: "#/components/schemas/Charge" })?.type).toBe("object");
    expect(deref(referenced, { $ref: "#/components/schemas/Nothing" })).toBeUndefined();
    expect(schemasReachedBy(a, "getCharge", "200")).toContain("Charge");
    const getCharge = operationsOf(referenced).find((o) => o.operationId === "getCharge")!;
    expect(componentSchemasReachedBy(referenced, getCharge.responses.find((r) => r.status === "200")!.raw)).toContain("ChargeStatus");
  });
});

describe("matching", () => {
  const index = new OperationIndex(listOperations(loadContractDocuments()));

  it("prefers literal segments, honours the method and decodes parameters", () => {
    expect(index.match("POST", "/pix/query")?.operationId).toBe("queryPixKey");
    expect(index.match("GET", "/pix/query")?.operationId).toBe("getPixCharge");
    expect(index.match("GET", "/pix/p1/qrcode")?.pathParams).toEqual({ pixId: "p1" });
    expect(index.match("DELETE", "/api/sdk/customers/c%2F1")?.pathParams).toEqual({ id: "c/1" });
    expect(index.match("PATCH", "/v1/charges/ch_1")).toBeNull();
    expect(index.allowedMethods("/v1/charges/ch_1")).toContain("GET");
    expect(index.match("GET", "/v1/charges/ch_1")?.service).toBe("family-a");
  });
});

describe("response validation under 3.0 and 3.1", () => {
  for (const version of ["3.0", "3.1"] as OpenApiVersionId[]) {
    const validator = createResponseValidator(loadContractDocuments({ version, services: ["family-a"] }));
    const charge = validator.index.byOperationId("getCharge")!;
    const example = charge.responses.find((r) => r.status === "200")!.example as Record<string, unknown>;
    const observe = (body: unknown, headers: Record<string, string> = { "content-type": "application/json" }) =>
      validator.validate({ method: "GET", url: "https://api.example/v1/charges/ch_1?x=1", status: 200, headers, body: JSON.stringify(body) });

    it(`${version}: accepts the example and a null in a nullable field`, () => {
      expect(charge.version).toBe(version);
      expect(observe(example).problems).toEqual([]);
      expect(observe({ ...example, paid_at: null }).problems).toEqual([]);
    });

    it(`${version}: refuses a wrong type, a missing required field and a wrong media type`, () => {
      expect(observe({ ...example, paid_at: 5 }).problems.join()).toMatch(/paid_at/);
      const { amount: _amount, ...withoutAmount } = example;
      expect(observe(withoutAmount).problems.join()).toMatch(/amount/);
      expect(observe(example, { "content-type": "text/html" }).problems.join()).toMatch(/Content-Type text\/html/);
      expect(validator.validate({ method: "GET", url: "/v1/charges/x", status: 418, headers: {}, body: "" }).problems.join()).toMatch(/not documented/);
    });
  }
});

describe("domain formats", () => {
  const string = (format: string) => ({ type: "string", format });

  for (const version of ["3.0", "3.1"] as OpenApiVersionId[]) {
    it(`${version}: accept the contract's examples and refuse a wrong check digit or CRC`, () => {
      const cpfCnpj = compileOpenApiSchema(string("cpf-cnpj"), version);
      expect(cpfCnpj(CPF) && cpfCnpj(CNPJ)).toBe(true);
      expect(cpfCnpj("52998224724")).toBe(false);
      expect(cpfCnpj("12345678000194")).toBe(false);
      const brCode = compileOpenApiSchema(string("br-code"), version);
      expect(brCode(BR_CODE)).toBe(true);
      expect(brCode(BR_CODE.replace(/3F3A$/, "3F3B"))).toBe(false);
      const barcode = compileOpenApiSchema(string("boleto-barcode"), version);
      expect(barcode(BARCODE)).toBe(true);
      expect(barcode(BARCODE.slice(0, 4) + ((Number(BARCODE[4]) + 1) % 10) + BARCODE.slice(5))).toBe(false);
      const bankLine = compileOpenApiSchema(string("boleto-bank-line"), version);
      expect(bankLine(BANK_LINE)).toBe(true);
      expect(bankLine(BANK_LINE.slice(0, 9) + ((Number(BANK_LINE[9]) + 1) % 10) + BANK_LINE.slice(10))).toBe(false);
    });
  }

  it("say why a value is refused", () => {
    expect(domainFormatProblem("cpf-cnpj", "52998224724")).toMatch(/check digits/);
    expect(domainFormatProblem("br-code", BR_CODE)).toBeNull();
  });

  it("say why a validator refused a value, from its errors and the value validated; nothing for other errors", () => {
    const schema = { type: "object", properties: { items: { type: "array", items: { type: "object", properties: { key: string("pix-key"), amount: { type: "number", format: "brl-amount" }, note: string("email") } } } } };
    const validate = compileOpenApiSchema(schema, "3.0");
    const data = { items: [{ key: "52998224724", amount: 1.005, note: "no e-mail" }] };
    expect(validate(data)).toBe(false);
    const reasons = (validate.errors ?? []).map((error) => domainFormatReason(error, data));
    expect(reasons).toEqual([expect.stringMatching(/^CPF key: check digits are 24, should be 25/), expect.stringMatching(/centavos/), undefined]);
  });

  it("put a validator's errors in words: its message, the members a required or additionalProperties error names, a domain format's reason", () => {
    const schema = { type: "object", required: ["name"], additionalProperties: false, properties: { name: { type: "string" }, key: string("pix-key") } };
    const validate = compileOpenApiSchema(schema, "3.1");
    const data = { key: "52998224724", extra: 1 };
    expect(validate(data)).toBe(false);
    const texts = (validate.errors ?? []).map((error) => schemaErrorText(error, data));
    expect(texts).toContain('must have required property \'name\' ({"missingProperty":"name"})');
    expect(texts).toContain('must NOT have additional properties ({"additionalProperty":"extra"})');
    expect(texts).toContainEqual(expect.stringMatching(/^must match format "pix-key": CPF key: check digits are 24, should be 25/));
    expect(schemaErrorText({ keyword: "type", instancePath: "" }, data)).toBe("type");
  });

  for (const version of ["3.0", "3.1"] as OpenApiVersionId[]) {
    it(`${version}: refuse a boleto whose barcode and typed line, each valid, are two different boletos`, () => {
      const slip = compileOpenApiSchema({ type: "object", "x-domain-format": "boleto-bank-slip" }, version);
      expect(slip({ barCode: BARCODE, bankLine: BANK_LINE })).toBe(true);
      // Another boleto: one free-field digit changed, its check digits recomputed.
      const changed = `${BARCODE.slice(0, 30)}${(Number(BARCODE[30]) + 1) % 10}${BARCODE.slice(31)}`;
      const other = `${changed.slice(0, 4)}${boletoGeneralCheckDigit(changed)}${changed.slice(5)}`;
      expect(barCodeProblem(other)).toBeNull();
      expect(bankLineProblem(barCodeToBankLine(other))).toBeNull();
      expect(slip({ barCode: BARCODE, bankLine: barCodeToBankLine(other) })).toBe(false);
      expect(slip.errors?.[0]?.message).toMatch(/boleto-bank-slip/);
    });
  }
});
