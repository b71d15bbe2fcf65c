/**
 * Domain validity under the profiles: where the document names the value (the PIX
 * copy-and-paste string, a CPF or CNPJ, a boleto's barcode and typed line) its check digits
 * and CRC are the document's word, held by seed as by full; the form the project chose for it
 * (digits only, D23 and D34) and the BR Code of a boleto's PIX block (D43) are decisions, held
 * by full only. Bodies are the contract's own examples, changed in one value.
 */
import { describe, expect, it } from "vitest";
import { findOperation, loadFamilyContract } from "@payment-collection/contract/model/index.ts";
import { barCodeToBankLine, boletoGeneralCheckDigit } from "@payment-collection/contract/domain/domain-checks.ts";
import { responseExpectation, type Profile } from "../src/core/profiles/index.ts";
import { responseProblems } from "../src/core/validate.ts";

type Json = Record<string, any>;

/** Problems of `operationId`'s example for `status`, changed by `edit`, under `profile`. */
function problems(family: "family-a" | "family-b", operationId: string, status: string, profile: Profile, edit: (body: Json) => void): string[] {
  const operation = findOperation(loadFamilyContract(family), operationId);
  const example = structuredClone(operation.responses.find((r) => r.status === status)!.example) as Json;
  expect(example, `${operationId} ${status} has an example`).toBeDefined();
  edit(example);
  const response = { status: Number(status), headers: { "content-type": "application/json" }, body: JSON.stringify(example) };
  return responseProblems(responseExpectation(operation, status, profile), response);
}

/** Fails `edit` under both profiles (the document's word) or under full only (a decision). */
function expectHeldBy(profiles: Profile[], ...call: [Parameters<typeof problems>[0], string, string, (body: Json) => void]) {
  const [family, operationId, status, edit] = call;
  for (const profile of ["seed", "full"] as Profile[]) {
    const found = problems(family, operationId, status, profile, edit);
    if (profiles.includes(profile)) expect(found, profile).not.toEqual([]);
    else expect(found, profile).toEqual([]);
  }
}

const lastDigitChanged = (value: string) => `${value.slice(0, -1)}${(Number(value.at(-1)) + 1) % 10}`;
const printed = (line: string) => `${line.slice(0, 5)}.${line.slice(5, 10)} ${line.slice(10, 15)}.${line.slice(15, 21)} ${line.slice(21, 26)}.${line.slice(26, 32)} ${line[32]} ${line.slice(33)}`;
const masked = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;

describe("domain validity is the document's word where the document names the value", () => {
  it("the examples pass both profiles unchanged", () => {
    for (const profile of ["seed", "full"] as Profile[]) {
      expect(problems("family-a", "createCharge", "201", profile, () => {})).toEqual([]);
      expect(problems("family-a", "getMerchant", "200", profile, () => {})).toEqual([]);
      expect(problems("family-b", "getCustomer", "200", profile, () => {})).toEqual([]);
      expect(problems("family-b", "getBoleto", "200", profile, () => {})).toEqual([]);
    }
  });

  it("a br_code with a wrong CRC fails seed", () => {
    expectHeldBy(["seed", "full"], "family-a", "createCharge", "201", (c) => (c.pix.br_code = `${c.pix.br_code.slice(0, -4)}${c.pix.br_code.endsWith("0000") ? "FFFF" : "0000"}`));
  });

  it("a merchant document or customer documentNumber with a wrong check digit fails seed", () => {
    expectHeldBy(["seed", "full"], "family-a", "getMerchant", "200", (m) => (m.document = lastDigitChanged(m.document)));
    expectHeldBy(["seed", "full"], "family-b", "getCustomer", "200", (c) => (c.data.documentNumber = lastDigitChanged(c.data.documentNumber)));
  });

  it("a boleto line with a wrong field check digit, or of another boleto, fails seed", () => {
    expectHeldBy(["seed", "full"], "family-b", "getBoleto", "200", (b) => {
      const line: string = b.data.boleto.bankLine;
      b.data.boleto.bankLine = `${line.slice(0, 9)}${(Number(line[9]) + 1) % 10}${line.slice(10)}`;
    });
    expectHeldBy(["seed", "full"], "family-b", "getBoleto", "200", (b) => {
      const barCode: string = b.data.boleto.barCode;
      const changed = `${barCode.slice(0, 30)}${(Number(barCode[30]) + 1) % 10}${barCode.slice(31)}`;
      b.data.boleto.bankLine = barCodeToBankLine(`${changed.slice(0, 4)}${boletoGeneralCheckDigit(changed)}${changed.slice(5)}`);
    });
  });
});

describe("the form of a domain value and the BR Code of a boleto's PIX block stay decisions", () => {
  it("a customer's CPF in its written form passes seed (digits only is D23); the merchant's does not (the document says digits only)", () => {
    expectHeldBy(["full"], "family-b", "getCustomer", "200", (c) => (c.data.documentNumber = masked("52998224725")));
    expectHeldBy(["seed", "full"], "family-a", "getMerchant", "200", (m) => (m.document = masked("52998224725")));
  });

  it("a boleto line printed with dots and spaces passes seed (digits only is D34), unless it is another boleto's", () => {
    expectHeldBy(["full"], "family-b", "getBoleto", "200", (b) => (b.data.boleto.bankLine = printed(b.data.boleto.bankLine)));
  });

  it("a boleto's pix.emv with a wrong CRC passes seed: the document only names the field (D43)", () => {
    expectHeldBy(["full"], "family-b", "getBoleto", "200", (b) => (b.data.pix.emv = `${b.data.pix.emv.slice(0, -4)}${b.data.pix.emv.endsWith("0000") ? "FFFF" : "0000"}`));
  });
});
