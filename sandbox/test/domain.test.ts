/**
 * The sandbox's domain generators against independent references: the FEBRABAN worked
 * examples and boleto-utils for boletos, pix-utils for BR Codes, the BCB EndToEndId layout.
 * (CPF/CNPJ check digits and PIX key forms are the contract's: contract/test/domain-edges.test.ts.)
 */
import * as boletoUtils from "@mrmgomes/boleto-utils";
import { createDynamicPix, parsePix } from "pix-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { endToEndIdProblem } from "@payment-collection/contract/domain/domain-checks.ts";
import { boletoNumbers, checkDigitIsUnambiguous, dueDateFactor, itauFreeField } from "../src/domain/boleto.ts";
import { dynamicBrCode, PAYLOAD_LOCATION_HOST } from "../src/domain/brcode.ts";
import { createKeyRing } from "../src/keys.ts";
import { endToEndId } from "../src/domain/end-to-end-id.ts";
import { digits } from "../src/domain/ids.ts";
import { isoTimestamp } from "../src/domain/timestamps.ts";
import { canonicalJson } from "../src/idempotency.ts";

describe("boleto numbers", () => {
  it("reproduce the FEBRABAN worked examples", () => {
    expect(boletoNumbers({ bankCode: "001", amountCents: 102656, dueDate: "2018-07-15", freeField: "0000001149718606852452211" })).toEqual({
      barCode: "00196758600001026560000001149718606852452211",
      bankLine: "00190000090114971860168524522114675860000102656",
    });
    expect(boletoNumbers({ bankCode: "104", amountCents: 21403, dueDate: "2022-05-10", freeField: "2006561000100040099726390" })).toEqual({
      barCode: "10499898100000214032006561000100040099726390",
      bankLine: "10492006506100010004200997263900989810000021403",
    });
  });

  it("use the 2025 due-date factor rule", () => {
    expect(dueDateFactor("1997-10-08")).toBe("0001");
    expect(dueDateFactor("2025-02-21")).toBe("9999");
    expect(dueDateFactor("2025-02-22")).toBe("1000");
    expect(dueDateFactor("2026-12-15")).toBe(String(1000 + 661));
  });

  it("validate with boleto-utils, which reads back amount and due date", () => {
    let checked = 0;
    while (checked < 200) {
      const amountCents = Number(digits(6)) + 1;
      const input = { bankCode: "341", amountCents, dueDate: "2027-01-31", freeField: itauFreeField("109", digits(8), "0910", "12345") };
      const { barCode, bankLine } = boletoNumbers(input);
      if (!checkDigitIsUnambiguous(barCode)) continue;
      const report = boletoUtils.validarBoleto(bankLine) as unknown as { sucesso: boolean; codigoBarras: string; valor: number };
      expect(report.sucesso).toBe(true);
      expect(report.codigoBarras).toBe(barCode);
      expect(Math.round(report.valor * 100)).toBe(amountCents);
      const due = boletoUtils.identificarDataComNovoFator2025(barCode, "CODIGO_DE_BARRAS") as unknown as Date;
      expect(new Date(due).toISOString().slice(0, 10)).toBe("2027-01-31");
      checked += 1;
    }
  });
});

describe("BR Codes", () => {
  /** The BR Code pix-utils builds for the same merchant and payload location. */
  const pixUtilsBrCode = (merchant: { merchantName: string; merchantCity: string }, txid: string) =>
    createDynamicPix({ ...merchant, url: `${PAYLOAD_LOCATION_HOST}/qr/v2/${txid}`, oneTime: true }).throwIfError().toBRCode();

  it("are dynamic, one-time, parse with pix-utils and end with an upper-case CRC", () => {
    const txid = "d3ab7aa50c97cea3b510719fb7448f43";
    const code = dynamicBrCode({ merchantName: "LOJA EXEMPLO LTDA", merchantCity: "SAO PAULO" }, txid);
    expect(code.startsWith("000201010212")).toBe(true);
    expect(code).toMatch(/6304[0-9A-F]{4}$/);
    const parsed = parsePix(code) as { type?: string; url?: string; oneTime?: boolean };
    expect(parsed.type).toBe("DYNAMIC");
    expect(parsed.url).toBe(`pix.sandbox.payments.example/qr/v2/${txid}`);
  });

  it("are exactly what pix-utils builds, for every account's merchant and any txid", () => {
    const merchants = [...createKeyRing().accounts.values()].map((account) => account.brCode);
    expect(merchants.length).toBeGreaterThan(1);
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(..."abcdefABCDEF0123456789xyzXYZ"), minLength: 1, maxLength: 35 }),
        fc.constantFrom(...merchants),
        (txid, merchant) => {
          expect(dynamicBrCode(merchant, txid)).toBe(pixUtilsBrCode(merchant, txid));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("carry every account's merchant name and city as pix-utils writes them (upper case, no accents, within 25 and 15 characters)", () => {
    for (const { brCode } of createKeyRing().accounts.values()) {
      expect(brCode.merchantName).toMatch(/^[A-Z0-9 ]{1,25}$/);
      expect(brCode.merchantCity).toMatch(/^[A-Z0-9 ]{1,15}$/);
    }
  });

  it("keep the CRC's leading zeros", () => {
    // A payload whose CRC16/CCITT-FALSE is below 0x1000, found by trying txids.
    const merchant = { merchantName: "LOJA EXEMPLO LTDA", merchantCity: "SAO PAULO" };
    const codes = Array.from({ length: 200 }, (_, n) => dynamicBrCode(merchant, `txid${n}`));
    const low = codes.find((code) => code.at(-4) === "0");
    expect(low).toBeDefined();
    expect(low).toBe(pixUtilsBrCode(merchant, `txid${codes.indexOf(low!)}`));
  });
});

describe("EndToEndIds", () => {
  it("carry E, the ISPB, the UTC minute and 11 letters or digits", () => {
    const id = endToEndId(new Date("2026-11-21T14:42:10Z"));
    expect(id).toMatch(/^E99999999202611211442[A-Za-z0-9]{11}$/);
    expect(endToEndIdProblem(id)).toBeNull();
  });
});

describe("idempotency fingerprints", () => {
  it("compare bodies as JSON values: member order does not matter, values do", () => {
    expect(canonicalJson({ b: 1, a: [1, { d: 2, c: 3 }] })).toBe(canonicalJson({ a: [1, { c: 3, d: 2 }], b: 1 }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
  });

  it("write every parsed body as members sorted at every level, whatever order it came in", () => {
    // The text stored fingerprints were made from: it must not change.
    const sorted = (value: unknown): string => {
      if (value === null || typeof value !== "object") return JSON.stringify(value);
      if (Array.isArray(value)) return `[${value.map(sorted).join(",")}]`;
      const record = value as Record<string, unknown>;
      return `{${Object.keys(record)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${sorted(record[k])}`)
        .join(",")}}`;
    };
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const parsed = JSON.parse(JSON.stringify(value));
        expect(canonicalJson(parsed)).toBe(sorted(parsed));
      }),
      { numRuns: 1000 },
    );
    expect(canonicalJson({ "10": 1, "9": 2, b: { y: 1, x: 2 } })).toBe('{"10":1,"9":2,"b":{"x":2,"y":1}}');
  });
});

describe("timestamps", () => {
  it("are what Date.prototype.toISOString writes", () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
        expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 2000 },
    );
    for (const ms of [0, -1, 86_399_999, 86_400_000, Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(10000, 0, 1), 1.5, -1.5, 86_399_999.9, -86_400_000.5, 8.64e15, -8.64e15]) {
      expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
    }
    // Past the Date range (no account clock reaches it) a time throws unless its day was the last written.
    expect(() => isoTimestamp(Number.NaN)).toThrow(RangeError);
    expect(() => isoTimestamp(-8.64e15 - 1)).toThrow(RangeError);
    expect(() => isoTimestamp(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
