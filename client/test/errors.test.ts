/**
 * An error thrown for a refused call says why in its message: family B's `error.details`,
 * family A's problem `detail` (with its title), an unexpected body's text; a long explanation
 * is cut at a boundary and says where the whole text is, which stays in the error's fields.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFamilyAClient, createFamilyBClient, FamilyAApiError, FamilyBEnvelope1Error, UnexpectedResponseError } from "../src/index.ts";
import { startScriptedServer, type ScriptedServer } from "./support/scripted-server.ts";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

const familyA = () => createFamilyAClient({ baseUrl: server.url, apiKey: "sk_live_errors_test_0001", retry: { maxAttempts: 1 } });
const familyB = () => createFamilyBClient({ environment: server.url, apiKey: "pk_test_errors_test_0001", retry: { maxAttempts: 1 } });
const customer = { name: "Maria da Silva", email: "maria@example.com", documentNumber: "52998224725", phoneNumber: "11999998888", address: { street: "Rua A", number: "1", city: "São Paulo", state: "SP", postalCode: "0131" } };

async function refusal(call: Promise<unknown>): Promise<Error> {
  return call.then(
    () => expect.unreachable("the call succeeded"),
    (error: Error) => error,
  );
}

describe("error messages", () => {
  it("family B: the message carries error.details, which stays whole in .details", async () => {
    const details = 'body/address/postalCode: must match pattern "^\\d{8}$"';
    server.script({ status: 400, body: { success: false, error: { code: "VALIDATION_ERROR", message: "The request is invalid.", details } } });
    const client = familyB();
    const error = await refusal(client.unwrap(client.POST("/api/v1/sdk/customers", { body: customer as never })));
    expect(error).toBeInstanceOf(FamilyBEnvelope1Error);
    expect(error.message).toBe(`HTTP 400 VALIDATION_ERROR: The request is invalid: ${details}`);
    expect((error as FamilyBEnvelope1Error).details).toBe(details);
  });

  it("family A: the message carries the problem's title and detail, kept as fields", async () => {
    const detail = "body/payer/document: 52998224724 fails the CPF check digits";
    server.script({ status: 400, body: { type: "https://docs.payments.example/errors/validation-error", title: "Validation failed", status: 400, detail, code: "VALIDATION_ERROR" } });
    const client = familyA();
    const error = await refusal(client.unwrap(client.POST("/v1/charges", { body: { amount: 1990, method: "pix" } })));
    expect(error).toBeInstanceOf(FamilyAApiError);
    expect(error.message).toBe(`HTTP 400 VALIDATION_ERROR (Validation failed): ${detail}`);
    expect(error).toMatchObject({ title: "Validation failed", detail });
  });

  it("a long explanation is cut between problems, says how much is left out and where, and stays whole in the field", async () => {
    const problems = Array.from({ length: 12 }, (_, i) => `body/items/${i}/amount: must be greater than or equal to 0.01`);
    const details = problems.join("; ");
    server.script({ status: 400, body: { success: false, error: { code: "VALIDATION_ERROR", message: "The request is invalid.", details } } });
    const client = familyB();
    const error = await refusal(client.unwrap(client.POST("/api/v1/sdk/customers", { body: customer as never })));
    const [, quoted, left] = /^HTTP 400 VALIDATION_ERROR: The request is invalid: (.*) \.\.\. \((\d+) more characters in error\.details\)$/.exec(error.message) ?? [];
    expect(quoted, error.message).toBeDefined();
    // Whole problems only: the quoted text is a prefix of the details that ends where a problem ends.
    expect(problems.slice(0, quoted!.split("; ").length).join("; ")).toBe(quoted);
    expect(quoted!.length + Number(left)).toBe(details.length);
    expect((error as FamilyBEnvelope1Error).details).toBe(details);
  });

  it("a body that is no error body of the contract is quoted too", async () => {
    server.script({ status: 502, text: "upstream connect error or disconnect/reset before headers", headers: { "content-type": "text/plain" } });
    const client = familyA();
    const error = await refusal(client.unwrap(client.GET("/v1/merchant")));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toBe("Unexpected HTTP 502 response: upstream connect error or disconnect/reset before headers");
  });
});
