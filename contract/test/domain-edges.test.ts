/**
 * The domain checks accept every valid value, at the edges of the published rules too, and
 * refuse the invalid neighbours: a boleto barcode whose general check digit is 1 because
 * 11 minus the mod-11 remainder is 10 or 11, typed-line fields whose check digit is 0 because
 * 10 minus the sum is 10, CPFs and CNPJs whose check digits are 0 because the remainder is
 * under 2, BR Codes whose CRC16 starts with zeros, PIX keys at the edges of each DICT form.
 * Every edge value is computed here from the
 * rule (small oracles below, independent of contract/src/domain), never copied.
 */
import * as boletoUtils from "@mrmgomes/boleto-utils";
import { describe, expect, it } from "vitest";
import { bankLineProblem, bankLineToBarCode, barCodeProblem, barCodeToBankLine, brCodeProblem, cpfCnpjProblem, pixKeyProblem, pixKeyTypeOf, reaisAmountProblem } from "../src/domain/domain-checks.ts";
import { compileOpenApiSchema, loadDocument, type OpenApiVersionId } from "../src/model/index.ts";

// ---------------------------------------------------------------------------------------------
// Oracles: the published rules, written out once for the tests

/** Weighted sum of digits (weights from the right, cycling through `weights`). */
function weightedSum(digits: string, weights: (positionFromRight: number) => number): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += (digits.charCodeAt(digits.length - 1 - i) - 48) * weights(i);
  return sum;
}

/** FEBRABAN: the remainder behind a barcode's general check digit (43 digits, weights 2..9 from the right). */
const generalRemainder = (digits43: string) => weightedSum(digits43, (i) => 2 + (i % 8)) % 11;
/** FEBRABAN: 11 minus the remainder; 0, 10 and 11 become 1. */
const generalDigit = (digits43: string) => {
  const digit = 11 - generalRemainder(digits43);
  return digit >= 10 || digit === 0 ? 1 : digit;
};
/** FEBRABAN: a typed-line field's sum (weights 2, 1, 2... from the right; products above 9 add their digits). */
const fieldSum = (digits: string) =>
  [...digits].reverse().reduce((sum, d, i) => {
    const product = Number(d) * (i % 2 === 0 ? 2 : 1);
    return sum + Math.floor(product / 10) + (product % 10);
  }, 0);
const fieldDigit = (digits: string) => (10 - (fieldSum(digits) % 10)) % 10;

/** A bank barcode from its 43 digits without the general check digit. */
const barcodeOf = (digits43: string) => `${digits43.slice(0, 4)}${generalDigit(digits43)}${digits43.slice(4)}`;
/** The typed line of a barcode, laid out by hand: three fields with their digits, the general digit, factor and amount. */
function lineOf(barCode: string): string {
  const fields = [barCode.slice(0, 4) + barCode.slice(19, 24), barCode.slice(24, 34), barCode.slice(34, 44)];
  return fields.map((f) => f + fieldDigit(f)).join("") + barCode[4] + barCode.slice(5, 19);
}

/** Receita Federal: the remainders behind a CPF's (9-digit body) or CNPJ's (12-character body) two check digits. */
function taxIdRemainders(body: string): { remainders: [number, number]; value: string } {
  const cpf = body.length === 9;
  const weights = (length: number) => (i: number) => (cpf ? i + 2 : 2 + (i % 8));
  const first = weightedSum(body, weights(body.length)) % 11;
  const d1 = first < 2 ? 0 : 11 - first;
  const second = weightedSum(body + d1, weights(body.length + 1)) % 11;
  const d2 = second < 2 ? 0 : 11 - second;
  return { remainders: [first, second], value: `${body}${d1}${d2}` };
}

/** CRC-16/CCITT-FALSE, bit by bit (poly 0x1021, init 0xFFFF, no reflection, no final xor). */
function crc16(text: string): number {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, "utf8")) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}
const tlv = (id: string, value: string) => `${id}${String(value.length).padStart(2, "0")}${value}`;
/** A static BR Code for a merchant name, with its CRC written as the manual says (4 upper-case hex digits). */
function staticBrCode(merchantName: string): { code: string; crc: number } {
  const account = tlv("00", "br.gov.bcb.pix") + tlv("01", "123e4567-e12b-12d1-a456-426655440000");
  const payload =
    tlv("00", "01") + tlv("26", account) + tlv("52", "0000") + tlv("53", "986") + tlv("58", "BR") + tlv("59", merchantName) + tlv("60", "BRASILIA") + tlv("62", tlv("05", "***")) + "6304";
  const crc = crc16(payload);
  return { code: payload + crc.toString(16).toUpperCase().padStart(4, "0"), crc };
}

/** The first of `candidates` that `accept` takes (the search must find one). */
function first<T>(candidates: Iterable<T>, accept: (value: T) => boolean): T {
  for (const candidate of candidates) if (accept(candidate)) return candidate;
  throw new Error("no candidate at the edge");
}
function* counting(width: number): Generator<string> {
  for (let n = 0; n < 10 ** width; n++) yield String(n).padStart(width, "0");
}
/** `value` with the character at `at` replaced by each other digit. */
const digitNeighbours = (value: string, at: number) =>
  [..."0123456789"].filter((d) => d !== value[at]).map((d) => `${value.slice(0, at)}${d}${value.slice(at + 1)}`);

// ---------------------------------------------------------------------------------------------

/** Bank 001, due-date factor 7586, R$ 1,026.56 (the FEBRABAN worked example's head), free field varied. */
const HEAD = "0019" + "7586" + "0000102656";

describe("boleto barcodes at the edge of the mod-11 rule", () => {
  it("the oracle reproduces the worked example", () => {
    expect(barcodeOf("0019" + "75860000102656" + "0000001149718606852452211")).toBe("00196758600001026560000001149718606852452211");
    expect(lineOf("00196758600001026560000001149718606852452211")).toBe("00190000090114971860168524522114675860000102656");
  });

  for (const remainder of [0, 1]) {
    it(`accepts general check digit 1 where the remainder is ${remainder} (11 - ${remainder} = ${11 - remainder}), and refuses every other digit there`, () => {
      const free = first(counting(4), (n) => generalRemainder(HEAD + "000000000000000000000" + n) === remainder);
      const barCode = barcodeOf(HEAD + "000000000000000000000" + free);
      expect(barCode[4]).toBe("1");
      expect(barCodeProblem(barCode)).toBeNull();
      for (const neighbour of digitNeighbours(barCode, 4)) expect(barCodeProblem(neighbour), neighbour).toMatch(/general check digit/);
      // Its typed line carries the 1 as the fourth field and is accepted too.
      expect(bankLineProblem(lineOf(barCode))).toBeNull();
      expect(barCodeToBankLine(barCode)).toBe(lineOf(barCode));
    });
  }
});

describe("typed lines at the edge of the mod-10 rule", () => {
  // Each field's digits varied until its sum ends in 0, so its check digit is 10 -> 0.
  const field1 = first(counting(5), (n) => fieldSum("0019" + n) % 10 === 0);
  const field2 = first(counting(4), (n) => fieldSum("246813" + n) % 10 === 0);
  const field3 = first(counting(4), (n) => fieldSum("135792" + n) % 10 === 0);
  const barCode = barcodeOf("0019" + "75860000102656" + field1 + "246813" + field2 + "135792" + field3);
  const line = lineOf(barCode);

  it("accepts a line whose three field check digits are 0, bare and printed", () => {
    expect([line[9], line[20], line[31]]).toEqual(["0", "0", "0"]);
    expect(bankLineProblem(line)).toBeNull();
    const printed = `${line.slice(0, 5)}.${line.slice(5, 10)} ${line.slice(10, 15)}.${line.slice(15, 21)} ${line.slice(21, 26)}.${line.slice(26, 32)} ${line[32]} ${line.slice(33)}`;
    expect(bankLineProblem(printed)).toBeNull();
    expect(bankLineToBarCode(printed)).toBe(barCode);
    expect(bankLineProblem(printed.replace(" ", "  "))).toMatch(/not 47 digits/);
  });

  it("converts between barcode and line as FEBRABAN lays them out (boleto-utils agrees)", () => {
    expect(barCodeToBankLine(barCode)).toBe(line);
    expect(bankLineToBarCode(line)).toBe(barCode);
    expect(boletoUtils.codBarras2LinhaDigitavel(barCode, false)).toBe(line);
  });

  it("refuses every other digit in place of a 0 field check digit", () => {
    for (const [at, field] of [[9, "first"], [20, "second"], [31, "third"]] as const) {
      for (const neighbour of digitNeighbours(line, at)) expect(bankLineProblem(neighbour), neighbour).toMatch(new RegExp(`${field} field`));
    }
  });

  it("accepts the line of a bank code that starts with 8 (boleto-utils reads such a line as a collection slip)", () => {
    const eight = barcodeOf("8009" + "75860000102656" + "0000001149718606852452211");
    expect(barCodeProblem(eight)).toBeNull();
    expect(bankLineProblem(lineOf(eight))).toBeNull();
    expect(bankLineToBarCode(lineOf(eight))).toBe(eight);
    expect(barCodeToBankLine(eight)).toBe(lineOf(eight));
  });
});

describe("CPF and CNPJ at the edge of the remainder rule", () => {
  const cases = [
    { kind: "CPF", body: (n: string) => `100${n}` },
    { kind: "CNPJ", body: (n: string) => `112223${n}` },
  ];
  for (const { kind, body } of cases) {
    for (const wanted of [[0, 0], [0, 1], [1, 0], [1, 1]] as const) {
      it(`accepts a ${kind} whose check digits come from remainders ${wanted.join(" and ")} (both 0), and refuses every other digit there`, () => {
        const digits = first(counting(6), (n) => {
          const { remainders } = taxIdRemainders(body(n));
          return remainders[0] === wanted[0] && remainders[1] === wanted[1];
        });
        const { value } = taxIdRemainders(body(digits));
        expect(value.slice(-2)).toBe("00");
        expect(cpfCnpjProblem(value)).toBeNull();
        for (const at of [value.length - 2, value.length - 1]) {
          for (const neighbour of digitNeighbours(value, at)) expect(cpfCnpjProblem(neighbour), neighbour).toMatch(/check digits are/);
        }
      });
    }
  }

  it("accepts the written forms, the alphanumeric CNPJ and 12345678909; refuses repeated digits and lower case", () => {
    const cpf = taxIdRemainders("529982247").value;
    const cnpj = taxIdRemainders("112223330001").value;
    const alphanumeric = taxIdRemainders("12ABC34501DE").value;
    expect(alphanumeric).toBe("12ABC34501DE35"); // Receita Federal's published example
    for (const value of [cpf, cnpj, alphanumeric, "12345678909", "529.982.247-25", "11.222.333/0001-81", "12.ABC.345/01DE-35"]) {
      expect(cpfCnpjProblem(value), value).toBeNull();
    }
    expect(cpfCnpjProblem("12abc34501de35")).toMatch(/not a CPF/);
    expect(cpfCnpjProblem("529.982.247-24")).toMatch(/check digits are 24, should be 25/);
    expect(cpfCnpjProblem("11111111111")).toMatch(/repeats/);
    expect(cpfCnpjProblem("529982247-25")).toMatch(/not a CPF/);
  });
});

describe("PIX keys in the DICT's forms (pix-key)", () => {
  const cpf = taxIdRemainders("100" + first(counting(6), (n) => taxIdRemainders(`100${n}`).value.endsWith("00"))).value;
  const cnpj = taxIdRemainders("112223" + first(counting(6), (n) => taxIdRemainders(`112223${n}`).value.endsWith("00"))).value;
  /** An e-mail key of exactly `length` characters. */
  const email = (length: number) => `${"a".repeat(length - "@example.com.br".length)}@example.com.br`;

  it("types a key by its form: CPF and CNPJ with check digits 00, E.164 phones of 2 to 15 digits, lower-case e-mails up to 77 characters, lower-case UUIDs", () => {
    const typed: Array<[string, string]> = [
      [cpf, "CPF"],
      ["12345678909", "CPF"],
      [cnpj, "CNPJ"],
      ["+5511912345678", "PHONE"],
      ["+12", "PHONE"],
      [`+1${"2".repeat(14)}`, "PHONE"],
      [email(77), "EMAIL"],
      ["fulano.de-tal+pix@sub.example.com", "EMAIL"],
      ["2f0d6c1e-8b3a-4d7f-9e52-6a1b4c8d0e3f", "EVP"],
    ];
    for (const [key, type] of typed) {
      expect(pixKeyTypeOf(key), key).toEqual({ type });
      expect(pixKeyProblem(key), key).toBeNull();
    }
  });

  it("refuses a CPF or CNPJ key with a wrong check digit or one repeated digit, and reads 11 or 14 digits as nothing else", () => {
    for (const key of [cpf, cnpj]) {
      for (const at of [key.length - 2, key.length - 1]) {
        for (const neighbour of digitNeighbours(key, at)) expect(pixKeyProblem(neighbour), neighbour).toMatch(/^(CPF|CNPJ) key: check digits are/);
      }
    }
    expect(pixKeyProblem("11111111111")).toMatch(/^CPF key: repeats one digit/);
    expect(pixKeyProblem("00000000000000")).toMatch(/^CNPJ key: repeats one digit/);
  });

  it("refuses what is no key of any form: written or alphanumeric documents, other digit counts, phones beyond E.164, upper case, an e-mail of 78 characters", () => {
    const refused = [
      "",
      "529.982.247-25", // a CPF, but a key is digits only
      "12ABC34501DE35", // an alphanumeric CNPJ with right check digits: not a key yet (D23)
      "1234567890", // 10, 12, 13 and 15 digits: neither CPF nor CNPJ, and no phone without +
      "123456789012",
      "5511912345678",
      "123456789012345",
      "+",
      "+5",
      "+0511912345678",
      `+1${"2".repeat(15)}`, // 16 digits
      "+55 11 91234-5678",
      email(78),
      "Fulano@example.com",
      "fulano@example",
      "fulano@@example.com",
      "2F0D6C1E-8B3A-4D7F-9E52-6A1B4C8D0E3F",
      "2f0d6c1e8b3a4d7f9e526a1b4c8d0e3f",
    ];
    for (const key of refused) expect(pixKeyProblem(key), key).toMatch(/^not a PIX key/);
  });

  for (const version of ["3.0", "3.1"] as OpenApiVersionId[]) {
    it(`${version}: the key queried, answered and paid is a pix-key`, () => {
      const schemas = (loadDocument("family-b", { version }).document.components as { schemas: Record<string, unknown> }).schemas;
      const query = compileOpenApiSchema(schemas.PixKeyQueryRequest, version);
      expect(query({ key: cpf }), JSON.stringify(query.errors)).toBe(true);
      expect(query({ key: email(77) })).toBe(true);
      expect(query({ key: `${cpf.slice(0, -1)}1` })).toBe(false);
      expect(query({ key: "not a key" })).toBe(false);
      for (const name of ["PixKeyInfo", "PixPayment"]) {
        const key = (schemas[name] as { properties: Record<string, unknown> }).properties.key;
        expect(compileOpenApiSchema(key, version)(cnpj), name).toBe(true);
        expect(compileOpenApiSchema(key, version)(`${cnpj.slice(0, -1)}1`), name).toBe(false);
      }
    });
  }
});

describe("BR Codes whose CRC16 starts with zeros", () => {
  it("the CRC oracle gives the standard check value and the manual's worked example", () => {
    expect(crc16("123456789")).toBe(0x29b1);
    expect(staticBrCode("Fulano de Tal").code.slice(-8)).toBe("63041D3D");
  });

  for (const zeros of [1, 2]) {
    it(`accepts a code whose CRC has ${zeros} leading zero${zeros > 1 ? "s" : ""}, written in four upper-case hex digits, and refuses its neighbours`, () => {
      const name = first(counting(4), (n) => staticBrCode(`LOJA ${n}`).crc < 0x10000 >> (4 * zeros));
      const { code, crc } = staticBrCode(`LOJA ${name}`);
      expect(code.slice(-4, -4 + zeros)).toBe("0".repeat(zeros));
      expect(brCodeProblem(code)).toBeNull();
      const head = code.slice(0, -4);
      const neighbours = [
        head + crc.toString(16).toUpperCase(), // the leading zeros dropped
        head + ((crc + 1) % 0x10000).toString(16).toUpperCase().padStart(4, "0"),
        head.replace("LOJA", "LOJB") + code.slice(-4), // the payload changed under its CRC
      ];
      if (/[A-F]/.test(code.slice(-4))) neighbours.push(head + code.slice(-4).toLowerCase());
      for (const neighbour of neighbours) expect(brCodeProblem(neighbour), neighbour).not.toBeNull();
    });
  }
});

describe("the CRC of a BR Code", () => {
  it("refuses a CRC field 63 longer than 4 characters, even when the code ends with 6304 and the CRC of all before it", () => {
    const { code } = staticBrCode("Fulano de Tal");
    // The last field is 63 of 12 characters, whose value ends like a CRC field: "0000" + "6304" + CRC.
    const head = `${code.slice(0, -8)}63120000` + "6304";
    const longCrcField = head + crc16(head).toString(16).toUpperCase().padStart(4, "0");
    expect(brCodeProblem(code)).toBeNull();
    expect(brCodeProblem(longCrcField)).toBe("the CRC field 63 is not 4 characters long");
  });

  it("names the CRC a code should carry when its own does not match", () => {
    const { code, crc } = staticBrCode("Fulano de Tal");
    const wrong = ((crc + 1) % 0x10000).toString(16).toUpperCase().padStart(4, "0");
    expect(brCodeProblem(code.slice(0, -4) + wrong)).toBe(`the CRC 63 is ${wrong}, not the CRC16/CCITT-FALSE of the code (${code.slice(-4)})`);
  });
});

describe("amounts in reais are whole centavos (brl-amount)", () => {
  it("takes every amount a client writes with at most two decimals, exactly, and refuses the doubles between them", () => {
    // 0.29 * 100 is 28.999999999999996 in floating point: the rule compares the nearest double.
    for (const amount of [0.01, 0.29, 0.3, 10, 10.5, 1234.56, 9999999999.99]) expect(reaisAmountProblem(amount), String(amount)).toBeNull();
    for (const amount of [0.001, 1.005, 10.000000001, 0.30000000000000004, Number.NaN, Number.POSITIVE_INFINITY]) expect(reaisAmountProblem(amount), String(amount)).not.toBeNull();
  });
});

describe("the contract's schemas take the edge values", () => {
  const barCode = barcodeOf(HEAD + "000000000000000000000" + first(counting(4), (n) => generalRemainder(HEAD + "000000000000000000000" + n) === 0));
  const document = taxIdRemainders("100" + first(counting(6), (n) => taxIdRemainders(`100${n}`).value.endsWith("00"))).value;
  const brCode = staticBrCode(`LOJA ${first(counting(4), (n) => staticBrCode(`LOJA ${n}`).crc < 0x1000)}`).code;

  for (const version of ["3.0", "3.1"] as OpenApiVersionId[]) {
    it(`${version}: merchant document, customer document, charge br_code and boleto slip`, () => {
      const schemas = (service: "family-a" | "family-b") => (loadDocument(service, { version }).document.components as { schemas: Record<string, unknown> }).schemas;
      const merchant = compileOpenApiSchema(schemas("family-a").Merchant, version);
      expect(merchant({ document }), JSON.stringify(merchant.errors)).toBe(true);
      expect(merchant({ document: `${document.slice(0, -1)}1` })).toBe(false);
      const customerDocument = compileOpenApiSchema(schemas("family-b").CustomerDocument, version);
      expect(customerDocument(document)).toBe(true);
      const pix = compileOpenApiSchema(schemas("family-a").ChargePix, version);
      expect(pix({ br_code: brCode, txid: "9d36b84fc70b478fb95c12729b90ca25", end_to_end_id: null }), JSON.stringify(pix.errors)).toBe(true);
      const slip = compileOpenApiSchema(schemas("family-b").BoletoBankSlip, version);
      const bank = { transactionId: "1", status: "REGISTERED", bankEmissor: "001", bankNumber: "001", bankAgency: "0001", bankAccount: "12345", bankAssignor: "Loja" };
      expect(slip({ ...bank, barCode, bankLine: lineOf(barCode) }), JSON.stringify(slip.errors)).toBe(true);
      expect(slip({ ...bank, barCode, bankLine: lineOf(barcodeOf(HEAD + "0".repeat(25))) })).toBe(false);
    });

    it(`${version}: a queried PIX key whose keyType is not its form's is refused (pix-key-info)`, () => {
      const document = loadDocument("family-b", { version }).document as { paths: Record<string, any>; components: { schemas: Record<string, unknown> } };
      const info = document.paths["/pix/query"].post.responses["200"].content["application/json"].example.data as Record<string, unknown>;
      const schema = compileOpenApiSchema(document.components.schemas.PixKeyInfo, version);
      expect(schema(info), JSON.stringify(schema.errors)).toBe(true);
      expect(schema({ ...info, keyType: info.keyType === "EVP" ? "EMAIL" : "EVP" })).toBe(false);
    });

    it(`${version}: a boleto whose barcode is another amount's or another due date's is refused (boleto-charge)`, () => {
      const document = loadDocument("family-b", { version }).document as { paths: Record<string, any> };
      const boleto = document.paths["/sdk/boleto/{boletoId}"].get.responses["200"].content["application/json"].example.data as Record<string, unknown>;
      const schemas = (document as unknown as { components: { schemas: Record<string, unknown> } }).components.schemas;
      const charge = compileOpenApiSchema(schemas.BoletoCharge, version);
      expect(charge(boleto), JSON.stringify(charge.errors)).toBe(true);
      expect(charge({ ...boleto, amount: (boleto.amount as number) + 0.01 })).toBe(false);
      expect(charge({ ...boleto, duedate: "2026-12-16" })).toBe(false);
    });

    it(`${version}: a charge whose id's time part is not its created_at is refused, to the millisecond (charge-id-time, D49)`, () => {
      const document = loadDocument("family-a", { version }).document as { paths: Record<string, any>; components: { schemas: Record<string, unknown> } };
      const created = document.paths["/v1/charges"].post.responses["201"].content["application/json"].example as Record<string, unknown>;
      const charge = compileOpenApiSchema(document.components.schemas.Charge, version);
      expect(charge(created), JSON.stringify(charge.errors)).toBe(true);
      // .005 written without its padding reads as .500.
      expect(charge({ ...created, id: "ch_01M7Z876J5R2V6X9K3T5N0B1C7", created_at: "2026-11-21T14:30:00.005Z" }), JSON.stringify(charge.errors)).toBe(true);
      expect(charge({ ...created, id: "ch_01M7Z876J5R2V6X9K3T5N0B1C7", created_at: "2026-11-21T14:30:00.5Z" })).toBe(false);
      expect(charge({ ...created, id: "ch_00000000J0R2V6X9K3T5N0B1C7" })).toBe(false);
    });

    it(`${version}: a boleto's amountConfirmed is set exactly when it is CONFIRMED (boleto-charge, D16)`, () => {
      const document = loadDocument("family-b", { version }).document as { paths: Record<string, any>; components: { schemas: Record<string, unknown> } };
      const boleto = document.paths["/sdk/boleto/{boletoId}"].get.responses["200"].content["application/json"].example.data as Record<string, unknown>;
      const charge = compileOpenApiSchema(document.components.schemas.BoletoCharge, version);
      expect(boleto.status).toBe("REGISTERED");
      expect(charge({ ...boleto, amountConfirmed: boleto.amount })).toBe(false);
      expect(charge({ ...boleto, status: "CONFIRMED", amountConfirmed: null })).toBe(false);
      expect(charge({ ...boleto, status: "CONFIRMED", amountConfirmed: boleto.amount }), JSON.stringify(charge.errors)).toBe(true);
    });
  }
});

describe("the payload URL of a dynamic BR Code (26/25)", () => {
  /** A dynamic code (as the sandbox writes one) whose field 26/25 is `url`, with its CRC. */
  const dynamicCode = (url: string) => {
    const field = (id: string, value: string) => `${id}${String(value.length).padStart(2, "0")}${value}`;
    const head =
      field("00", "01") + field("01", "12") + field("26", field("00", "br.gov.bcb.pix") + field("25", url)) + field("52", "0000") + field("53", "986") + field("58", "BR") + field("59", "FULANO DE TAL") + field("60", "BRASILIA") + field("62", field("05", "***")) + "6304";
    return head + crc16(head).toString(16).toUpperCase().padStart(4, "0");
  };

  it("accepts a host name and path without a scheme, the manual's form", () => {
    for (const url of ["pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25", "qr-h.psp.com.br:8443/v2/cobv/1", "PIX.EXAMPLE.COM.BR/qr/v2/x", "pix.example.com"]) expect(brCodeProblem(dynamicCode(url)), url).toBeNull();
  });

  it("refuses a location without its host, with a scheme, or with spaces", () => {
    for (const url of ["/qr/v2/9d36b84fc70b478fb95c12729b90ca25", "https://pix.example.com/qr/v2/1", "qr/v2/1", "pix.example.com/qr v2", "-pix.example.com/qr/v2/1"]) {
      expect(brCodeProblem(dynamicCode(url)), url).toMatch(/^the payload URL 26\/25 /);
    }
  });
});

