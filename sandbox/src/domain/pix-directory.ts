/**
 * The sandbox's own directory of PIX keys (sandbox/README.md), beyond the contract's example key:
 * fixtures no other server holds, so no conformance suite can query them or their masked owners
 * (out of the mutation scope with the sandbox's controls; sandbox/test/pix-transactions.test.ts
 * finds them).
 */
/** A CPF or CNPJ with the middle digits masked, as a PIX key lookup shows its owner. */
export function maskTaxId(value: string): string {
  if (value.length === 11) return `***.${value.slice(3, 6)}.${value.slice(6, 9)}-**`;
  return `**.${value.slice(2, 5)}.${value.slice(5, 8)}/${value.slice(8, 12)}-**`;
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

/** The directory by key, to which the contract's example key is added (resources/pix.ts). */
export const sandboxDirectory = (): Map<string, DirectoryEntry> => new Map(SANDBOX_DIRECTORY.map((e) => [e.key, e]));
