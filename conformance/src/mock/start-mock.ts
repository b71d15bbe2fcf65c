/**
 * Starts Prism for both families from the generated OpenAPI (3.0 documents), one port per
 * family. Used by `npm run mock` and by the conformance run against the mock.
 */
import { startPrism, type RunningPrism } from "./prism.ts";
import { FAMILY_IDS, loadFamilyContract, type FamilyId } from "@payment-collection/contract/model/index.ts";

export interface RunningMock {
  urls: Record<FamilyId, string>;
  close(): Promise<void>;
}

/** Starts one Prism per family; closes what it started if one of them fails. */
export async function startMock(options: { host?: string; ports?: Partial<Record<FamilyId, number>>; dynamic?: boolean } = {}): Promise<RunningMock> {
  const started: RunningPrism[] = [];
  const urls = {} as Record<FamilyId, string>;
  try {
    for (const family of FAMILY_IDS) {
      const prism = await startPrism({
        document: loadFamilyContract(family).mockDocument,
        host: options.host ?? "127.0.0.1",
        port: options.ports?.[family] ?? 0,
        dynamic: options.dynamic ?? false,
      });
      started.push(prism);
      urls[family] = prism.url;
    }
  } catch (error) {
    await Promise.all(started.map((p) => p.close()));
    throw error;
  }
  return { urls, close: async () => void (await Promise.all(started.map((p) => p.close()))) };
}
