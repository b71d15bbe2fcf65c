/**
 * PIX keys (DICT): recognising a key's type and the sandbox's directory of keys that
 * `POST /pix/query` finds. A well-formed key that is not in the directory is not found (404),
 * as a real directory lookup of an unregistered key.
 */
import type { components as FamilyB } from "../../../generated/types/family-b.ts";
import { documentProblem, maskTaxId } from "./documents.ts";

export type PixKeyType = FamilyB["schemas"]["PixKeyType"];
export type PixKeyInfo = FamilyB["schemas"]["PixKeyInfo"];

const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EMAIL = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** The type of a well-formed PIX key, or why it is not one. */
export function pixKeyType(key: string): { type: PixKeyType } | { problem: string } {
  if (/^\d{11}$/.test(key)) return documentProblem(key) === null ? { type: "CPF" } : { problem: "CPF key with wrong check digits" };
  if (/^\d{14}$/.test(key)) return documentProblem(key) === null ? { type: "CNPJ" } : { problem: "CNPJ key with wrong check digits" };
  if (/^\+[1-9]\d{1,14}$/.test(key)) return { type: "PHONE" };
  if (EVP.test(key)) return { type: "EVP" };
  if (key.length <= 77 && EMAIL.test(key)) return { type: "EMAIL" };
  return { problem: "not a CPF, CNPJ, +55 phone, lower-case e-mail or random (EVP) key" };
}

export interface DirectoryEntry {
  key: string;
  owner: { name: string; taxIdMasked: string };
  bank: { ispb: string; name: string };
}

/** Keys registered in the sandbox's directory besides the contract's example key. */
export const SANDBOX_DIRECTORY: readonly DirectoryEntry[] = [
  { key: "93013060425", owner: { name: "Carla Nogueira Dias", taxIdMasked: maskTaxId("93013060425") }, bank: { ispb: "99999999", name: "BANCO SANDBOX S.A." } },
  { key: "11444777000161", owner: { name: "Padaria Pao Quente Ltda", taxIdMasked: maskTaxId("11444777000161") }, bank: { ispb: "99999999", name: "BANCO SANDBOX S.A." } },
  { key: "+5511912345678", owner: { name: "Rafael Tavares Costa", taxIdMasked: maskTaxId("47437751089") }, bank: { ispb: "99999999", name: "BANCO SANDBOX S.A." } },
  { key: "pagamentos@sandbox.payments.example", owner: { name: "Loja Teste Sandbox Ltda", taxIdMasked: maskTaxId("45723174000110") }, bank: { ispb: "99999999", name: "BANCO SANDBOX S.A." } },
  { key: "2f0d6c1e-8b3a-4d7f-9e52-6a1b4c8d0e3f", owner: { name: "Juliana Prado Lopes", taxIdMasked: maskTaxId("52998224725") }, bank: { ispb: "99999999", name: "BANCO SANDBOX S.A." } },
];
