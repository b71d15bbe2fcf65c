/**
 * A legal variant of the sandbox that issues domain values at the edges of their rules: every
 * boleto's barcode has general check digit 1 because 11 minus the mod-11 remainder is 10 or 11,
 * and its typed line a third field whose check digit is 0 because 10 minus the sum is 10;
 * every BR Code (a charge's br_code, a boleto's pix.emv) has a CRC16 that starts with two
 * zeros; the merchant's document has check digits 00 because both remainders are under 2.
 * Everything else is the sandbox's. The values are valid, so the suites must pass it under
 * seed and under full: a check that refused them would refuse a correct server.
 *
 * The edge values are made with this file's mod-11 digit, the sandbox's issuing code (its mod-10
 * digits, its CRC) and cpf-cnpj-validator, not with the contract's checks under test; each is a
 * function of the sandbox's value, so creations, replays and reads stay consistent.
 */
import { cnpj, cpf } from "cpf-cnpj-validator";
import { afterEach, describe, expect, it } from "vitest";
import { barCodeToBankLine } from "@payment-collection/contract/domain/domain-checks.ts";
import { mod10 } from "@payment-collection/sandbox/domain/boleto.ts";
import { withBrCodeCrc } from "@payment-collection/sandbox/domain/brcode.ts";
import { formatReport } from "../../src/runner/report.ts";
import { failures, runAgainstSandbox, type SandboxProxy } from "../sandbox-run.ts";
import { emv, emvFields, startProxy, type Exchange, type Reply } from "./mutants.ts";

type Json = Record<string, unknown>;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** Every string of `width` characters of `alphabet`, in order. */
function* strings(width: number, alphabet = "0123456789"): Generator<string> {
  const total = alphabet.length ** width;
  for (let n = 0; n < total; n++) {
    let text = "";
    for (let rest = n, i = 0; i < width; i++, rest = Math.floor(rest / alphabet.length)) text = alphabet[rest % alphabet.length] + text;
    yield text;
  }
}

/** The first of `candidates` at the edge (the search must find one). */
function firstAtEdge(candidates: Iterable<string>, atEdge: (candidate: string) => boolean): string {
  for (const candidate of candidates) if (atEdge(candidate)) return candidate;
  throw new Error("no candidate at the edge");
}

/** The weighted sum of a barcode's 43 digits without the general check digit, modulo 11 (weights 2..9 from the right). */
function barcodeRemainder(digits43: string): number {
  let sum = 0;
  for (let i = digits43.length - 1, weight = 2; i >= 0; i--, weight = weight === 9 ? 2 : weight + 1) sum += Number(digits43[i]) * weight;
  return sum % 11;
}

/** The general check digit (bank rule): 11 minus the remainder; 0, 10 and 11 become 1. */
function barcodeCheckDigit(digits43: string): number {
  const digit = 11 - barcodeRemainder(digits43);
  return digit >= 10 ? 1 : digit;
}

/** The same boleto (bank, due date, amount) with the last four free-field digits chosen for the edges. */
function boletoAtEdge(barCode: string): { barCode: string; bankLine: string } {
  const withDigit = (digits43: string) => `${digits43.slice(0, 4)}${barcodeCheckDigit(digits43)}${digits43.slice(4)}`;
  const digits43 = firstAtEdge(
    [...strings(4)].map((digits) => barCode.slice(0, 4) + barCode.slice(5, 40) + digits),
    // Remainder 0 or 1: 11 minus it is 11 or 10, so the digit is 1. The third field is barcode digits 35 to 44.
    (candidate) => barcodeRemainder(candidate) <= 1 && mod10(withDigit(candidate).slice(34, 44)) === 0,
  );
  const edge = withDigit(digits43);
  return { barCode: edge, bankLine: barCodeToBankLine(edge) };
}

/** The same BR Code with the last three letters of the merchant name (field 59) chosen so the CRC starts with 00. */
function brCodeAtEdge(code: string): string {
  const fields = emvFields(code).filter(([id]) => id !== "63");
  const name = fields.find(([id]) => id === "59")!;
  const withName = (suffix: string) => withBrCodeCrc(emv(fields.map(([id, value]) => [id, id === "59" ? name[1].slice(0, -3) + suffix : value])) + "6304");
  return withName(firstAtEdge(strings(3, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"), (suffix) => withName(suffix).slice(-4, -2) === "00"));
}

/** The same CPF or CNPJ with the last three body digits chosen so both check digits are 0 (remainders under 2). */
function documentAtEdge(document: string): string {
  const body = document.slice(0, -5);
  return firstAtEdge([...strings(3)].map((digits) => `${body}${digits}00`), (candidate) => (candidate.length === 11 ? cpf : cnpj).isValid(candidate));
}

/** What the variant issued, by kind: the test asserts each edge reached the suites. */
interface Issued {
  boletos: Set<string>;
  brCodes: Set<string>;
  documents: Set<string>;
}

/** Rewrites the domain values of one JSON reply (memoised: one edge value per sandbox value). */
function rewrite(request: Exchange, reply: Reply, issued: Issued, memo: Map<string, string>): Reply {
  if (!/json/.test(reply.headers["content-type"] ?? "") || !reply.body.startsWith("{")) return reply;
  const once = (value: string, make: (value: string) => string) => {
    if (!memo.has(value)) memo.set(value, make(value));
    return memo.get(value)!;
  };
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== "object" || node === null) return;
    const object = node as Json;
    for (const name of ["br_code", "emv"]) {
      if (typeof object[name] === "string") issued.brCodes.add((object[name] = once(object[name] as string, brCodeAtEdge)) as string);
    }
    if (typeof object.barCode === "string" && typeof object.bankLine === "string") {
      const edge = boletoAtEdge(object.barCode);
      object.barCode = once(object.barCode, () => edge.barCode);
      object.bankLine = once(object.bankLine, () => edge.bankLine);
      issued.boletos.add(object.barCode as string);
    }
    Object.values(object).forEach(walk);
  };
  const body = JSON.parse(reply.body) as Json;
  walk(body);
  if (request.method === "GET" && request.path === "/v1/merchant" && typeof body.document === "string") {
    issued.documents.add((body.document = once(body.document, documentAtEdge)) as string);
  }
  return { ...reply, body: JSON.stringify(body) };
}

describe("the conformance suites against a sandbox that issues domain values at the edges of their rules", () => {
  it("pass under seed and under full", { timeout: 300_000 }, async () => {
    const issued: Issued = { boletos: new Set(), brCodes: new Set(), documents: new Set() };
    const memo = new Map<string, string>();
    const atEdges: SandboxProxy = (upstream) => startProxy(upstream, async (request, forward) => rewrite(request, await forward(request), issued, memo));

    // Side by side, each with its sandbox (the edge values are memoised per sandbox value): most
    // of a run is waiting, which the other fills.
    const [seed, full] = await Promise.all([runAgainstSandbox({ proxy: atEdges }, cleanups), runAgainstSandbox({ proxy: atEdges, profile: "full" }, cleanups)]);
    expect(failures(seed), formatReport(seed)).toEqual([]);
    expect(failures(full), formatReport(full)).toEqual([]);

    // The suites met the edges: boletos with general digit 1 and a third-field digit 0, BR Codes
    // with CRC 00xx, merchant documents ending 00.
    expect(issued.boletos.size).toBeGreaterThan(0);
    for (const barCode of issued.boletos) expect(barCode[4]).toBe("1");
    expect([...issued.brCodes].some((code) => code.includes("br.gov.bcb.pix"))).toBe(true);
    for (const code of issued.brCodes) expect(code.slice(-8, -2)).toBe("630400");
    expect(issued.documents.size).toBeGreaterThan(0);
    for (const document of issued.documents) expect(document.slice(-2)).toBe("00");
  });
});
